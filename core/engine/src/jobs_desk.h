// JobsDesk: the engine's job ids, each export job's cancel flag, the exam that exports name and
// the front end's serial they carry. Owns its state and its lock (no other is taken under it but
// the one a caller's "before another patient" step takes).
// Thread contract: any thread (the facade's callers, the jobs and ctl threads).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "sonolink/engine/engine.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

class JobsDesk {
public:
    // An export job's id, its cancel flag (registered) and the exam as it is now.
    struct ExportTicket {
        JobId id = 0;
        Exam exam;
        std::shared_ptr<std::atomic<bool>> cancelled;
    };
    [[nodiscard]] ExportTicket newExport() EXCLUDES(mutex_);
    [[nodiscard]] JobId newQuery() EXCLUDES(mutex_);  // an id only: a query is not cancelled
    void cancel(JobId id) EXCLUDES(mutex_);
    void finish(JobId id) EXCLUDES(mutex_);  // its cancel flag forgotten

    [[nodiscard]] Exam exam() const EXCLUDES(mutex_);
    // The exam from now on. When it is another study after a patient's, `beforeAnotherPatient`
    // runs first, under the lock: no export can pair the last patient's pictures with the new
    // exam. Returns whether it ran.
    bool setExam(Exam exam, const std::function<void()>& beforeAnotherPatient) EXCLUDES(mutex_);

    [[nodiscard]] std::string frontEndSerial() const EXCLUDES(mutex_);  // of the last session opened
    void setFrontEndSerial(std::string serial) EXCLUDES(mutex_);

private:
    mutable Mutex mutex_;
    JobId nextJob_ GUARDED_BY(mutex_) = 1;
    std::map<JobId, std::shared_ptr<std::atomic<bool>>> cancels_ GUARDED_BY(mutex_);
    Exam exam_ GUARDED_BY(mutex_);
    std::string frontEndSerial_ GUARDED_BY(mutex_);
};

}  // namespace sonolink::engine
