// CPU time per thread of this process, by thread name (/proc/self/task/*/schedstat: the
// scheduler's own nanoseconds, not 10 ms tick samples), so the engine can say how much of a core
// each of its named threads (ctl, rx-link0, bf-cpu, rec, jobs) uses.
// ThreadCpuMeter turns two readings into percentages of one core. Linux only.
// Thread contract: threadCpuTimes() is a pure read; a ThreadCpuMeter is used by one thread.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace sonolink {

struct ThreadCpuTime {
    std::string name;
    double cpuSeconds = 0;  // user + system, summed over the threads of that name
};
[[nodiscard]] std::vector<ThreadCpuTime> threadCpuTimes();

struct ThreadCpuUse {
    std::string name;
    double percentOfCore = 0;
};

class ThreadCpuMeter {
public:
    // Per thread name, the share of one core used since the previous call (or construction).
    [[nodiscard]] std::vector<ThreadCpuUse> sample();

private:
    std::map<std::string, double> last_;
    std::chrono::steady_clock::time_point lastTime_ = std::chrono::steady_clock::now();
    bool primed_ = false;
};

}  // namespace sonolink
