// UFF recordings read through a ByteSource (the S3 archive's path, and a mapped file): the same
// header and samples as the file read directly; opening costs a few metadata blocks and a frame
// fetches about its own bytes, wherever it lies (a seek fetches nothing before it); a source
// that fails names its reason in the reader's error. The read-ahead ring's buffers are pinned
// (where a GPU is present: here a HostPinning that records what it is asked) once each, and freed
// and unpinned when the last reader closes; a buffer that cannot be pinned is used as it is.
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "sonolink/util/byte_source.h"
#include "sonolink/record/read_ahead.h"
#include "sonolink/record/uff_channel_data.h"
#include "sonolink/record/uff_reader.h"
#include "sonolink/record/uff_stream_writer.h"

namespace sonolink::record {
namespace {

// Counts what is read through it, and fails every read past failFrom.
class CountingSource final : public ByteSource {
public:
    explicit CountingSource(std::shared_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return "counted:" + inner_->name(); }
    std::uint64_t size() const override { return inner_->size(); }
    bool remote() const override { return true; }  // as the archive's: fetched ahead
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        if (offset + into.size() > failFrom) return fail(ErrorCode::Unavailable, "GET s3://b/k: connection reset (test)");
        bytes += into.size();
        ++reads;
        return inner_->read(offset, into);
    }
    std::uint64_t bytes = 0, reads = 0;
    std::uint64_t failFrom = ~0ULL;

private:
    std::shared_ptr<ByteSource> inner_;
};

UffChannelData recording(int frames) {
    UffChannelData d;
    d.geometry.samplingRateHz = 40e6;
    d.geometry.waves = 3;
    d.geometry.channels = 64;
    d.geometry.samples = 1024;
    for (int e = 0; e < 64; ++e) d.geometry.elementX.push_back((e - 31.5) * 0.3e-3);
    d.geometry.angleRad = {-0.1, 0, 0.1};
    d.frames = frames;
    d.data16.resize(static_cast<std::size_t>(frames) * 3 * 64 * 1024);
    for (std::size_t i = 0; i < d.data16.size(); ++i) d.data16[i] = static_cast<std::int16_t>((i * 2654435761u) >> 17);
    return d;
}

TEST(ByteSourceReading, AFrameFetchesAboutItsOwnBytesAndTheSamplesAreTheFilesOwn) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_" + std::to_string(::getpid()) + ".uff");
    const auto original = recording(20);
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    const std::uint64_t frameBytes = 3 * 64 * 1024 * 2;

    auto mapped = mapFile(path);
    ASSERT_TRUE(mapped) << mapped.error().describe();
    auto counted = std::make_shared<CountingSource>(*mapped);
    auto reader = UffReader::open(counted);
    ASSERT_TRUE(reader) << reader.error().describe();
    EXPECT_EQ(reader->header().framesInFile, 20);
    EXPECT_EQ(reader->header().geometry.elementX, original.geometry.elementX);
    EXPECT_LE(counted->bytes, 4u * (256 << 10)) << "opening reads metadata blocks, not the samples";
    EXPECT_LE(counted->reads, 4u);

    std::vector<std::int16_t> frame(3 * 64 * 1024);
    for (int index : {13, 2, 19}) {  // seeks both ways
        const auto before = counted->bytes;
        ASSERT_TRUE(reader->readFrame16(index, frame));
        EXPECT_TRUE(std::equal(frame.begin(), frame.end(), original.data16.begin() + static_cast<std::ptrdiff_t>(index * frame.size()))) << index;
        EXPECT_LE(counted->bytes - before, frameBytes + (256 << 10)) << "frame " << index << " fetched only what it needs";
        EXPECT_GE(counted->bytes - before, frameBytes);
    }
    auto direct = UffReader::open(path.string());
    ASSERT_TRUE(direct);
    auto all = reader->read();
    ASSERT_TRUE(all);
    EXPECT_EQ(all->data16, original.data16);

