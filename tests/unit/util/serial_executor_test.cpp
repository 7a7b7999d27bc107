#include "sonolink/util/serial_executor.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace sonolink {
namespace {

TEST(SerialExecutorTest, RunsTasksOneAtATimeInTheOrderGivenOnItsNamedThread) {
    std::vector<int> order;
    std::atomic<int> running{0};
    std::atomic<bool> overlapped{false};
    std::future<std::string> name;
    {
        SerialExecutor executor("test-serial");
        for (int i = 0; i < 200; ++i) {
            executor.submit([&, i] {
                if (running.fetch_add(1) != 0) overlapped = true;
                order.push_back(i);  // unguarded: only ever touched by one task at a time
                running.fetch_sub(1);
            });
        }
        name = executor.submit([] {
            char buffer[16] = {};
            pthread_getname_np(pthread_self(), buffer, sizeof buffer);
            return std::string(buffer);
        });
        EXPECT_EQ(name.get(), "test-serial");
    }
    EXPECT_FALSE(overlapped);
    ASSERT_EQ(order.size(), 200u);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
}

TEST(SerialExecutorTest, ResultsAndExceptionsComeThroughTheFuture) {
    SerialExecutor executor("test-serial");
    auto value = executor.submit([] { return 42; });
    auto thrown = executor.submit([]() -> int { throw std::runtime_error("task failed"); });
    EXPECT_EQ(value.get(), 42);
    EXPECT_THROW(thrown.get(), std::runtime_error);
    EXPECT_EQ(executor.submit([] { return 7; }).get(), 7);  // a task that threw does not stop the worker
}

TEST(SerialExecutorTest, TheDestructorRunsWhatIsStillQueued) {
    std::atomic<int> ran{0};
    {
        SerialExecutor executor("test-serial");
        executor.submit([] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
        for (int i = 0; i < 10; ++i) executor.submit([&] { ++ran; });
    }
    EXPECT_EQ(ran.load(), 10);
}

}  // namespace
}  // namespace sonolink
