// libFuzzer target: the PACS queue's journal (readQueue), as whatever a crash, a disk or a user
// left in journal.jsonl: a clear error or the items, never a crash.
#include <filesystem>

#include "fuzz_file.h"
#include "sonolink/dicom/store_queue.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string directory = sonolink::fuzz::scratchPath(".queue");
    std::error_code ec;
    std::filesystem::create_directories(directory + "/objects", ec);
    if (!sonolink::fuzz::writeScratch(directory + "/journal.jsonl", data, size)) return 0;
    (void)sonolink::dicom::readQueue(directory);
    return 0;
}
