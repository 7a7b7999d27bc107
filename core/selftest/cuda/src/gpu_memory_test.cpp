#include "sonolink/selftest/cuda/gpu_memory_test.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "memory_kernels.h"

namespace sonolink::selftest::cuda {
namespace {

Status check(cudaError_t rc, const char* what) {
    if (rc == cudaSuccess) return {};
    return fail(ErrorCode::Internal, fmt::format("{} failed: {}", what, cudaGetErrorString(rc)));
}

constexpr std::uint64_t kOnes = ~0ull;

Pattern constant(std::uint64_t v) { return {PatternKind::Constant, v, 0}; }

}  // namespace

struct GpuMemoryTester::State {
    GpuMemoryTestSetup setup;
    std::string name;
    std::uint64_t* words = nullptr;
    std::size_t count = 0;
    DeviceReport* report = nullptr;
    cudaStream_t stream = nullptr;
    int blocks = 0;

    ~State() {
        cudaSetDevice(setup.device);
        if (stream) cudaStreamDestroy(stream);
        if (report) cudaFree(report);
        if (words) cudaFree(words);
    }

    Status init() {
        if (auto ok = check(cudaSetDevice(setup.device), "cudaSetDevice"); !ok) {
            return fail(ErrorCode::Unavailable, fmt::format("GPU {} is not usable: {}", setup.device, ok.error().message()));
        }
        cudaDeviceProp prop{};
        if (auto ok = check(cudaGetDeviceProperties(&prop, setup.device), "cudaGetDeviceProperties"); !ok) return ok;
        name = prop.name;
        blocks = prop.multiProcessorCount * 8;  // enough threads in flight to keep the memory busy
        count = setup.bytes / 8;
        void* memory = nullptr;
        if (cudaMalloc(&memory, count * 8) != cudaSuccess) {
            (void)cudaGetLastError();
            std::size_t free = 0, total = 0;
            cudaMemGetInfo(&free, &total);
            return fail(ErrorCode::ResourceExhausted,
                        fmt::format("{} MiB of GPU memory to test on {}: {} MiB free of {} MiB", (count * 8) >> 20, name, free >> 20, total >> 20));
        }
        words = static_cast<std::uint64_t*>(memory);
        void* r = nullptr;
        if (auto ok = check(cudaMalloc(&r, sizeof(DeviceReport)), "cudaMalloc (report)"); !ok) return ok;
        report = static_cast<DeviceReport*>(r);
        return check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    }

    // Queues one element; what it moved is added to r.
    void element(MemoryTestResult& r, bool up, bool check, Store store, Pattern expect, Pattern write) {
        const auto& planted = setup.planted;
        launchElement({words, count, up, check, store, expect, write, planted ? planted->word : count, planted ? planted->stuckAtOne : 0,
                       planted ? planted->stuckAtZero : 0, report},
                      blocks, stream);
        r.bytesMoved += (std::uint64_t{check} + std::uint64_t{store != Store::None}) * count * 8;
    }

    // The element sequences of runMemoryTest (memory_tests.h), one kernel per element.
    void queue(MemoryAlgorithm algorithm, std::uint64_t seed, MemoryTestResult& r) {
        constexpr bool up = true, down = false, read = true;
        switch (algorithm) {
            case MemoryAlgorithm::SolidPatterns:
                for (const std::uint64_t p : {0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull}) {
                    element(r, up, !read, Store::Pattern, constant(p), constant(p));
                    element(r, up, read, Store::None, constant(p), constant(p));
                }
                break;
            case MemoryAlgorithm::WalkingOnes:
            case MemoryAlgorithm::WalkingZeros: {
                const std::uint64_t flip = algorithm == MemoryAlgorithm::WalkingZeros ? kOnes : 0;
                const auto pattern = [flip](unsigned pass) { return Pattern{PatternKind::Walking, pass, flip}; };
                element(r, up, !read, Store::Pattern, pattern(0), pattern(0));
                for (unsigned pass = 1; pass < 64; ++pass) element(r, up, read, Store::Pattern, pattern(pass - 1), pattern(pass));
                element(r, up, read, Store::None, pattern(63), pattern(63));
                break;
            }
            case MemoryAlgorithm::AddressInAddress: {
                const Pattern own{PatternKind::Address, 0, 0}, complement{PatternKind::Address, 0, kOnes};
                element(r, up, !read, Store::Pattern, own, own);
                element(r, up, read, Store::Complement, own, own);
                element(r, down, read, Store::None, complement, complement);
                break;
            }
            case MemoryAlgorithm::MarchCMinus: {
                const auto zeros = constant(0), ones = constant(kOnes);
                element(r, up, !read, Store::Pattern, zeros, zeros);
                element(r, up, read, Store::Complement, zeros, zeros);
                element(r, up, read, Store::Complement, ones, ones);
                element(r, down, read, Store::Complement, zeros, zeros);
                element(r, down, read, Store::Complement, ones, ones);
                element(r, up, read, Store::None, zeros, zeros);
                break;
            }
            case MemoryAlgorithm::MovingInversions:
                for (const std::uint64_t p : {std::uint64_t{0}, kOnes, std::uint64_t{0x5555555555555555ull}, std::uint64_t{0xAAAAAAAAAAAAAAAAull}}) {
                    element(r, up, !read, Store::Pattern, constant(p), constant(p));
                    element(r, up, read, Store::Complement, constant(p), constant(p));
                    element(r, down, read, Store::Complement, constant(~p), constant(~p));
                }
                break;
            case MemoryAlgorithm::RandomPattern: {
                const Pattern random{PatternKind::Random, detail::randomWord(seed, 0x5eed), 0};
                const Pattern inverse{PatternKind::Random, random.a, kOnes};
                element(r, up, !read, Store::Pattern, random, random);
                element(r, up, read, Store::Complement, random, random);
                element(r, down, read, Store::None, inverse, inverse);
                break;
            }
        }
    }
};

GpuMemoryTester::GpuMemoryTester(std::unique_ptr<State> state) : state_(std::move(state)) {}
GpuMemoryTester::~GpuMemoryTester() = default;

Result<std::unique_ptr<GpuMemoryTester>> GpuMemoryTester::create(const GpuMemoryTestSetup& setup) {
    if (setup.bytes < 8) return fail(ErrorCode::InvalidArgument, fmt::format("{} bytes of GPU memory to test: at least one 64-bit word", setup.bytes));
    if (setup.planted && setup.planted->word >= setup.bytes / 8) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the planted fault's word {} lies outside the {} words tested", setup.planted->word, setup.bytes / 8));
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices <= setup.device) {
        (void)cudaGetLastError();
        return fail(ErrorCode::Unavailable, fmt::format("no CUDA device {} on this station ({} found)", setup.device, devices));
    }
    auto state = std::make_unique<State>();
    state->setup = setup;
    if (auto ok = state->init(); !ok) return fail(std::move(ok.error()));
    return std::unique_ptr<GpuMemoryTester>(new GpuMemoryTester(std::move(state)));
}

