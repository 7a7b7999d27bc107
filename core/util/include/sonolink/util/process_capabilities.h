// Whether this process holds a Linux capability in its effective set (/proc/self/status,
// CapEff), e.g. CAP_IPC_LOCK (14), with which the memlock limit does not bind. No libcap.
// Thread contract: thread-safe; reads /proc each call (capabilities are per thread: the caller's).
#pragma once

namespace sonolink {

inline constexpr int kCapIpcLock = 14;

[[nodiscard]] bool hasEffectiveCapability(int capability);

}  // namespace sonolink
