// SettingsBoard: the imaging, acquisition and photoacoustic settings as the facade reports
// them: the ones in force, or for acquisition the next session's. Each group owns its lock.
// Thread contract: written on the ctl thread (as each change is applied), read from any.
#pragma once

#include <utility>

#include "sonolink/engine/engine.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

// One group of settings under its own lock: read whole, replaced whole.
template <typename T> class LockedSettings {
public:
    [[nodiscard]] T get() const EXCLUDES(mutex_) {
        MutexLock lock(mutex_);
        return value_;
    }
    // The settings from now on; returns those they replace.
    T replace(T value) EXCLUDES(mutex_) {
        MutexLock lock(mutex_);
        return std::exchange(value_, std::move(value));
    }

private:
    mutable Mutex mutex_;
    T value_ GUARDED_BY(mutex_);
};

struct SettingsBoard {
    LockedSettings<ImagingSettings> imaging;
    LockedSettings<AcquisitionSettings> acquisition;  // the next session's
    LockedSettings<PhotoacousticSettings> photoacoustic;
};

}  // namespace sonolink::engine
