#include "work_queue.h"

#include <exception>

#include "sonolink/util/log.h"
#include "sonolink/util/thread_affinity.h"

namespace sonolink::engine {

WorkQueue::WorkQueue(std::string name, FailureHandler onFailure) : name_(std::move(name)), onFailure_(std::move(onFailure)), thread_([this] { run(); }) {}

WorkQueue::~WorkQueue() { stop(); }

void WorkQueue::stop() {
    {
        MutexLock lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void WorkQueue::post(std::function<void()> work) {
    {
        MutexLock lock(mutex_);
        if (stopping_) return;
        due_.push_back(std::move(work));
    }
    wake_.notify_one();
}

void WorkQueue::postAfter(std::chrono::milliseconds delay, std::function<void()> work) {
    {
        MutexLock lock(mutex_);
        if (stopping_) return;
        delayed_.emplace(Clock::now() + delay, std::move(work));
    }
    wake_.notify_one();
}

void WorkQueue::run() {
    nameCurrentThread(name_);
    while (true) {
        std::function<void()> work;
        {
            UniqueLock lock(mutex_);
            while (true) {
                for (auto now = Clock::now(); !delayed_.empty() && delayed_.begin()->first <= now;) {
                    due_.push_back(std::move(delayed_.begin()->second));
                    delayed_.erase(delayed_.begin());
                }
                if (!due_.empty()) break;
                if (stopping_) return;  // what was due has run; delayed work is dropped
                if (delayed_.empty()) wake_.wait(lock.native());
                else wake_.wait_until(lock.native(), delayed_.begin()->first);
            }
            work = std::move(due_.front());
            due_.pop_front();
        }
        std::string escaped;
        try {
            work();
        } catch (const std::exception& e) {
            escaped = *e.what() ? e.what() : "a std::exception without a message";
        } catch (...) {
            escaped = "an exception that is not a std::exception";
        }
        if (escaped.empty()) continue;
        if (onFailure_) {
            try {
                onFailure_(escaped);
                continue;
            } catch (...) {
            }
        }
        static auto& category = log::category("engine");
        log::error(category, "{} thread: {}", name_, escaped);
    }
}

}  // namespace sonolink::engine
