// LatestValue: empty until stored; a store replaces the value for later readers, and a reader
// keeps the value it took alive however often it is replaced.
#include "latest_value.h"

#include <gtest/gtest.h>

namespace sonolink::engine {
namespace {

TEST(LatestValueTest, EmptyUntilStoredThenTheNewest) {
    LatestValue<const int> box;
    EXPECT_EQ(box.load(), nullptr);
    box.store(std::make_shared<const int>(1));
    box.store(std::make_shared<const int>(2));
    ASSERT_NE(box.load(), nullptr);
    EXPECT_EQ(*box.load(), 2);
}

TEST(LatestValueTest, AReaderKeepsItsValueAliveWhenItIsReplaced) {
    LatestValue<const int> box;
    box.store(std::make_shared<const int>(7));
    auto held = box.load();
    std::weak_ptr<const int> watch = held;
    box.store(std::make_shared<const int>(8));
    EXPECT_EQ(*held, 7) << "untouched by the producer";
    held.reset();
    EXPECT_TRUE(watch.expired()) << "and freed once the last reader lets go";
    EXPECT_EQ(*box.load(), 8);
}

TEST(LatestValueTest, ExchangeTakesTheValueOut) {
    LatestValue<int> box;
    box.store(std::make_shared<int>(3));
    auto taken = box.exchange(nullptr);
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(*taken, 3);
    EXPECT_EQ(box.load(), nullptr);
}

}  // namespace
}  // namespace sonolink::engine
