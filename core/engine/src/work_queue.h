// WorkQueue: a named thread that runs posted work in order; postAfter() runs work once its delay
// has passed (between other work, never blocking it), which is how a job waits without holding
// the thread. stop() (or destruction) runs what is already due, drops delayed work and joins the
// thread; posts after it are ignored. Work that throws is reported to the failure handler (what
// escaped it, in words) and the queue goes on.
// Thread contract: post() and postAfter() from any thread; the work runs on the queue's thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

class WorkQueue {
public:
    using FailureHandler = std::function<void(const std::string& what)>;  // on the queue's thread
    explicit WorkQueue(std::string name, FailureHandler onFailure = {});
    ~WorkQueue();
    WorkQueue(const WorkQueue&) = delete;
    WorkQueue& operator=(const WorkQueue&) = delete;

    void post(std::function<void()> work);
    void postAfter(std::chrono::milliseconds delay, std::function<void()> work);
    void stop();  // from any thread but the queue's own

private:
    using Clock = std::chrono::steady_clock;
    void run();

    std::string name_;
    FailureHandler onFailure_;
    Mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> due_ GUARDED_BY(mutex_);
    std::multimap<Clock::time_point, std::function<void()>> delayed_ GUARDED_BY(mutex_);
    bool stopping_ GUARDED_BY(mutex_) = false;
    std::thread thread_;  // last: starts once the members above exist
};

}  // namespace sonolink::engine