    // In order, each frame comes in one request and the next ones are fetched ahead of it.
    {
        auto inOrder = std::make_shared<CountingSource>(*mapped);
        auto sequential = UffReader::open(inOrder);
        ASSERT_TRUE(sequential);
        const auto opened = inOrder->reads;
        for (int index = 3; index < 9; ++index) ASSERT_TRUE(sequential->readFrame16(index, frame));
        // The six frames read and the five fetched ahead of the last: one request a frame (its
        // chunks coalesced), not one a chunk (24 a frame here).
        EXPECT_LE(inOrder->reads - opened, 6u + 5u);
        EXPECT_LE(inOrder->bytes, 11 * frameBytes + 11 * (256 << 10));
    }

    auto failing = std::make_shared<CountingSource>(*mapped);
    reader = UffReader::open(failing);
    ASSERT_TRUE(reader);
    failing->failFrom = mapped->get()->size() - frameBytes;  // the last frame cannot be fetched
    auto failed = reader->readFrame16(19, frame);
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(failed.error().message().find("connection reset (test)"), std::string::npos) << failed.error().message();
    EXPECT_NE(failed.error().message().find("19"), std::string::npos) << failed.error().message();
    std::filesystem::remove(path);
}

// A recording as the recorder writes it, frame after frame (nodes of HDF5's chunk index land
// between the frames): read in order through a remote source, each frame comes in about one
// request of about its own bytes, its place predicted from the frames before it (HDF5 1.10's
// chunk lookup is linear in the frame's position), and every sample is the one written.
TEST(ByteSourceReading, ARecordingWrittenFrameByFrameStreamsInOrderAtAboutItsOwnBytes) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_stream_" + std::to_string(::getpid()) + ".uff");
    const auto original = recording(40);
    {
        auto writer = UffStreamWriter::create(path.string(), original.geometry);
        ASSERT_TRUE(writer) << writer.error().describe();
        const std::size_t wave = 64 * 1024;
        for (int f = 0; f < 40; ++f) {
            ASSERT_TRUE((*writer)->beginFrame(static_cast<std::uint32_t>(f), 1000u * static_cast<std::uint64_t>(f)));
            for (int w = 0; w < 3; ++w) {
                const auto* first = original.data16.data() + (static_cast<std::size_t>(f) * 3 + static_cast<std::size_t>(w)) * wave;
                ASSERT_TRUE((*writer)->writeBlock(w, 0, 64, 0, 1024, std::as_bytes(std::span(first, wave))));
            }
            ASSERT_TRUE((*writer)->endFrame());
        }
        ASSERT_TRUE((*writer)->close());
    }
    const std::uint64_t frameBytes = 3 * 64 * 1024 * 2;
    auto counted = std::make_shared<CountingSource>(*mapFile(path));
    auto reader = UffReader::open(counted);
    ASSERT_TRUE(reader) << reader.error().describe();
    ASSERT_EQ(reader->header().framesInFile, 40);
    const auto opened = counted->bytes;
    const auto openReads = counted->reads;
    std::vector<std::int16_t> frame(3 * 64 * 1024);
    for (int index = 0; index < 40; ++index) {
        ASSERT_TRUE(reader->readFrame16(index, frame)) << index;
        ASSERT_TRUE(std::equal(frame.begin(), frame.end(), original.data16.begin() + static_cast<std::ptrdiff_t>(index * frame.size()))) << index;
    }
    EXPECT_LE(counted->reads - openReads, 40u + 8u) << "about one request a frame";
    // Each frame's own bytes and 16 KiB of room (4 % of these small frames, 1 % of the shipped
    // configuration's), and now and then a 256 KiB block of metadata: the chunk index's nodes
    // that HDF5 reads between the frames (6 blocks here).
    EXPECT_LE(counted->bytes - opened, 40 * (frameBytes + (16 << 10)) + 8 * (256 << 10)) << "about each frame's own bytes";
    EXPECT_GE(counted->bytes - opened, 40 * frameBytes);
    // Seeks: the frame's first chunk looked up, a frame's length fetched from there.
    for (int index : {7, 20, 3}) {  // not among the last frames read (still staged)
        const auto before = counted->bytes;
        ASSERT_TRUE(reader->readFrame16(index, frame)) << index;
        ASSERT_TRUE(std::equal(frame.begin(), frame.end(), original.data16.begin() + static_cast<std::ptrdiff_t>(index * frame.size()))) << index;
        EXPECT_LE(counted->bytes - before, frameBytes + (16 << 10) + (256 << 10)) << "seek to " << index;
        EXPECT_GE(counted->bytes - before, frameBytes) << "seek to " << index;
    }
    std::filesystem::remove(path);
}

