#include "sonolink/util/thread_cpu.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sonolink {

std::vector<ThreadCpuTime> threadCpuTimes() {
    std::map<std::string, double> byName;
    static const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec)) {
        std::string name;
        std::ifstream(it->path() / "comm") >> name;
        std::ifstream statFile(it->path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(statFile)), {});
        const auto close = stat.rfind(')');  // the name may hold spaces: fields start after ')'
        if (name.empty() || close == std::string::npos) continue;  // the thread ended meanwhile
        std::istringstream fields(stat.substr(close + 2));
        std::string field;
        double utime = 0, stime = 0;
        for (int i = 3; i <= 15 && fields >> field; ++i) {
            if (i == 14) utime = std::stod(field);
            if (i == 15) stime = std::stod(field);
        }
        byName[name] += (utime + stime) / ticks;
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
