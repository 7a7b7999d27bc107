#include "sonolink/beamform/cuda/gpu_beamformer.h"

#include <algorithm>
#include <functional>

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "beamform_kernels.h"
#include "cufft_library.h"
#include "gpu_setup.h"
#include "gpu_tables.h"
#include "sonolink/beamform/iq_beamformer.h"

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

template <typename T> Result<T*> deviceArray(std::size_t count) {
    void* p = nullptr;
    if (auto ok = check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc"); !ok) return fail(std::move(ok.error()));
    return static_cast<T*>(p);
}

template <typename T> Status upload(T* device, const std::vector<T>& host) {
    return check(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (geometry)");
}

}  // namespace

struct GpuBeamformer::State {
    GpuBeamformerSetup setup;
    BeamformPath path = BeamformPath::Grid;
    const CufftLibrary* fft = nullptr;
    std::size_t frameBytes = 0;
    std::size_t traces = 0;       // waves x channels
    std::size_t imageFloats = 0;  // columns x rows
    int columns = 0, rows = 0;    // nx x nz, or rays x depths
    int fftLength = 0;            // power of two >= rows
    DasGeometry geometry{};       // the grid (for IQ, at the IQ rate)
    RayGeometry rays{};
    IqSteps iq{};
    float omega = 0;
    std::vector<void*> allocations;
    struct Lane {
        cudaStream_t stream = nullptr;
        void* frames = nullptr;
        float* image = nullptr;
        cufftComplex* spectrum = nullptr;
        float2* iq = nullptr;
        float4* table = nullptr;
        cufftHandle plan = 0;
        bool hasPlan = false;
    };
    Lane lanes[kStreams];

    template <typename T> Result<T*> allocate(std::size_t count) {
        auto p = deviceArray<T>(count);
        if (p) allocations.push_back(*p);
        return p;
    }
    // A table on the device (kept for the life of the beamformer).
    template <typename T> Result<const T*> put(const std::vector<T>& host) {
        auto p = allocate<T>(std::max<std::size_t>(host.size(), 1));
        if (!p) return fail(std::move(p.error()));
        if (auto ok = upload(*p, host); !ok) return fail(std::move(ok.error()));
        return static_cast<const T*>(*p);
    }
    ~State() {
        cudaSetDevice(setup.device);
        for (auto& lane : lanes) {
            if (lane.hasPlan) fft->destroy(lane.plan);
            if (lane.stream) cudaStreamDestroy(lane.stream);
        }
        for (void* p : allocations) cudaFree(p);
    }

    Status initGrid(const AcquisitionGeometry& samples) {
        const auto t = gridTables(samples, setup.grid, setup.params, kDepthsPerBlock, kColumnsPerBlock);
        auto z = put(t.gridZ);
        auto tx = put(t.tx);
        auto channel = put(t.channel);
        auto scale = put(t.windowScale);
        auto range = put(t.channelRange);
        for (auto* r : {&z, &tx, &channel, &scale}) {
            if (!*r) return fail(std::move(r->error()));
        }
        if (!range) return fail(std::move(range.error()));
        // float pairs and int pairs as float2 and int2: the same layout.
        geometry = DasGeometry{*z,
                               reinterpret_cast<const float2*>(*channel),
                               *scale,
                               reinterpret_cast<const int2*>(*range),
                               *tx,
                               columns,
                               rows,
                               samples.waves,
                               samples.channels,
                               samples.samples,
                               t.samplesPerMetre,
                               static_cast<int>(setup.params.window),
                               t.windowOffset,
                               setup.kernel.conversionsByRounding,
                               setup.kernel.fullOccupancy};
        return {};
    }

    Status initRays() {
        const auto& g = setup.geometry;
        const auto t = rayTables(g, setup.sectorR, setup.sectorTheta, setup.params);
        auto x = put(t.x);
        auto z = put(t.z);
        auto elementX = put(t.elementX);
        auto tx = put(t.tx);
        auto first = put(t.apertureFirst);
        auto last = put(t.apertureLast);
        for (auto* r : {&x, &z, &elementX, &tx}) {
            if (!*r) return fail(std::move(r->error()));
        }
        if (!first) return fail(std::move(first.error()));
        if (!last) return fail(std::move(last.error()));
        rays = RayGeometry{*x,
                           *z,
                           *elementX,
                           *first,
                           *last,
                           *tx,
                           columns,
                           rows,
                           g.waves,
                           g.channels,
                           g.samples,
                           t.samplesPerMetre,
                           static_cast<float>(2 * setup.params.fNumber),
                           static_cast<int>(setup.params.window),
                           static_cast<float>(setup.params.tukeyAlpha),
                           static_cast<float>(1 / setup.params.tukeyAlpha)};
        return {};
    }

    Result<AcquisitionGeometry> initIq() {
        const auto t = iqTables(setup.geometry, setup.modulationFrequencyHz, decimationOf(setup));
        auto taps = put(t.taps);
        auto mixer = put(t.mixer);
        auto phasor = put(t.midPhasor);
        for (auto* r : {&taps, &mixer, &phasor}) {
            if (!*r) return fail(std::move(r->error()));
        }
        // std::complex<float> and float2 share their layout: two floats, re then im.
        iq = IqSteps{reinterpret_cast<const float2*>(*taps),
                     reinterpret_cast<const float2*>(*mixer),
                     reinterpret_cast<const float2*>(*phasor),
                     t.halfLength,
                     t.decimation,
                     setup.geometry.samples,
                     t.layout.samples,
                     setup.kernel.conversionsByRounding};
        omega = t.omega;
        return t.layout;
    }

    Status init() {
        const auto& s = setup;
        path = pathOf(s);
        if (auto ok = check(cudaSetDevice(s.device), "cudaSetDevice"); !ok) {
            return fail(ErrorCode::Unavailable, fmt::format("GPU {} is not usable: {}", s.device, ok.error().message()));
        }
        if (path != BeamformPath::Iq) {  // the IQ path's envelope is its magnitude: no transform
            auto loaded = cufft();
            if (!loaded) return fail(std::move(loaded.error()));
            fft = *loaded;
        }
        columns = static_cast<int>(path == BeamformPath::Rays ? s.sectorTheta.size() : s.grid.x.size());
        rows = static_cast<int>(path == BeamformPath::Rays ? s.sectorR.size() : s.grid.z.size());
        imageFloats = static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows);
        fftLength = 1;
        while (fftLength < rows) fftLength <<= 1;
        const std::size_t sampleBytes = s.sampleType == SampleType::Int16 ? 2 : 4;
        traces = static_cast<std::size_t>(s.geometry.waves) * static_cast<std::size_t>(s.geometry.channels);
        frameBytes = traces * static_cast<std::size_t>(s.geometry.samples) * sampleBytes;
        if (path == BeamformPath::Rays) {
            if (auto ok = initRays(); !ok) return ok;
        } else if (path == BeamformPath::Iq) {
            auto layout = initIq();
            if (!layout) return fail(std::move(layout.error()));
            if (auto ok = initGrid(*layout); !ok) return ok;
        } else if (auto ok = initGrid(s.geometry); !ok) {
            return ok;
        }

        for (auto& lane : lanes) {
            if (auto ok = initLane(lane); !ok) return ok;
        }
        return {};
    }

    // A lane's stream and its buffers for a chunk: frames and image, then the IQ path's samples
    // and table, or the other paths' spectrum and FFT plan.
    Status initLane(Lane& lane) {
        const auto chunk = static_cast<std::size_t>(setup.framesPerChunk);
        const auto iqFloats = chunk * traces * static_cast<std::size_t>(iq.iqSamples);
        if (auto ok = check(cudaStreamCreateWithFlags(&lane.stream, cudaStreamNonBlocking), "cudaStreamCreate"); !ok) return ok;
        auto frames = allocate<std::byte>(chunk * frameBytes);
        auto image = allocate<float>(chunk * imageFloats);
        if (!frames || !image) return fail(ErrorCode::ResourceExhausted, "not enough GPU memory for the beamformer's buffers");
        lane.frames = *frames;
        lane.image = *image;
        if (path == BeamformPath::Iq) {
            const auto entries = iqFloats + chunk * traces;  // each trace's zero entry
            auto samples = allocate<float2>(iqFloats);
            auto table = allocate<float4>(entries);
            if (!samples || !table) return fail(ErrorCode::ResourceExhausted, "not enough GPU memory for the IQ path's buffers");
            lane.iq = *samples;
            lane.table = *table;
            return check(cudaMemset(lane.table, 0, entries * sizeof(float4)), "clearing the IQ table");
        }
        auto spectrum = allocate<cufftComplex>(chunk * static_cast<std::size_t>(columns) * static_cast<std::size_t>(fftLength));
        if (!spectrum) return fail(ErrorCode::ResourceExhausted, "not enough GPU memory for the beamformer's buffers");
        lane.spectrum = *spectrum;
        int length = fftLength;
        if (auto ok = checkFft(fft->planMany(&lane.plan, 1, &length, nullptr, 1, fftLength, nullptr, 1, fftLength, CUFFT_C2C,
                                             static_cast<int>(chunk * static_cast<std::size_t>(columns))),
                               "cufftPlanMany");
            !ok) {
            return ok;
        }
        lane.hasPlan = true;
        return checkFft(fft->setStream(lane.plan, lane.stream), "cufftSetStream");
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
            const auto offset =
                static_cast<std::size_t>(b.frame - first) * frameBytes +
                ((static_cast<std::size_t>(b.wave) * static_cast<std::size_t>(setup.geometry.channels) + static_cast<std::size_t>(b.firstChannel)) * samples +
                 static_cast<std::size_t>(b.firstSample)) *
                    sampleBytes;
            const auto width = static_cast<std::size_t>(b.sampleCount) * sampleBytes;
            if (auto ok = check(cudaMemcpy2DAsync(static_cast<std::byte*>(lane.frames) + offset, samples * sampleBytes, b.data, width, width,
                                                  static_cast<std::size_t>(b.channelCount), cudaMemcpyDefault, lane.stream),
                                "copying a block to the GPU");
                !ok) {
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
        if (path == BeamformPath::Iq && output == GpuOutput::Rf) {
            return fail(ErrorCode::InvalidArgument, "the IQ path gives the envelope (the beamformed IQ's magnitude), not RF");
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

    template <typename T> void beamformAs(Lane& lane, int count) {
        const auto* frames = static_cast<const T*>(lane.frames);
        switch (path) {
            case BeamformPath::Grid: launchDelayAndSum(frames, count, geometry, lane.image, lane.stream); break;
            case BeamformPath::Rays: launchDelayAndSumRays(frames, count, rays, lane.image, lane.stream); break;
            case BeamformPath::Iq: {
                const int n = count * static_cast<int>(traces);
                launchDemodulate(frames, n, iq, lane.iq, lane.stream);
                launchPairTable(lane.iq, n, iq, lane.table, lane.stream);
                launchDelayAndSumIq(lane.table, count, geometry, omega, lane.image, lane.stream);
                break;
            }
        }
    }

    // Queues the beamforming of a chunk already on the device (IQ: to its magnitude).
    void beamform(Lane& lane, int count) {
        if (setup.sampleType == SampleType::Int16) beamformAs<std::int16_t>(lane, count);
        else beamformAs<float>(lane, count);
    }

    // Queues the envelope of a chunk's beamformed RF (columns along depth or rays along r).
    Status envelope(Lane& lane, int count) {
        const int n = count * columns;
        launchPadColumns(lane.image, n, rows, fftLength, lane.spectrum, lane.stream);
        // The plan transforms a whole chunk; in a short chunk the extra rows are ignored.
        if (auto ok = checkFft(fft->execC2C(lane.plan, lane.spectrum, lane.spectrum, CUFFT_FORWARD), "cufftExecC2C (forward)"); !ok) return ok;
        launchKeepPositiveFrequencies(lane.spectrum, n, fftLength, lane.stream);
        if (auto ok = checkFft(fft->execC2C(lane.plan, lane.spectrum, lane.spectrum, CUFFT_INVERSE), "cufftExecC2C (inverse)"); !ok) return ok;
        launchMagnitude(lane.spectrum, n, rows, fftLength, lane.image, lane.stream);
        return {};
    }

    // Queues the rest of a chunk on a lane (after its copy in): beamforming, envelope, copy out.
    Status process(Lane& lane, int count, GpuOutput output, float* out) {
        beamform(lane, count);
        if (output == GpuOutput::Envelope && path != BeamformPath::Iq) {
            if (auto ok = envelope(lane, count); !ok) return ok;
        }
        if (auto ok = check(cudaGetLastError(), "launching the beamformer's kernels"); !ok) return ok;
        return check(cudaMemcpyAsync(out, lane.image, static_cast<std::size_t>(count) * imageFloats * sizeof(float), cudaMemcpyDefault, lane.stream),
                     "copying images from the GPU");
    }

    // Seconds per run of `step` on lane 0, averaged over `iterations` after one warm-up.
    Result<double> time(int count, int iterations, const std::function<Status()>& step) {
        if (count <= 0 || count > setup.framesPerChunk || iterations <= 0) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{} frames ({} at most) x {} iterations", count, setup.framesPerChunk, iterations));
        }
        if (auto ok = check(cudaSetDevice(setup.device), "cudaSetDevice"); !ok) return fail(std::move(ok.error()));
        (void)cudaGetLastError();
        auto& lane = lanes[0];
        cudaEvent_t start = nullptr, stop = nullptr;
        if (auto ok = check(cudaEventCreate(&start), "cudaEventCreate"); !ok) return fail(std::move(ok.error()));
        if (auto ok = check(cudaEventCreate(&stop), "cudaEventCreate"); !ok) {
            cudaEventDestroy(start);
            return fail(std::move(ok.error()));
        }
        auto ok = step();  // warm-up
        if (ok) ok = check(cudaEventRecord(start, lane.stream), "cudaEventRecord");
        for (int i = 0; i < iterations && ok; ++i) ok = step();
        if (ok) ok = check(cudaEventRecord(stop, lane.stream), "cudaEventRecord");
        if (ok) ok = check(cudaEventSynchronize(stop), "timing the kernels");
        float ms = 0;
        if (ok) ok = check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        if (!ok) return fail(std::move(ok.error()));
        if (auto launched = check(cudaGetLastError(), "launching the beamformer's kernels"); !launched) return fail(std::move(launched.error()));
        return ms * 1e-3 / iterations;
    }
};

GpuBeamformer::GpuBeamformer(std::unique_ptr<State> state) : state_(std::move(state)) {}
GpuBeamformer::~GpuBeamformer() = default;

Result<std::unique_ptr<GpuBeamformer>> GpuBeamformer::create(const GpuBeamformerSetup& setup) {
    if (auto ok = validateSetup(setup); !ok) return fail(std::move(ok.error()));
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
    return s.runChunks(count, output, out,
                       [&](State::Lane& lane, int first, int n) { return s.copyFrames(lane, bytes + static_cast<std::size_t>(first) * s.frameBytes, n); });
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
            b.firstChannel + b.channelCount > g.channels || b.firstSample < 0 || b.sampleCount <= 0 || b.firstSample + b.sampleCount > g.samples ||
            b.data == nullptr) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("block {} (frame {}, wave {}, channels {}+{}, samples {}+{}) lies outside {} frames of {} waves x {} channels x {} samples",
                                    i, b.frame, b.wave, b.firstChannel, b.channelCount, b.firstSample, b.sampleCount, count, g.waves, g.channels, g.samples));
        }
        covered[static_cast<std::size_t>(b.frame)] += static_cast<std::size_t>(b.channelCount) * static_cast<std::size_t>(b.sampleCount);
    }
    const auto perFrame = static_cast<std::size_t>(g.waves) * static_cast<std::size_t>(g.channels) * static_cast<std::size_t>(g.samples);
    for (int f = 0; f < count; ++f) {
        if (covered[static_cast<std::size_t>(f)] != perFrame) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("the blocks of frame {} hold {} samples, the frame {}", f, covered[static_cast<std::size_t>(f)], perFrame));
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
    return s.time(count, iterations, [&] {
        s.beamform(s.lanes[0], count);
        return Status{};
    });
}

Result<double> GpuBeamformer::timeEnvelope(int count, int iterations) {
    auto& s = *state_;
    if (s.path == BeamformPath::Iq) return 0.0;
    return s.time(count, iterations, [&] { return s.envelope(s.lanes[0], count); });
}

std::size_t GpuBeamformer::pixelsPerFrame() const noexcept { return state_->imageFloats; }
int GpuBeamformer::iqDecimation() const noexcept { return state_->path == BeamformPath::Iq ? state_->iq.decimation : 1; }

const GpuBeamformerSetup& GpuBeamformer::setup() const noexcept { return state_->setup; }
std::size_t GpuBeamformer::frameBytes() const noexcept { return state_->frameBytes; }

}  // namespace sonolink::beamform::cuda
