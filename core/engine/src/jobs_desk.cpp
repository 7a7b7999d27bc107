#include "jobs_desk.h"

#include <utility>

namespace sonolink::engine {

JobsDesk::ExportTicket JobsDesk::newExport() {
    ExportTicket ticket{0, {}, std::make_shared<std::atomic<bool>>(false)};
    MutexLock lock(mutex_);
    ticket.id = nextJob_++;
    cancels_[ticket.id] = ticket.cancelled;
    ticket.exam = exam_;
    return ticket;
}

JobId JobsDesk::newQuery() {
    MutexLock lock(mutex_);
    return nextJob_++;
}

void JobsDesk::cancel(JobId id) {
    MutexLock lock(mutex_);
    if (auto it = cancels_.find(id); it != cancels_.end()) it->second->store(true);
}

void JobsDesk::finish(JobId id) {
    MutexLock lock(mutex_);
    cancels_.erase(id);
}

Exam JobsDesk::exam() const {
    MutexLock lock(mutex_);
    return exam_;
}

bool JobsDesk::setExam(Exam exam, const std::function<void()>& beforeAnotherPatient) {
    MutexLock lock(mutex_);
    const bool lastHadPatient = !exam_.patient.name.empty() || !exam_.patient.id.empty();
    // The same study corrected, or the first patient of frames taken under none: they are theirs.
    const bool another = exam_.studyInstanceUid != exam.studyInstanceUid && lastHadPatient;
    if (another) beforeAnotherPatient();
    exam_ = std::move(exam);
    return another;
}

std::string JobsDesk::frontEndSerial() const {
    MutexLock lock(mutex_);
    return frontEndSerial_;
}

void JobsDesk::setFrontEndSerial(std::string serial) {
    MutexLock lock(mutex_);
    frontEndSerial_ = std::move(serial);
}

}  // namespace sonolink::engine
