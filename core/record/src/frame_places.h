// FramePlaces: where one data set's frames lie in a file read through a remote ByteSource, for
// staging them ahead of HDF5's reads. Frames written one after another follow each other in the
// file, with now and then a node of the chunk index between them, so frame f, k frames after one
// whose place is known (looked up through HDF5's chunk index, or seen as it was read), is
// predicted to start k - 1 frame lengths after that one's end, with 16 KiB of room and 8 KiB
// more for each frame between (a node shifts every frame after it): no lookup, which in HDF5
// 1.10 walks the chunk index from its start (linear in the frame's position, 24 lookups a
// frame); a seek looks up the frame's first chunk only. A frame staged on a guess is staged again
// only when what was learned since shows that it cannot hold the frame. A wrong prediction
// costs only speed (reads are served by address); three frames in a row with a read it missed
// stop the predictions.
// Private to sonolink_record. Thread contract: one thread (the reader's).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "range_driver.h"

namespace sonolink::record {

class FramePlaces {
public:
    explicit FramePlaces(std::uint64_t sourceBytes) : sourceBytes_(sourceBytes) {}
    // The frames to stage for a read of [first, first + count): these and, when frames are read
    // in order, the next `ahead` (as many as the data set has).
    [[nodiscard]] std::pair<hsize_t, hsize_t> toStage(hsize_t first, hsize_t count, hsize_t ahead, hsize_t frames);
    // Frame f's ranges: staged already, predicted, or looked up (lookup(): HDF5's chunk index).
    // A seek, once a frame's length is known, looks up only the frame's first chunk (lookupFirst())
    // and takes a frame's length from there.
    [[nodiscard]] std::vector<ByteRange> rangesOf(hsize_t f, const std::function<std::vector<ByteRange>()>& lookup,
                                                  const std::function<std::vector<ByteRange>()>& lookupFirst);
    // After frames were read: where a single frame really lay (the span of its chunks' reads),
    // and whether a read missed what was staged.
    void learn(hsize_t first, hsize_t count, std::optional<ByteRange> span, bool missed);

private:
    [[nodiscard]] std::optional<ByteRange> predicted(hsize_t f) const;
    void place(hsize_t f, ByteRange at);

    std::uint64_t sourceBytes_;
    hsize_t nextSequential_ = 0;  // the frame a reader in order asks for next
    struct Window {
        std::vector<ByteRange> ranges;
        bool exact = false;  // starts where the chunk index says (not a guess)
    };
    std::map<hsize_t, Window> windows_;    // what was staged for a frame
    std::map<hsize_t, ByteRange> actual_;  // where a frame lies
    std::uint64_t frameLength_ = 0;        // the shortest place seen: its chunks with nothing between
    bool predict_ = true;
    int missesInARow_ = 0;
};

}  // namespace sonolink::record
