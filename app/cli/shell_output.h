// shellOutput(): runs a shell command line (popen) and returns what it printed, stdout and
// whatever the line itself redirects, with its exit status: the benches' way to run a peer tool
// (ib_write_bw, ucx_perftest) in the same run. Unavailable when no shell could be started.
// Thread contract: any thread; blocks until the command ends.
#pragma once

#include <cstdio>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::cli {

struct ShellOutput {
    std::string text;
    int status = 0;  // as pclose() returns it: 0 for success
};

[[nodiscard]] inline Result<ShellOutput> shellOutput(const std::string& command) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return fail(ErrorCode::Unavailable, "cannot start a shell for: " + command);
    ShellOutput out;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) out.text += buffer;
    out.status = ::pclose(pipe);
    return out;
}

}  // namespace sonolink::cli
