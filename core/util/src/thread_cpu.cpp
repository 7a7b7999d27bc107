#include "sonolink/util/thread_cpu.h"

#include <filesystem>
#include <fstream>

namespace sonolink {

std::vector<ThreadCpuTime> threadCpuTimes() {
    // schedstat's first field is the time on CPU in ns, from the scheduler itself; stat's
    // utime/stime are 10 ms tick samples, which alias with periodic work (a thread woken at
    // 1 kHz by frame arrivals) and were off by over a per cent of a core.
    std::map<std::string, double> byName;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec)) {
        std::string name;
        std::ifstream(it->path() / "comm") >> name;
        double ns = -1;
        std::ifstream(it->path() / "schedstat") >> ns;
        if (name.empty() || ns < 0) continue;  // the thread ended meanwhile
        byName[name] += ns / 1e9;
    }
    std::vector<ThreadCpuTime> out;
    for (const auto& [name, seconds] : byName) out.push_back({name, seconds});
    return out;
}

std::vector<ThreadCpuUse> ThreadCpuMeter::sample() {
    const auto now = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(now - lastTime_).count();
    std::vector<ThreadCpuUse> out;
    std::map<std::string, double> current;
    for (const auto& t : threadCpuTimes()) {
        current[t.name] = t.cpuSeconds;
        const auto before = last_.find(t.name);
        const double used = t.cpuSeconds - (before != last_.end() ? before->second : 0);
        if (primed_ && wall > 0) out.push_back({t.name, 100.0 * std::max(0.0, used) / wall});
    }
    last_ = std::move(current);
    lastTime_ = now;
    primed_ = true;
    return out;
}

}  // namespace sonolink
