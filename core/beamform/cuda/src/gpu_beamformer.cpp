#include "sonolink/beamform/cuda/gpu_beamformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "beamform_kernels.h"
#include "cufft_library.h"

namespace sonolink::beamform::cuda {
namespace {

constexpr int kStreams = 2;

Status check(cudaError_t rc, const char* what) {
    if (rc == cudaSuccess) return {};
    return fail(ErrorCode::Internal, fmt::format("{} failed: {}", what, cudaGetErrorString(rc)));
}

Status checkFft(cufftResult rc, const char* what) {
    if (rc == CUFFT_SUCCESS) return {};
    return fail(ErrorCode::Internal, fmt::format("{} failed: cuFFT error {}", what, static_cast<int>(rc)));
}

template <typename T>
Result<T*> deviceArray(std::size_t count) {
    void* p = nullptr;
    if (auto ok = check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc"); !ok) return fail(std::move(ok.error()));
    return static_cast<T*>(p);
}

template <typename T>
Status upload(T* device, const std::vector<T>& host) {
    return check(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (geometry)");
}

Status validate(const GpuBeamformerSetup& s) {
    if (auto ok = s.geometry.validate(); !ok) return ok;
    if (!(s.params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    if (auto ok = s.grid.validate(); !ok) return ok;
    if (s.framesPerChunk <= 0 || s.grid.x.size() * static_cast<std::size_t>(s.framesPerChunk) > 65535) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} frames per chunk of {} columns: 1 to 65535 columns per chunk", s.framesPerChunk, s.grid.x.size()));
    }
    return {};
}

}  // namespace

struct GpuBeamformer::State {
    GpuBeamformerSetup setup;
    const CufftLibrary* fft = nullptr;
    std::size_t frameBytes = 0;
    std::size_t imageFloats = 0;  // nx * nz
    int fftLength = 0;            // power of two >= nz
    DasGeometry geometry{};
    std::vector<void*> allocations;
    struct Lane {
        cudaStream_t stream = nullptr;
        void* frames = nullptr;
        float* image = nullptr;
        cufftComplex* spectrum = nullptr;
        cufftHandle plan = 0;
        bool hasPlan = false;
    };
    Lane lanes[kStreams];

    template <typename T>
    Result<T*> allocate(std::size_t count) {
        auto p = deviceArray<T>(count);
        if (p) allocations.push_back(*p);
        return p;
    }
    ~State() {
        cudaSetDevice(setup.device);
        for (auto& lane : lanes) {
            if (lane.hasPlan) fft->destroy(lane.plan);
            if (lane.stream) cudaStreamDestroy(lane.stream);
        }
        for (void* p : allocations) cudaFree(p);
    }

    Status init() {
        const auto& s = setup;
        if (auto ok = check(cudaSetDevice(s.device), "cudaSetDevice"); !ok) {
            return fail(ErrorCode::Unavailable, fmt::format("GPU {} is not usable: {}", s.device, ok.error().message()));
        }
        auto loaded = cufft();
        if (!loaded) return fail(std::move(loaded.error()));
        fft = *loaded;
        const auto nx = s.grid.x.size(), nz = s.grid.z.size();
        imageFloats = nx * nz;
        fftLength = 1;
        while (static_cast<std::size_t>(fftLength) < nz) fftLength <<= 1;
        const std::size_t sampleBytes = s.sampleType == SampleType::Int16 ? 2 : 4;
        frameBytes = static_cast<std::size_t>(s.geometry.waves) * static_cast<std::size_t>(s.geometry.channels) * static_cast<std::size_t>(s.geometry.samples) * sampleBytes;

        // Geometry, computed as the CPU reference computes it (cpu_beamformer.cpp).
        const float samplesPerMetre = static_cast<float>(s.geometry.samplingRateHz / s.geometry.soundSpeedMps);
        const std::vector<float> gridZ(s.grid.z.begin(), s.grid.z.end());
        std::vector<float> tx(static_cast<std::size_t>(s.geometry.waves) * nx * nz), dx2, dx;
        std::vector<int> apertureStart;
        for (std::size_t w = 0; w < static_cast<std::size_t>(s.geometry.waves); ++w) {
            const double distance = s.geometry.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : s.geometry.sourceDistance[w];
            for (std::size_t ix = 0; ix < nx; ++ix) {
                transmitDelaySamples(s.geometry.angleRad[w], distance, s.grid.x[ix], gridZ, s.geometry.samplingRateHz, s.geometry.soundSpeedMps, s.geometry.initialTimeS,
                                     std::span(tx).subspan((w * nx + ix) * nz, nz));
            }
        }
        for (double x : s.grid.x) {
            for (double e : s.geometry.elementX) {
                const double d = x - e;
                dx.push_back(static_cast<float>(d));
                dx2.push_back(static_cast<float>(d * d));
                // The element is inside the aperture from depth 2 F# |dx| on.
                const auto edge = static_cast<float>(2 * s.params.fNumber * std::abs(d));
                apertureStart.push_back(static_cast<int>(std::lower_bound(gridZ.begin(), gridZ.end(), edge) - gridZ.begin()));
            }
        }
        auto dGridZ = allocate<float>(gridZ.size());
        auto dTx = allocate<float>(tx.size());
        auto dDx2 = allocate<float>(dx2.size());
        auto dDx = allocate<float>(dx.size());
        auto dApertureStart = allocate<int>(apertureStart.size());
        for (auto* r : {&dGridZ, &dTx, &dDx2, &dDx}) {
            if (!*r) return fail(std::move(r->error()));
        }
        if (!dApertureStart) return fail(std::move(dApertureStart.error()));
        for (auto ok : {upload(*dGridZ, gridZ), upload(*dTx, tx), upload(*dDx2, dx2), upload(*dDx, dx), upload(*dApertureStart, apertureStart)}) {
            if (!ok) return ok;
        }
        geometry = DasGeometry{*dGridZ, *dApertureStart, *dDx2, *dDx, *dTx, static_cast<int>(nx), static_cast<int>(nz), s.geometry.waves, s.geometry.channels,
                               s.geometry.samples, samplesPerMetre, static_cast<float>(2 * s.params.fNumber), static_cast<int>(s.params.window),
                               static_cast<float>(s.params.tukeyAlpha)};

        const auto chunk = static_cast<std::size_t>(s.framesPerChunk);
        for (auto& lane : lanes) {
            if (auto ok = check(cudaStreamCreateWithFlags(&lane.stream, cudaStreamNonBlocking), "cudaStreamCreate"); !ok) return ok;
            auto frames = allocate<std::byte>(chunk * frameBytes);
            auto image = allocate<float>(chunk * imageFloats);
            auto spectrum = allocate<cufftComplex>(chunk * nx * static_cast<std::size_t>(fftLength));
            if (!frames || !image || !spectrum) return fail(ErrorCode::ResourceExhausted, "not enough GPU memory for the beamformer's buffers");
            lane.frames = *frames;
            lane.image = *image;
            lane.spectrum = *spectrum;
            int length = fftLength;
            if (auto ok = checkFft(fft->planMany(&lane.plan, 1, &length, nullptr, 1, fftLength, nullptr, 1, fftLength, CUFFT_C2C,
                                                 static_cast<int>(chunk * nx)), "cufftPlanMany"); !ok) {
                return ok;
            }
            lane.hasPlan = true;
            if (auto ok = checkFft(fft->setStream(lane.plan, lane.stream), "cufftSetStream"); !ok) return ok;
        }
        return {};
    }

    // Queues a chunk's copy in: frames back to back.
    Status copyFrames(Lane& lane, const std::byte* frames, int count) {
        return check(cudaMemcpyAsync(lane.frames, frames, static_cast<std::size_t>(count) * frameBytes, cudaMemcpyDefault, lane.stream),
                     "copying frames to the GPU");
    }

    // Queues a chunk's copy in: the blocks of frames [first, first + count), each to its place.
    Status copyBlocks(Lane& lane, std::span<const RfBlock> blocks, int first, int count) {
        const std::size_t sampleBytes = setup.sampleType == SampleType::Int16 ? 2 : 4;
        const auto samples = static_cast<std::size_t>(setup.geometry.samples);
        for (const auto& b : blocks) {
            if (b.frame < first || b.frame >= first + count) continue;
            const auto offset = static_cast<std::size_t>(b.frame - first) * frameBytes +
                                ((static_cast<std::size_t>(b.wave) * static_cast<std::size_t>(setup.geometry.channels) + static_cast<std::size_t>(b.firstChannel)) * samples +
                                 static_cast<std::size_t>(b.firstSample)) * sampleBytes;
            const auto width = static_cast<std::size_t>(b.sampleCount) * sampleBytes;
            if (auto ok = check(cudaMemcpy2DAsync(static_cast<std::byte*>(lane.frames) + offset, samples * sampleBytes, b.data, width, width,
                                                  static_cast<std::size_t>(b.channelCount), cudaMemcpyDefault, lane.stream),
                                "copying a block to the GPU"); !ok) {
                return ok;
            }
        }
        return {};
    }

    // Chunks of `count` frames alternate between the lanes: copyIn(lane, first, n) queues a
    // chunk's copy in, then the rest follows on the same stream; returns when all is done.
    Status runChunks(int count, GpuOutput output, std::span<float> out, const std::function<Status(Lane&, int, int)>& copyIn) {
        if (count <= 0) return fail(ErrorCode::InvalidArgument, fmt::format("{} frames to beamform", count));
        if (out.size() < static_cast<std::size_t>(count) * imageFloats) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{} floats of output for {} frames of {} pixels", out.size(), count, imageFloats));
        }
        if (auto ok = check(cudaSetDevice(setup.device), "cudaSetDevice"); !ok) return ok;
        (void)cudaGetLastError();  // an earlier, already reported error must not be taken for ours
        int next = 0;
        Status queued;
        for (int first = 0; first < count && queued; first += setup.framesPerChunk) {
            const int n = std::min(setup.framesPerChunk, count - first);
            auto& lane = lanes[next];
            next = (next + 1) % kStreams;
            // A lane's buffers are reused: the stream orders this chunk after its previous one.
            queued = copyIn(lane, first, n);
            if (queued) queued = process(lane, n, output, out.data() + static_cast<std::size_t>(first) * imageFloats);
        }
        for (auto& lane : lanes) {
            if (auto ok = check(cudaStreamSynchronize(lane.stream), "beamforming on the GPU"); !ok && queued) queued = ok;
        }
        return queued;
    }

    // Queues the rest of a chunk on a lane (after its copy in): delay-and-sum, envelope, copy out.
    Status process(Lane& lane, int count, GpuOutput output, float* out) {
        if (setup.sampleType == SampleType::Int16) launchDelayAndSum(static_cast<const std::int16_t*>(lane.frames), count, geometry, lane.image, lane.stream);
        else launchDelayAndSum(static_cast<const float*>(lane.frames), count, geometry, lane.image, lane.stream);
        if (output == GpuOutput::Envelope) {
            const int columns = count * geometry.nx;
            launchPadColumns(lane.image, columns, geometry.nz, fftLength, lane.spectrum, lane.stream);
            // The plan transforms a whole chunk; in a short chunk the extra rows are ignored.
            if (auto ok = checkFft(fft->execC2C(lane.plan, lane.spectrum, lane.spectrum, CUFFT_FORWARD), "cufftExecC2C (forward)"); !ok) return ok;
            launchKeepPositiveFrequencies(lane.spectrum, columns, fftLength, lane.stream);
            if (auto ok = checkFft(fft->execC2C(lane.plan, lane.spectrum, lane.spectrum, CUFFT_INVERSE), "cufftExecC2C (inverse)"); !ok) return ok;
            launchMagnitude(lane.spectrum, columns, geometry.nz, fftLength, lane.image, lane.stream);
        }
        if (auto ok = check(cudaGetLastError(), "launching the beamformer's kernels"); !ok) return ok;
        return check(cudaMemcpyAsync(out, lane.image, static_cast<std::size_t>(count) * imageFloats * sizeof(float), cudaMemcpyDefault, lane.stream),
                     "copying images from the GPU");
    }
};

GpuBeamformer::GpuBeamformer(std::unique_ptr<State> state) : state_(std::move(state)) {}
GpuBeamformer::~GpuBeamformer() = default;

Result<std::unique_ptr<GpuBeamformer>> GpuBeamformer::create(const GpuBeamformerSetup& setup) {
    if (auto ok = validate(setup); !ok) return fail(std::move(ok.error()));
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices <= setup.device) {
        return fail(ErrorCode::Unavailable, fmt::format("no CUDA device {} on this station ({} found)", setup.device, devices));
    }
    auto state = std::make_unique<State>();
    state->setup = setup;
    if (auto ok = state->init(); !ok) return fail(std::move(ok.error()));
    return std::unique_ptr<GpuBeamformer>(new GpuBeamformer(std::move(state)));
}

Status GpuBeamformer::beamform(const void* frames, int count, GpuOutput output, std::span<float> out) {
    auto& s = *state_;
    const auto* bytes = static_cast<const std::byte*>(frames);
    return s.runChunks(count, output, out, [&](State::Lane& lane, int first, int n) {
        return s.copyFrames(lane, bytes + static_cast<std::size_t>(first) * s.frameBytes, n);
    });
}

Status GpuBeamformer::beamformBlocks(std::span<const RfBlock> blocks, int count, GpuOutput output, std::span<float> out) {
    auto& s = *state_;
    if (count <= 0) return fail(ErrorCode::InvalidArgument, fmt::format("{} frames to beamform", count));
    // Each frame covered exactly: every block inside the frame, and the samples adding up.
    const auto& g = s.setup.geometry;
    std::vector<std::size_t> covered(static_cast<std::size_t>(count), 0);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const auto& b = blocks[i];
        if (b.frame < 0 || b.frame >= count || b.wave < 0 || b.wave >= g.waves || b.firstChannel < 0 || b.channelCount <= 0 ||
            b.firstChannel + b.channelCount > g.channels || b.firstSample < 0 || b.sampleCount <= 0 ||
            b.firstSample + b.sampleCount > g.samples || b.data == nullptr) {
            return fail(ErrorCode::InvalidArgument, fmt::format("block {} (frame {}, wave {}, channels {}+{}, samples {}+{}) lies outside {} frames of {} waves x {} channels x {} samples",
                                                                i, b.frame, b.wave, b.firstChannel, b.channelCount, b.firstSample, b.sampleCount, count,
                                                                g.waves, g.channels, g.samples));
        }
        covered[static_cast<std::size_t>(b.frame)] += static_cast<std::size_t>(b.channelCount) * static_cast<std::size_t>(b.sampleCount);
    }
    const auto perFrame = static_cast<std::size_t>(g.waves) * static_cast<std::size_t>(g.channels) * static_cast<std::size_t>(g.samples);
    for (int f = 0; f < count; ++f) {
        if (covered[static_cast<std::size_t>(f)] != perFrame) {
            return fail(ErrorCode::InvalidArgument, fmt::format("the blocks of frame {} hold {} samples, the frame {}", f, covered[static_cast<std::size_t>(f)], perFrame));
        }
    }
    return s.runChunks(count, output, out, [&](State::Lane& lane, int first, int n) { return s.copyBlocks(lane, blocks, first, n); });
}

