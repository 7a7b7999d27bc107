// GpuBeamformer: delay-and-sum on the GPU, the same sum as the CPU reference (cpu_beamformer.h:
// USTB conventions, plane, focused or diverging waves compounded, linear interpolation, F-number aperture with its
// window, samples outside the record contribute 0), then the envelope by cuFFT. Three paths, as
// on the CPU: RF on the grid; IQ (demodulated once per frame, decimated, beamformed with phase
// rotation: iq_beamformer.h; its magnitude is the envelope); RF along the rays of a sector
// (sector_beamformer.h; scanConvert puts the result on a grid). Frames come in
// batches from host memory (pinned, registered with registerHostMemory, or pageable) or device
// memory; chunks of frames are copied in, beamformed and copied out on two CUDA streams so that
// copies overlap compute. Plain C++: no CUDA types here.
// Thread contract: one thread at a time per instance; instances are independent.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/util/result.h"

namespace sonolink::beamform::cuda {

enum class SampleType { Float32, Int16 };
enum class GpuOutput { Rf, Envelope };

// Ways to build the delay-and-sum kernels (grid and IQ), each giving the same sums (the gpu tests
// check every one against the CPU reference). Which is faster depends on the device
// (docs/performance.md, GPU, has the measurements behind the defaults).
struct GpuKernelOptions {
    // A delay's sample index and fraction, and an int16 sample's value, by float rounding (a few
    // additions) instead of the conversion instructions. Needs fewer than 2^22 samples a trace.
    bool conversionsByRounding = false;
    // The delay-and-sum kernels held to 32 registers a thread, so that an SM holds 8 blocks of 256
    // (64 warps, the most it takes) instead of 6 or 7: more warps to hide the latency of the reads,
    // fewer reads in flight in each.
    bool fullOccupancy = false;
};

struct GpuBeamformerSetup {
    SampleType sampleType = SampleType::Int16;
    AcquisitionGeometry geometry;  // what each frame is
    PixelGrid grid;
    BeamformParams params;
    int framesPerChunk = 8;  // frames per copy-compute-copy step on one stream
    int device = 0;
    // The IQ path when > 0: demodulated at this frequency, decimated by iqDecimation (0: as the
    // band allows, beamform::iqDecimation). Its output is the envelope only.
    double modulationFrequencyHz = 0;
    int iqDecimation = 0;
    // Sector imaging when set: pixels along rays (r from the array's centre, increasing; theta
    // from the z axis, increasing) instead of the grid; an image is then theta x r, each ray
    // contiguous (SectorImage::rays). RF only.
    std::vector<double> sectorR, sectorTheta;
    GpuKernelOptions kernel;
};

// A piece of one frame as the front end sent it (one link block): channelCount channels of
// sampleCount samples each, back to back, from firstChannel and firstSample of wave `wave`,
// wherever it lies (in the registered acquisition ring, for live data).
struct RfBlock {
    const void* data = nullptr;
    int frame = 0;  // which frame of the batch
    int wave = 0;
    int firstChannel = 0;
    int channelCount = 0;
    int firstSample = 0;
    int sampleCount = 0;
};

class GpuBeamformer {
public:
    // Allocates the device buffers and cuFFT plans; Unavailable when there is no device or no
    // cuFFT library (libcufft.so.12), InvalidArgument for an inconsistent setup.
    [[nodiscard]] static Result<std::unique_ptr<GpuBeamformer>> create(const GpuBeamformerSetup& setup);
    ~GpuBeamformer();
    GpuBeamformer(const GpuBeamformer&) = delete;
    GpuBeamformer& operator=(const GpuBeamformer&) = delete;

    // frames: `count` frames back to back, each waves x channels x samples of the setup's sample
    // type, in host or device memory. out: count x pixelsPerFrame() floats, each frame
    // column-major as in BeamformedImage (nx x nz, or rays x depths). Returns when out is filled.
    // GpuOutput::Rf on the IQ path: InvalidArgument.
    [[nodiscard]] Status beamform(const void* frames, int count, GpuOutput output, std::span<float> out);

    // The same for `count` frames that arrive as blocks (frames straight from the ring, no
    // host copy): each block is copied into its place on the device. The blocks of each frame
    // must cover it exactly once (checked: bounds and the total), else InvalidArgument.
    [[nodiscard]] Status beamformBlocks(std::span<const RfBlock> blocks, int count, GpuOutput output, std::span<float> out);

    // Page-locks host memory (the acquisition ring) so that copies from it run at full speed.
    [[nodiscard]] Status registerHostMemory(void* memory, std::size_t bytes);
    [[nodiscard]] Status unregisterHostMemory(void* memory);

    // Benchmarks: seconds per beamforming step over `count` (<= framesPerChunk) frames that are
    // already on the device, averaged over `iterations` launches, no copies: RF and sector, the
    // delay-and-sum kernel; IQ, the whole path (demodulation, pair table, delay-and-sum with
    // rotation and the magnitude).
    [[nodiscard]] Result<double> timeKernel(int count, int iterations);
    // The same for the envelope's steps alone (RF and sector: cuFFT and its kernels; IQ: none, 0).
    [[nodiscard]] Result<double> timeEnvelope(int count, int iterations);
    [[nodiscard]] std::size_t pixelsPerFrame() const noexcept;
    // Decimation of the IQ path (1 otherwise).
    [[nodiscard]] int iqDecimation() const noexcept;

    [[nodiscard]] const GpuBeamformerSetup& setup() const noexcept;
    [[nodiscard]] std::size_t frameBytes() const noexcept;

private:
    struct State;
    explicit GpuBeamformer(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::beamform::cuda
