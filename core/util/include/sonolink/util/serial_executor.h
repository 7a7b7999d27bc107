// SerialExecutor: one named worker thread that runs the tasks given to it one at a time, in the
// order given, so a thread can hand off work (a read ahead, a bookkeeping step) and go on. The
// destructor runs what is still queued, then joins.
// Thread contract: submit() from any thread; tasks run on the worker only, never two at once.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

namespace sonolink {

class SerialExecutor {
public:
    explicit SerialExecutor(std::string threadName);  // at most 15 characters (Linux)
    ~SerialExecutor();
    SerialExecutor(const SerialExecutor&) = delete;
    SerialExecutor& operator=(const SerialExecutor&) = delete;

    // Queues task; its result (or exception) comes through the future.
    template <class Task> auto submit(Task task) -> std::future<std::invoke_result_t<Task&>> {
        auto packaged = std::make_shared<std::packaged_task<std::invoke_result_t<Task&>()>>(std::move(task));
        auto result = packaged->get_future();
        enqueue([packaged] { (*packaged)(); });
        return result;
    }

private:
    void enqueue(std::function<void()> task);
    void run();

    std::string name_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> tasks_;
    bool closing_ = false;
    std::thread worker_;
};

}  // namespace sonolink
