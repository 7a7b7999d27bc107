#include "sonolink/util/thread_affinity.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <cstring>
#include <string>

#include <fmt/format.h>

namespace sonolink {

Status pinCurrentThread(int cpu) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("CPU {} is not one this process may run on ({} CPUs allowed)", cpu, CPU_COUNT(&allowed)));
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (const int rc = pthread_setaffinity_np(pthread_self(), sizeof one, &one); rc != 0) {
        return fail(ErrorCode::Internal, fmt::format("pinning to CPU {} failed: {}", cpu, std::strerror(rc)));
    }
    return {};
}

void yieldCurrentThreadToInteractive(int niceIncrement) noexcept {
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0) (void)::setpriority(PRIO_PROCESS, tid, std::min(19, now + niceIncrement));
}

void nameCurrentThread(std::string_view name) noexcept {
    const std::string shortName(name.substr(0, 15));
    pthread_setname_np(pthread_self(), shortName.c_str());
}

}  // namespace sonolink
