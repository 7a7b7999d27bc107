// libFuzzer target: a DICOM object we read (inspectObject: what the queue and `dicom send` read
// first), as any file: a clear error, never a crash.
#include <cstdio>

#include "fuzz_file.h"
#include "sonolink/dicom/pacs_client.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& path = sonolink::fuzz::scratchPath(".dcm");
    if (!sonolink::fuzz::writeScratch(path, data, size)) return 0;
    (void)sonolink::dicom::inspectObject(path);
    std::remove(path.c_str());
    return 0;
}