Result<MemoryTestResult> GpuMemoryTester::run(MemoryAlgorithm algorithm, std::uint64_t seed) {
    auto& s = *state_;
    if (auto ok = check(cudaSetDevice(s.setup.device), "cudaSetDevice"); !ok) return fail(std::move(ok.error()));
    (void)cudaGetLastError();
    MemoryTestResult r;
    r.algorithm = algorithm;
    r.bytesTested = static_cast<std::uint64_t>(s.count) * 8;
    if (auto ok = check(cudaMemsetAsync(s.report, 0, sizeof(DeviceReport), s.stream), "clearing the report"); !ok) return fail(std::move(ok.error()));
    if (auto ok = check(cudaStreamSynchronize(s.stream), "clearing the report"); !ok) return fail(std::move(ok.error()));
    const auto start = std::chrono::steady_clock::now();
    s.queue(algorithm, seed, r);
    if (auto ok = check(cudaGetLastError(), "launching the memory test's kernels"); !ok) return fail(std::move(ok.error()));
    if (auto ok = check(cudaStreamSynchronize(s.stream), fmt::format("{} on {}", toString(algorithm), s.name).c_str()); !ok) return fail(std::move(ok.error()));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    DeviceReport report{};
    if (auto ok = check(cudaMemcpy(&report, s.report, sizeof(report), cudaMemcpyDeviceToHost), "reading the report"); !ok) return fail(std::move(ok.error()));
    r.mismatches = report.mismatches;
    const auto recorded = std::min<std::size_t>(report.recorded, kReported);
    for (std::size_t i = 0; i < recorded; ++i) r.first.push_back({static_cast<std::size_t>(report.word[i]), report.expected[i], report.actual[i]});
    std::sort(r.first.begin(), r.first.end(), [](const MemoryMismatch& a, const MemoryMismatch& b) { return a.word < b.word; });
    return r;
}

Result<double> GpuMemoryTester::copyBandwidth(int iterations) {
    auto& s = *state_;
    if (auto ok = check(cudaSetDevice(s.setup.device), "cudaSetDevice"); !ok) return fail(std::move(ok.error()));
    const std::size_t half = s.count / 2 * 8;
    double best = 0;
    for (int i = 0; i < std::max(iterations, 1) + 1; ++i) {  // the first warms up
        const auto start = std::chrono::steady_clock::now();
        if (auto ok = check(cudaMemcpyAsync(reinterpret_cast<std::byte*>(s.words) + half, s.words, half, cudaMemcpyDeviceToDevice, s.stream), "cudaMemcpy");
            !ok) {
            return fail(std::move(ok.error()));
        }
        if (auto ok = check(cudaStreamSynchronize(s.stream), "cudaMemcpy"); !ok) return fail(std::move(ok.error()));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (i > 0 && seconds > 0) best = std::max(best, 2.0 * static_cast<double>(half) / seconds);
    }
    return best;
}

std::size_t GpuMemoryTester::bytes() const noexcept { return state_->count * 8; }
const std::string& GpuMemoryTester::deviceName() const noexcept { return state_->name; }

}  // namespace sonolink::selftest::cuda