// The shipped configuration's frames (3 waves x 128 channels x 2048 samples: 24 chunks of 64 KiB,
// a node of HDF5's chunk index every 64 chunks, and the first chunks of the acquisition's frame
// ids and times after frame 0): each frame fetched about once, in about one request. A node shifts
// every frame after it; the frames staged ahead on an older guess must still hold, not be fetched
// again. A gap wider than the room (49,160 bytes of ids and times between two frames, which a
// slow run of the writer leaves once in these 24 frames) makes the frames staged past it be
// fetched again: allowed here once. Before the frames' room grew with their distance, 54 reads
// and 80 MB.
TEST(ByteSourceReading, ShippedSizeFramesAreEachFetchedOnceThoughTheIndexShiftsThem) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_shipped_" + std::to_string(::getpid()) + ".uff");
    constexpr int kFrames = 24, kChannels = 128, kSamples = 2048;
    auto geometry = recording(1).geometry;
    geometry.channels = kChannels;
    geometry.samples = kSamples;
    geometry.elementX.clear();
    for (int e = 0; e < kChannels; ++e) geometry.elementX.push_back((e - 63.5) * 0.3e-3);
    const std::size_t wave = std::size_t{kChannels} * kSamples;
    std::vector<std::int16_t> samples(wave);
    const auto sampleAt = [](std::size_t frameWave, std::size_t i) { return static_cast<std::int16_t>(((frameWave * wave + i) * 2654435761u) >> 17); };
    {
        auto writer = UffStreamWriter::create(path.string(), geometry);
        ASSERT_TRUE(writer) << writer.error().describe();
        for (int f = 0; f < kFrames; ++f) {
            ASSERT_TRUE((*writer)->beginFrame(static_cast<std::uint32_t>(f), 1000u * static_cast<std::uint64_t>(f)));
            for (int w = 0; w < 3; ++w) {
                for (std::size_t i = 0; i < wave; ++i) samples[i] = sampleAt(static_cast<std::size_t>(f) * 3 + static_cast<std::size_t>(w), i);
                ASSERT_TRUE((*writer)->writeBlock(w, 0, kChannels, 0, kSamples, std::as_bytes(std::span(samples))));
            }
            ASSERT_TRUE((*writer)->endFrame());
        }
        ASSERT_TRUE((*writer)->close());
    }
    const std::uint64_t frameBytes = 3 * wave * 2;
    auto counted = std::make_shared<CountingSource>(*mapFile(path));
    auto reader = UffReader::open(counted);
    ASSERT_TRUE(reader) << reader.error().describe();
    const auto opened = counted->bytes;
    const auto openReads = counted->reads;
    std::vector<std::int16_t> frame(3 * wave);
    for (int index = 0; index < kFrames; ++index) {
        ASSERT_TRUE(reader->readFrame16(index, frame)) << index;
        bool same = true;
        for (std::size_t i = 0; i < frame.size() && same; ++i) same = frame[i] == sampleAt(static_cast<std::size_t>(index) * 3 + i / wave, i % wave);
        ASSERT_TRUE(same) << "frame " << index;
    }
    EXPECT_LE(counted->reads - openReads, kFrames + 6u + 6u) << "about one request a frame";
    EXPECT_LE(counted->bytes - opened, kFrames * (frameBytes + (64 << 10)) + 6 * frameBytes + 6 * (256 << 10)) << "each frame's bytes about once";
    std::filesystem::remove(path);
}

TEST(ByteSourceReading, ASourceThatFailsAtOnceIsNamedWhenOpening) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_fail_" + std::to_string(::getpid()) + ".uff");
    ASSERT_TRUE(writeUffChannelData(path.string(), recording(2)));
    auto counted = std::make_shared<CountingSource>(*mapFile(path));
    counted->failFrom = 0;
    auto reader = UffReader::open(counted);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(reader.error().message().find("connection reset (test)"), std::string::npos) << reader.error().message();
    EXPECT_EQ(mapFile(path.string() + ".absent").error().code(), ErrorCode::NotFound);
    std::filesystem::remove(path);
}

