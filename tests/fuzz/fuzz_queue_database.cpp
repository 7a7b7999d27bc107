// libFuzzer target: the PACS queue's database (readQueue), as whatever a crash, a disk or a user
// left in queue.db: a clear error or the items, never a crash. Seeds are real queue databases
// (small pages), so mutations reach SQLite's b-tree pages and our decoding of each record.
#include <cstdlib>
#include <filesystem>

#include "fuzz_file.h"
#include "sonolink/dicom/store_queue.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string directory = [] {
        auto path = sonolink::fuzz::scratchPath(".queue");
        std::atexit([] {  // nothing of ours left in /dev/shm
            std::error_code ignored;
            std::filesystem::remove_all(sonolink::fuzz::scratchPath(".queue"), ignored);
        });
        return path;
    }();
    std::error_code ec;
    std::filesystem::create_directories(directory + "/objects", ec);
    const auto database = directory + "/queue.db";
    for (const auto* companion : {"-wal", "-shm"}) std::filesystem::remove(database + companion, ec);
    if (!sonolink::fuzz::writeScratch(database, data, size)) return 0;
    (void)sonolink::dicom::readQueue(directory);
    return 0;
}
