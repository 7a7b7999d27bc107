#include "sonolink/util/assert.h"

#include <cstdio>
#include <cstdlib>

#include "sonolink/util/log.h"

namespace sonolink::detail {

void assertFailed(const char* condition, const char* message, const char* file, int line) noexcept {
    // stderr first: the logger itself may be what is broken.
    std::fprintf(stderr, "SONOLINK_ASSERT(%s) failed at %s:%d: %s\n", condition, file, line, message);
    log::flush();
    std::abort();
}

}  // namespace sonolink::detail