// Records what it is asked to pin and unpin (the CUDA module's pinning where a GPU is present).
class RecordingPinning final : public HostPinning {
public:
    Status pin(void* memory, std::size_t bytes) override {
        std::lock_guard lock(mutex);
        if (refuse) return fail(ErrorCode::Unavailable, "cudaHostRegister of the buffer failed: out of memory (test)");
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(memory) % 4096, 0u) << "page-aligned";
        EXPECT_TRUE(pinned.emplace(memory, bytes).second) << "pinned twice";
        ++pins;
        return {};
    }
    void unpin(void* memory) noexcept override {
        std::lock_guard lock(mutex);
        EXPECT_EQ(pinned.erase(memory), 1u) << "unpinned, but not pinned";
        ++unpins;
    }
    std::mutex mutex;
    std::map<void*, std::size_t> pinned;  // pinned now
    std::uint64_t pins = 0, unpins = 0;
    bool refuse = false;
};

// Reads every frame of the file in order through a remote source; true when each is the one written.
bool readsInOrder(const std::filesystem::path& path, const UffChannelData& original) {
    auto reader = UffReader::open(std::make_shared<CountingSource>(*mapFile(path)));
    if (!reader) return false;
    std::vector<std::int16_t> frame(original.geometry.samplesPerFrame());
    for (int index = 0; index < original.frames; ++index) {
        if (!reader->readFrame16(index, frame)) return false;
        if (!std::equal(frame.begin(), frame.end(), original.data16.begin() + static_cast<std::ptrdiff_t>(index * frame.size()))) return false;
    }
    return true;
}

TEST(ByteSourceReading, TheReadAheadRingIsPinnedOnceABufferAndUnpinnedWhenTheLastReaderCloses) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_pinned_" + std::to_string(::getpid()) + ".uff");
    const auto original = recording(24);
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    auto pinning = std::make_shared<RecordingPinning>();
    pinReadAheadBuffers(pinning);
    const auto before = readAheadCounts();
    EXPECT_TRUE(readsInOrder(path, original));
    pinReadAheadBuffers(nullptr);
    const auto after = readAheadCounts();
    const auto made = after.buffersMade - before.buffersMade;
    EXPECT_GT(made, 0u);
    EXPECT_LE(made, 18u) << "16 ranges kept, the next fetched into the buffers of those dropped: not a buffer a frame";
    EXPECT_EQ(after.buffersPinned - before.buffersPinned, made);
    EXPECT_EQ(pinning->pins, made) << "each buffer pinned once, when it is made";
    EXPECT_EQ(after.pinFailures, before.pinFailures);
    EXPECT_EQ(after.buffersFreed - before.buffersFreed, made) << "the reader closed: its ring is freed";
    EXPECT_EQ(pinning->unpins, pinning->pins);
    EXPECT_TRUE(pinning->pinned.empty()) << "every pinned buffer unpinned before it was freed";
    std::filesystem::remove(path);
}

TEST(ByteSourceReading, ABufferThatCannotBePinnedIsUsedAsItIs) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_source_unpinned_" + std::to_string(::getpid()) + ".uff");
    const auto original = recording(8);
    ASSERT_TRUE(writeUffChannelData(path.string(), original));
    auto pinning = std::make_shared<RecordingPinning>();
    pinning->refuse = true;
    pinReadAheadBuffers(pinning);
    const auto before = readAheadCounts();
    EXPECT_TRUE(readsInOrder(path, original)) << "the samples are the same, from pageable buffers";
    pinReadAheadBuffers(nullptr);
    const auto after = readAheadCounts();
    EXPECT_GT(after.buffersMade, before.buffersMade);
    EXPECT_EQ(after.pinFailures - before.pinFailures, after.buffersMade - before.buffersMade);
    EXPECT_EQ(after.buffersPinned, before.buffersPinned);
    EXPECT_EQ(pinning->unpins, 0u) << "nothing unpinned that was not pinned";
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace sonolink::record
