#include "memory_kernels.h"

namespace sonolink::selftest::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ std::uint64_t valueOf(const Pattern& p, std::size_t i) {
    switch (p.kind) {
        case PatternKind::Constant: return p.a;
        case PatternKind::Walking: return (1ull << ((i + p.a) % 64)) ^ p.b;
        case PatternKind::Address: return static_cast<std::uint64_t>(i) ^ p.b;
        case PatternKind::Random: {
            const std::uint64_t x = (static_cast<std::uint64_t>(i) ^ p.a) * 0x9E3779B97F4A7C15ull;  // detail::randomWord
            return (x ^ (x >> 29)) ^ p.b;
        }
    }
    return 0;
}

__device__ void record(DeviceReport* r, std::size_t i, std::uint64_t expected, std::uint64_t actual) {
    atomicAdd(&r->mismatches, 1ull);
    const unsigned slot = atomicAdd(&r->recorded, 1u);
    if (slot < kReported) {
        r->word[slot] = i;
        r->expected[slot] = expected;
        r->actual[slot] = actual;
    }
}

// Each thread takes the words t, t + T, t + 2T, ... (T threads in the grid: neighbouring threads
// read neighbouring words), in the element's direction.
__global__ void element(Element e) {
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t rows = (e.count + threads - 1) / threads;
    volatile std::uint64_t* words = e.words;
    for (std::size_t k = 0; k < rows; ++k) {
        const std::size_t i = (e.up ? k : rows - 1 - k) * threads + t;
        if (i >= e.count) continue;
        const std::uint64_t expected = e.check || e.store == Store::Complement ? valueOf(e.expect, i) : 0;
        if (e.check) {
            const std::uint64_t v = words[i];
            if (v != expected) record(e.report, i, expected, v);
        }
        if (e.store != Store::None) {
            std::uint64_t w = e.store == Store::Complement ? ~expected : valueOf(e.write, i);
            if (i == e.faultWord) w = (w | e.stuckAtOne) & ~e.stuckAtZero;
            words[i] = w;
        }
    }
}

}  // namespace

void launchElement(const Element& e, int blocks, cudaStream_t stream) { element<<<blocks, kThreads, 0, stream>>>(e); }

}  // namespace sonolink::selftest::cuda
