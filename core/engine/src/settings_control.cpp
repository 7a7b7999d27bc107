// Run-time settings (ctl thread): imaging applied from the next frame (the imager rebuilt when
// the grid or the beamformer's parameters change), acquisition planned now and applied at the
// next connect. Every change is validated and applied or refused with the reasons, as an event.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "cpu_imager.h"
#include "engine_impl.h"

namespace sonolink::engine {
namespace {

std::string joined(const std::vector<std::string>& reasons) {
    std::string out;
    for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
    return out;
}

beamform::Window windowOf(Apodization a) {
    switch (a) {
        case Apodization::Hann: return beamform::Window::Hann;
        case Apodization::Tukey: return beamform::Window::Tukey;
        case Apodization::Rectangular: return beamform::Window::Rectangular;
    }
    return beamform::Window::Rectangular;
}

}  // namespace

std::size_t depthRowsFor(double depth0M, double depth1M, int rows, double soundSpeedMps, double centerFrequencyHz) {
    const auto asked = static_cast<std::size_t>(std::max(rows, 2));
    if (!(depth1M > depth0M) || !(soundSpeedMps > 0) || !(centerFrequencyHz > 0)) return asked;
    const double longest = soundSpeedMps / (7 * centerFrequencyHz);
    return std::max(asked, static_cast<std::size_t>(std::ceil((depth1M - depth0M) / longest - 1e-9)) + 1);
}

ImagingSetup imagingSetupFor(const ImagingSettings& s, const beamform::AcquisitionGeometry& geometry, unsigned threads, double centerFrequencyHz) {
    double half = s.widthMm * 1e-3 / 2;
    if (half <= 0 && geometry.elementX.size() > 1) {
        const auto [lo, hi] = std::minmax_element(geometry.elementX.begin(), geometry.elementX.end());
        half = (*hi - *lo) / 2;
    }
    ImagingSetup setup;
    setup.grid = beamform::PixelGrid::fromRanges(-half, half, static_cast<std::size_t>(s.columns), s.depthStartMm * 1e-3, s.depthEndMm * 1e-3,
                                                 depthRowsFor(s.depthStartMm * 1e-3, s.depthEndMm * 1e-3, s.rows, geometry.soundSpeedMps, centerFrequencyHz));
    setup.params.fNumber = s.fNumber;
    setup.params.window = windowOf(s.window);
    setup.settings = s;
    setup.beamformThreads = threads;
    return setup;
}

std::unique_ptr<FrameImager> Engine::Impl::imagerFor(const ImagingSetup& setup) { return imagerFor(config.geometry, setup); }

std::unique_ptr<FrameImager> Engine::Impl::imagerFor(const beamform::AcquisitionGeometry& geometry, const ImagingSetup& setup) {
    auto imager = backends.makeImager ? backends.makeImager(geometry, setup) : nullptr;
    if (!imager) imager = std::make_unique<CpuImager>(geometry, setup);  // the CPU reference
    return imager;
}

void Engine::Impl::applyImaging(const ImagingSettings& settings) {
    if (auto reasons = problems(settings); !reasons.empty()) return emit(SettingsChanged{"imaging", false, joined(reasons)});
    const auto before = settingsBoard.imaging.replace(settings);
    const auto setup = imagingSetupFor(settings, config.geometry, config.beamformThreads, config.session.configure.centerFrequencyHz);
    // A change of the picture only (TGC, gain, dynamic range, persistence, grey map, raster): the
    // imager stays as it is, and the next picture is drawn so without waiting on the beamformer.
    const bool pictureOnly = beamformAlike(before, settings);
    if (!pictureOnly && backends.clusterFeed) {  // a cluster's display host: the grid and beamformer are the cluster plan's
        settingsBoard.imaging.replace(before);
        return emit(SettingsChanged{"imaging", false, "the cluster plan sets the grid and beamformer (docs/cluster.md); the picture's own settings apply"});
    }
    if (pictureOnly) display->changePicture(setup);
    else display->reconfigure(config.geometry, setup, imagerFor(setup));
    reconfigureShots(settings, !pictureOnly);
    emit(SettingsChanged{"imaging", true, "from the next frame"});
}

void Engine::Impl::applyAcquisition(const AcquisitionSettings& settings) {
    if (auto reasons = problems(settings); !reasons.empty()) return emit(SettingsChanged{"acquisition", false, joined(reasons)});
    if (!backends.planAcquisition) return emit(SettingsChanged{"acquisition", false, "this station's acquisition cannot be changed at run time"});
    auto plan = backends.planAcquisition(settings);
    if (!plan) return emit(SettingsChanged{"acquisition", false, plan.error().message()});
    nextAcquisition = std::move(*plan);
    settingsBoard.acquisition.replace(settings);
    const bool connected = state != EngineState::Idle && state != EngineState::Error;
    emit(SettingsChanged{"acquisition", true, connected ? "at the next connect (stop streaming to bring it in)" : "at the next connect"});
}

void Engine::setImaging(ImagingSettings settings) {
    impl_->ctl->post([impl = impl_.get(), settings = std::move(settings)] { impl->applyImaging(settings); });
}

void Engine::setAcquisition(AcquisitionSettings settings) {
    impl_->ctl->post([impl = impl_.get(), settings = std::move(settings)] { impl->applyAcquisition(settings); });
}

ImagingSettings Engine::imaging() const { return impl_->settingsBoard.imaging.get(); }

AcquisitionSettings Engine::acquisition() const { return impl_->settingsBoard.acquisition.get(); }

}  // namespace sonolink::engine
