// Laser shots on screen (dual mode): their own display pipeline on the B-mode's grid (so the
// two pictures are co-registered), with the shots' gain and dynamic range, no TGC, persistence
// or grey map of the B-mode's, and the pulse energy normalised when asked; the settings
// validated on ctl and applied from the next shot.
#include <fmt/format.h>

#include "engine_impl.h"

namespace sonolink::engine {

ImagingSetup Engine::Impl::shotSetupFor(const ImagingSettings& imaging, const PhotoacousticSettings& shown) const {
    ImagingSettings picture = imaging;
    picture.gainDb = shown.gainDb;
    picture.dynamicRangeDb = shown.dynamicRangeDb;
    picture.tgcDb.assign(imaging.tgcDb.size(), 0.0);  // one-way: the B-mode's TGC is not the shots'
    picture.persistence = 0;                          // each shot its own
    picture.greyMap = GreyMap::Linear;                // the colour map is the shots' map
    // The B-mode's grid exactly (laid out for the ultrasound geometry): co-registered.
    auto setup = imagingSetupFor(picture, config.geometry, config.beamformThreads, config.session.configure.centerFrequencyHz);
    setup.normaliseShotEnergy = shown.normaliseEnergy;
    return setup;
}

void Engine::Impl::reconfigureShots(const ImagingSettings& imaging, bool newImager) {
    const auto shown = settingsBoard.photoacoustic.get();
    const auto setup = shotSetupFor(imaging, shown);
    dualMode = config.shotGeometry.has_value();
    if (!config.shotGeometry) {  // no laser (any more): the pipeline shows no shots
        shots->reconfigure(config.geometry, setup, nullptr);
        shots->forgetPictures();
        return;
    }
    if (!newImager) return shots->changePicture(setup);  // the picture only: the beamformer stays
    shots->reconfigure(*config.shotGeometry, setup, config.display ? imagerFor(*config.shotGeometry, setup) : nullptr);
}

void Engine::Impl::applyPhotoacoustic(const PhotoacousticSettings& settings) {
    if (auto reasons = problems(settings); !reasons.empty()) {
        std::string joined;
        for (const auto& r : reasons) joined += (joined.empty() ? "" : "; ") + r;
        return emit(SettingsChanged{"photoacoustic", false, joined});
    }
    settingsBoard.photoacoustic.replace(settings);
    reconfigureShots(settingsBoard.imaging.get(), false);  // the picture only: the beamformer stays
    emit(SettingsChanged{"photoacoustic", true, config.shotGeometry ? "from the next shot" : "when the station fires a laser (acquisition.laser_rate_hz)"});
}

void Engine::setPhotoacoustic(PhotoacousticSettings settings) {
    impl_->ctl->post([impl = impl_.get(), settings] { impl->applyPhotoacoustic(settings); });
}

PhotoacousticSettings Engine::photoacoustic() const { return impl_->settingsBoard.photoacoustic.get(); }

std::shared_ptr<const DisplayFrame> Engine::latestShot() const { return impl_->dualMode ? impl_->shots->latest() : nullptr; }

std::vector<std::shared_ptr<const DisplayFrame>> Engine::shotCine() const {
    return impl_->dualMode ? impl_->shots->cine() : std::vector<std::shared_ptr<const DisplayFrame>>{};
}

bool Engine::firesLaser() const { return impl_->dualMode; }

}  // namespace sonolink::engine
