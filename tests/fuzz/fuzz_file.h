// Fuzz targets whose parser reads a file: the input written to a file of this process's own
// under /dev/shm (memory, fast), removed after each run. Thread contract: one thread.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace sonolink::fuzz {

inline const std::string& scratchPath(const char* suffix) {
    static const std::string path = "/dev/shm/sonolink-fuzz-" + std::to_string(::getpid()) + suffix;
    return path;
}

inline bool writeScratch(const std::string& path, const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

}  // namespace sonolink::fuzz
