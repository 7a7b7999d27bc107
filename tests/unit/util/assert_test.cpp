#include "sonolink/util/assert.h"

#include <gtest/gtest.h>

namespace {

int checkedIndex(int index, int size) {
    SONOLINK_ASSERT(index >= 0 && index < size, "index out of range");
    return index;
}

TEST(AssertDeathTest, AbortsWithConditionMessageAndLocation) {
    EXPECT_EQ(checkedIndex(2, 4), 2);
    EXPECT_DEATH(checkedIndex(5, 4),
                 "SONOLINK_ASSERT\\(index >= 0 && index < size\\) failed at .*assert_test.cpp:[0-9]+: "
                 "index out of range");
}

}  // namespace
