#include "sonolink/transport/rdma/rdma_devices.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include <endian.h>
#include <fmt/format.h>
#include <infiniband/verbs.h>

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
    return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", (host >> 48) & 0xffff, (host >> 32) & 0xffff,
                       (host >> 16) & 0xffff, host & 0xffff);
}

std::string linkLayerName(std::uint8_t layer) {
    switch (layer) {
    case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
    case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
    default: return "unspecified";
    }
}

RdmaDeviceInfo describe(ibv_device* device) {
    RdmaDeviceInfo info;
    info.name = ibv_get_device_name(device);
    info.nodeGuid = formatGuid(ibv_get_device_guid(device));
    std::unique_ptr<ibv_context, ContextDeleter> context(ibv_open_device(device));
    if (!context) {
        info.error = fmt::format("ibv_open_device failed: {} (check permissions on /dev/infiniband)",
                                 std::strerror(errno));
        return info;
    }
    ibv_device_attr attr{};
    if (const int rc = ibv_query_device(context.get(), &attr); rc != 0) {
        info.error = fmt::format("ibv_query_device failed: {}", std::strerror(rc));
        return info;
    }
    for (int port = 1; port <= attr.phys_port_cnt; ++port) {
        ibv_port_attr portAttr{};
        if (ibv_query_port(context.get(), static_cast<std::uint8_t>(port), &portAttr) != 0) continue;
        info.ports.push_back(RdmaPortInfo{port, ibv_port_state_str(portAttr.state),
                                          128 << portAttr.active_mtu,
                                          linkLayerName(portAttr.link_layer)});
    }
    return info;
}

}  // namespace

Result<std::vector<RdmaDeviceInfo>> listRdmaDevices() {
    int count = 0;
    errno = 0;
    std::unique_ptr<ibv_device*, DeviceListDeleter> list(ibv_get_device_list(&count));
    if (!list) {
        if (errno == ENOSYS || errno == 0) return std::vector<RdmaDeviceInfo>{};  // no RDMA in the kernel
        return fail(ErrorCode::Unavailable,
                    fmt::format("ibv_get_device_list failed: {}", std::strerror(errno)));
    }
    std::vector<RdmaDeviceInfo> devices;
    for (int i = 0; i < count; ++i) devices.push_back(describe(list.get()[i]));
    return devices;
}

}  // namespace sonolink::transport::rdma