Status GpuBeamformer::registerHostMemory(void* memory, std::size_t bytes) {
    if (auto ok = check(cudaSetDevice(state_->setup.device), "cudaSetDevice"); !ok) return ok;
    return check(cudaHostRegister(memory, bytes, cudaHostRegisterPortable), "cudaHostRegister (page-locking the frames)");
}

Status GpuBeamformer::unregisterHostMemory(void* memory) {
    if (auto ok = check(cudaSetDevice(state_->setup.device), "cudaSetDevice"); !ok) return ok;
    return check(cudaHostUnregister(memory), "cudaHostUnregister");
}

Result<double> GpuBeamformer::timeKernel(int count, int iterations) {
    auto& s = *state_;
    if (count <= 0 || count > s.setup.framesPerChunk || iterations <= 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} frames ({} at most) x {} iterations", count, s.setup.framesPerChunk, iterations));
    }
    if (auto ok = check(cudaSetDevice(s.setup.device), "cudaSetDevice"); !ok) return fail(std::move(ok.error()));
    (void)cudaGetLastError();
    auto& lane = s.lanes[0];
    cudaEvent_t start = nullptr, stop = nullptr;
    if (auto ok = check(cudaEventCreate(&start), "cudaEventCreate"); !ok) return fail(std::move(ok.error()));
    if (auto ok = check(cudaEventCreate(&stop), "cudaEventCreate"); !ok) {
        cudaEventDestroy(start);
        return fail(std::move(ok.error()));
    }
    auto run = [&] {
        if (s.setup.sampleType == SampleType::Int16) launchDelayAndSum(static_cast<const std::int16_t*>(lane.frames), count, s.geometry, lane.image, lane.stream);
        else launchDelayAndSum(static_cast<const float*>(lane.frames), count, s.geometry, lane.image, lane.stream);
    };
    run();  // warm-up
    auto ok = check(cudaEventRecord(start, lane.stream), "cudaEventRecord");
    for (int i = 0; i < iterations && ok; ++i) run();
    if (ok) ok = check(cudaEventRecord(stop, lane.stream), "cudaEventRecord");
    if (ok) ok = check(cudaEventSynchronize(stop), "timing the kernel");
    float ms = 0;
    if (ok) ok = check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (!ok) return fail(std::move(ok.error()));
    if (auto launched = check(cudaGetLastError(), "launching the delay-and-sum kernel"); !launched) return fail(std::move(launched.error()));
    return ms * 1e-3 / iterations;
}

const GpuBeamformerSetup& GpuBeamformer::setup() const noexcept { return state_->setup; }
std::size_t GpuBeamformer::frameBytes() const noexcept { return state_->frameBytes; }

}  // namespace sonolink::beamform::cuda
