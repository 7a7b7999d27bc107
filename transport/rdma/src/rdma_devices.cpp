#include "sonolink/transport/rdma/rdma_devices.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include <sys/resource.h>

#include <endian.h>
#include <fmt/format.h>
#include <infiniband/verbs.h>

#include "sonolink/util/process_capabilities.h"

namespace sonolink::transport::rdma {
namespace {

struct DeviceListDeleter {
    void operator()(ibv_device** list) const noexcept { ibv_free_device_list(list); }
};
struct ContextDeleter {
    void operator()(ibv_context* context) const noexcept { ibv_close_device(context); }
};

std::string formatGuid(__be64 guid) {
    const std::uint64_t host = be64toh(guid);
    return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", (host >> 48) & 0xffff, (host >> 32) & 0xffff, (host >> 16) & 0xffff, host & 0xffff);
}

std::string linkLayerName(std::uint8_t layer) {
    switch (layer) {
        case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
        case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
        default: return "unspecified";
    }
}

std::string readLine(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

void readPortSysfs(const std::string& device, RdmaPortInfo& port) {
    namespace fs = std::filesystem;
    const fs::path base = fs::path("/sys/class/infiniband") / device / "ports" / std::to_string(port.portNumber);
    port.rate = readLine(base / "rate");
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(base / "gids", ec)) {
        const auto gid = readLine(entry.path());
        if (gid.empty() || gid == "0000:0000:0000:0000:0000:0000:0000:0000") continue;
        const auto type = readLine(base / "gid_attrs" / "types" / entry.path().filename());
        port.gids.push_back(entry.path().filename().string() + " " + gid + (type.empty() ? "" : " " + type));
    }
    std::sort(port.gids.begin(), port.gids.end(), [](const std::string& a, const std::string& b) { return std::stoi(a) < std::stoi(b); });
    for (const char* folder : {"counters", "hw_counters"}) {
        for (const auto& entry : fs::directory_iterator(base / folder, ec)) {
            const auto text = readLine(entry.path());
            char* end = nullptr;
            const auto value = std::strtoull(text.c_str(), &end, 10);
            if (!text.empty() && end && *end == '\0') port.counters[entry.path().filename().string()] = value;
        }
    }
}

RdmaDeviceCaps queryCaps(ibv_context* context, std::string& error) {
    RdmaDeviceCaps caps;
    ibv_device_attr_ex attr{};
    if (const int rc = ibv_query_device_ex(context, nullptr, &attr); rc != 0) {
        error = fmt::format("ibv_query_device_ex failed: {}", std::strerror(rc));
        return caps;
    }
    caps.firmware = attr.orig_attr.fw_ver;
    caps.maxQp = static_cast<std::uint32_t>(attr.orig_attr.max_qp);
    caps.maxQpWr = static_cast<std::uint32_t>(attr.orig_attr.max_qp_wr);
    caps.maxCqe = static_cast<std::uint32_t>(attr.orig_attr.max_cqe);
    caps.maxSge = static_cast<std::uint32_t>(attr.orig_attr.max_sge);
    caps.maxMr = static_cast<std::uint32_t>(attr.orig_attr.max_mr);
    caps.maxMrSize = attr.orig_attr.max_mr_size;
    caps.completionTimestamps = attr.hca_core_clock != 0;
    caps.maxCqModerationCount = attr.cq_mod_caps.max_cq_count;
    caps.maxCqModerationPeriodUs = attr.cq_mod_caps.max_cq_period;
    return caps;
}

RdmaDeviceInfo describe(ibv_device* device) {
    RdmaDeviceInfo info;
    info.name = ibv_get_device_name(device);
    info.nodeGuid = formatGuid(ibv_get_device_guid(device));
    std::unique_ptr<ibv_context, ContextDeleter> context(ibv_open_device(device));
    if (!context) {
        info.error = fmt::format("ibv_open_device failed: {} (check permissions on /dev/infiniband)", std::strerror(errno));
        return info;
    }
    info.caps = queryCaps(context.get(), info.error);
    ibv_device_attr attr{};
    if (const int rc = ibv_query_device(context.get(), &attr); rc != 0) {
        info.error = fmt::format("ibv_query_device failed: {}", std::strerror(rc));
        return info;
    }
    for (int port = 1; port <= attr.phys_port_cnt; ++port) {
        ibv_port_attr portAttr{};
        if (ibv_query_port(context.get(), static_cast<std::uint8_t>(port), &portAttr) != 0) continue;
        RdmaPortInfo p;
        p.portNumber = port;
        p.state = ibv_port_state_str(portAttr.state);
        p.activeMtuBytes = 128 << portAttr.active_mtu;
        p.linkLayer = linkLayerName(portAttr.link_layer);
        readPortSysfs(info.name, p);
        info.ports.push_back(std::move(p));
    }
    return info;
}

}  // namespace

MemlockStatus checkMemlock(std::uint64_t bytesToPin) {
    MemlockStatus status;
    rlimit limit{};
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
        status.sufficient = true;
        status.limitBytes = ~std::uint64_t(0);
        return status;
    }
    status.limitBytes = limit.rlim_cur;
    status.capIpcLock = hasEffectiveCapability(kCapIpcLock);
    // Registration pins the ring plus the queues' and control buffers' memory.
    status.sufficient = status.capIpcLock || limit.rlim_cur >= bytesToPin + (16u << 20);
    if (!status.sufficient) {
        status.advice = fmt::format(
            "the memlock limit is {} KiB but {} KiB must be pinned: raise it (the package's limits.d file "
            "lifts it for the sonolink group: `sudo adduser $USER sonolink` and log in again; or ulimit -l unlimited)",
            limit.rlim_cur / 1024, bytesToPin / 1024);
    }
    return status;
}

Result<std::vector<RdmaDeviceInfo>> listRdmaDevices() {
    int count = 0;
    errno = 0;
    std::unique_ptr<ibv_device*, DeviceListDeleter> list(ibv_get_device_list(&count));
    if (!list) {
        if (errno == ENOSYS || errno == 0) return std::vector<RdmaDeviceInfo>{};  // no RDMA in the kernel
        return fail(ErrorCode::Unavailable, fmt::format("ibv_get_device_list failed: {}", std::strerror(errno)));
    }
    std::vector<RdmaDeviceInfo> devices;
    for (int i = 0; i < count; ++i) devices.push_back(describe(list.get()[i]));
    return devices;
}

}  // namespace sonolink::transport::rdma
