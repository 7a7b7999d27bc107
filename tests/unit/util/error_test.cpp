#include "sonolink/util/result.h"

#include <thread>

#include <gtest/gtest.h>

namespace sonolink {
namespace {

Result<int> parsePositive(int value) {
    if (value <= 0) return fail(ErrorCode::InvalidArgument, "value must be positive");
    return value;
}

TEST(ErrorTest, CodeZeroIsOkAndEveryCodeHasAName) {
    EXPECT_EQ(static_cast<int>(ErrorCode::Ok), 0);
    for (int c = 0; c <= static_cast<int>(ErrorCode::Internal); ++c) {
        EXPECT_NE(toString(static_cast<ErrorCode>(c)), "Unknown") << c;
    }
}

TEST(ErrorTest, ResultCarriesValueOrError) {
    auto good = parsePositive(3);
    ASSERT_TRUE(good);
    EXPECT_EQ(*good, 3);
    auto bad = parsePositive(-1);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(bad.error().message(), "value must be positive");
}

TEST(ErrorTest, RecordsWhereItWasMade) {
    auto bad = parsePositive(0);
    ASSERT_FALSE(bad);
    EXPECT_NE(std::string(bad.error().where().file_name()).find("error_test.cpp"), std::string::npos);
    EXPECT_GT(bad.error().where().line(), 0u);
}

TEST(ErrorTest, DescribeListsContextThenDetails) {
    Error error(ErrorCode::Unavailable, "link down");
    error.addContext("connecting to fe0").addContext("starting acquisition");
    error.addDetail("port 1: DOWN");
    EXPECT_EQ(error.describe(),
              "Unavailable: link down (while connecting to fe0; while starting acquisition)\n"
              "  port 1: DOWN");
}

TEST(ErrorTest, StatusIsResultOfVoid) {
    Status ok{};
    EXPECT_TRUE(ok);
    Status bad = fail(ErrorCode::Cancelled, "stopped by user");
    EXPECT_FALSE(bad);
    EXPECT_EQ(bad.error().code(), ErrorCode::Cancelled);
}

}  // namespace
}  // namespace sonolink

#include <pthread.h>
#include <sched.h>

#include "sonolink/util/thread_affinity.h"

namespace sonolink {
namespace {

TEST(ThreadAffinityTest, PinsToAnAllowedCpuAndRefusesOthers) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int first = 0;
    while (!CPU_ISSET(first, &allowed)) ++first;
    std::thread worker([&] {
        nameCurrentThread("rx-test-thread-long-name");
        char name[16] = {};
        pthread_getname_np(pthread_self(), name, sizeof name);
        EXPECT_STREQ(name, "rx-test-thread-");
        ASSERT_TRUE(pinCurrentThread(first));
        cpu_set_t now;
        CPU_ZERO(&now);
        pthread_getaffinity_np(pthread_self(), sizeof now, &now);
        EXPECT_EQ(CPU_COUNT(&now), 1);
        EXPECT_TRUE(CPU_ISSET(first, &now));
        auto refused = pinCurrentThread(4000);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument);
    });
    worker.join();
}

}  // namespace
}  // namespace sonolink
