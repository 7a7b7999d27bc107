// WorkQueue: work runs in order on the queue's thread; delayed work runs once due, between other
// work, never blocking it; stop() runs what is due, drops what is delayed, and ignores later
// posts; work that throws is reported to the failure handler and the queue goes on.
#include "work_queue.h"

#include <atomic>
#include <future>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink::engine {
namespace {

using namespace std::chrono_literals;

// Runs `work` on q and waits for it: a barrier behind everything posted before.
void drain(WorkQueue& q) {
    std::promise<void> done;
    q.post([&] { done.set_value(); });
    done.get_future().wait();
}

TEST(WorkQueueTest, RunsWorkInOrderOnItsOwnThread) {
    WorkQueue q("test-q");
    std::vector<int> order;
    std::thread::id worker;
    for (int i = 0; i < 100; ++i) q.post([&, i] { order.push_back(i), worker = std::this_thread::get_id(); });
    drain(q);
    ASSERT_EQ(order.size(), 100u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
    EXPECT_NE(worker, std::this_thread::get_id());
}

TEST(WorkQueueTest, DelayedWorkRunsOnceDueAndDoesNotHoldUpOtherWork) {
    WorkQueue q("test-q");
    std::promise<std::chrono::steady_clock::time_point> ranAt;
    const auto posted = std::chrono::steady_clock::now();
    q.postAfter(50ms, [&] { ranAt.set_value(std::chrono::steady_clock::now()); });
    std::promise<void> immediate;
    q.post([&] { immediate.set_value(); });
    EXPECT_EQ(immediate.get_future().wait_for(40ms), std::future_status::ready) << "the delayed work blocks nothing";
    EXPECT_GE(ranAt.get_future().get() - posted, 50ms);
}

TEST(WorkQueueTest, StopRunsWhatIsDueDropsWhatIsDelayedAndIgnoresLaterPosts) {
    std::atomic<int> ran{0};
    auto q = std::make_unique<WorkQueue>("test-q");
    std::promise<void> gate;
    auto opened = gate.get_future().share();
    q->post([opened] { opened.wait(); });
    q->post([&] { ++ran; });                   // due: runs before the thread ends
    q->postAfter(10min, [&] { ran += 100; });  // delayed: dropped
    std::thread stopper([&] { q->stop(); });
    gate.set_value();
    stopper.join();
    EXPECT_EQ(ran.load(), 1);
    q->post([&] { ran += 1000; });  // after stop: ignored
    q.reset();
    EXPECT_EQ(ran.load(), 1);
}

TEST(WorkQueueTest, WorkThatThrowsIsReportedAndTheQueueGoesOn) {
    std::vector<std::string> failures;
    std::mutex mutex;
    WorkQueue q("test-q", [&](const std::string& what) {
        std::lock_guard lock(mutex);
        failures.push_back(what);
    });
    q.post([] { throw std::runtime_error("disk on fire"); });
    q.post([] { throw 42; });
    std::atomic<bool> after{false};
    q.post([&] { after = true; });
    drain(q);
    EXPECT_TRUE(after);
    std::lock_guard lock(mutex);
    ASSERT_EQ(failures.size(), 2u);
    EXPECT_EQ(failures[0], "disk on fire");
    EXPECT_EQ(failures[1], "an exception that is not a std::exception");
}

}  // namespace
}  // namespace sonolink::engine
