// parallelFor: body(i) for i in [0, count), shared over `threads` threads (0: one per hardware
// thread), each taking every threads-th index; the calling thread takes a share. The threads are
// a pool started the first time a thread count is asked for and kept for the process (a live
// image must not start threads per frame); calls that use the same pool take turns.
// Thread contract: body must be safe to call concurrently for different indices, and must not
// itself call parallelFor.
#pragma once

#include <cstddef>
#include <functional>

namespace sonolink::beamform {

void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace sonolink::beamform
