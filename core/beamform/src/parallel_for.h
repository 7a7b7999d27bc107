// parallelFor: body(i) for i in [0, count), shared over `threads` threads (0: one per hardware
// thread), each taking every threads-th index; the calling thread takes a share.
// Thread contract: body must be safe to call concurrently for different indices.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace sonolink::beamform {

inline void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));
    if (threads <= 1) {
        for (std::size_t i = 0; i < count; ++i) body(i);
        return;
    }
    // The calling thread takes the first share: one thread fewer to start per call.
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (std::size_t i = t; i < count; i += threads) body(i);
        });
    }
    for (std::size_t i = 0; i < count; i += threads) body(i);
    for (auto& w : workers) w.join();
}

}  // namespace sonolink::beamform
