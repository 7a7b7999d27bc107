// libFuzzer target: the UFF reader (readUffChannelData) on any file, with a small memory budget:
// a clear error, never a crash, a hang or an allocation past the budget.
#include <cstdio>

#include "fuzz_file.h"
#include "sonolink/record/uff_channel_data.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& path = sonolink::fuzz::scratchPath(".uff");
    if (!sonolink::fuzz::writeScratch(path, data, size)) return 0;
    auto read = sonolink::record::readUffChannelData(path, "/channel_data", {0, 4, 64 << 20});
    if (read) (void)read->frame(0);
    std::remove(path.c_str());
    return 0;
}
