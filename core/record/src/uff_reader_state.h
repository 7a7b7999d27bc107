// UffReader's State, shared by its files: the open file and data sets with the header read from
// them (uff_reader_metadata.cpp), and where the frames lie, for reading them (uff_reader.cpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <hdf5.h>

#include "frame_places.h"
#include "range_driver.h"
#include "sonolink/record/uff_reader.h"
#include "uff_hdf5.h"

namespace sonolink::record {

struct UffReader::State {
    std::string where;  // path:group, for messages
    Handle file{-1, H5Fclose};
    Handle group{-1, H5Gclose};
    Handle iqGroup{-1, H5Gclose};
    Handle data{-1, H5Dclose};  // RF samples, or IQ's real parts
    Handle imag{-1, H5Dclose};  // IQ's imaginary parts
    std::vector<hsize_t> dims;  // as stored (rank 2 to 4)
    bool int16 = false;
    UffChannelData header;               // no samples; frames = 0
    std::shared_ptr<ByteSource> source;  // read through it (an S3 object, a mapped file); null: a local file
    // Where each data set's frames lie, for staging them (a remote source only).
    mutable std::map<hid_t, FramePlaces> places;

    ~State() {
        if (source) dropStaged(*source);
    }
    // The byte ranges that hold frames [first, first + count) of dataset in the file, coalesced
    // (chunks found through HDF5's chunk index; a contiguous data set by its offset); empty when
    // they cannot be told (HDF5 then reads as it would).
    // firstChunkOnly: the frame's first chunk alone (a seek's start, 1 lookup where a frame needs 24).
    [[nodiscard]] std::vector<ByteRange> frameExtents(hid_t dataset, hsize_t first, hsize_t count, bool firstChunkOnly = false) const;
    // Through a source: these frames' ranges fetched now in as few requests as they allow and,
    // when frames are read in order, the next kReadAheadFrames' too.
    void stageFrames(hid_t dataset, hsize_t first, hsize_t count) const;
    // Where this data set's frames lie (made on first use).
    [[nodiscard]] FramePlaces& placesOf(hid_t dataset) const;

    // Opens the file (by path, or through source) and load()s it.
    Status open(const std::string& path, const std::string& groupName);
    // Reads the metadata and opens the data sets; every check that needs no samples.
    Status load(const std::string& path, const std::string& groupName);
    // load()'s steps: the data set(s) and their shape, the probe's elements, the waves.
    Status openData();
    Status readProbe();
    Status readSequence();
    // The source's reason when a read through it failed (a cut connection, a refused range).
    [[nodiscard]] Error explained(Error error) const;
    // Frames [first, first + count) into out (count x samplesPerFrame values of memoryType).
    Status readInto(hid_t dataset, hid_t memoryType, hsize_t first, hsize_t count, void* out) const;
};

}  // namespace sonolink::record
