// Socket addresses for UCX listeners and client endpoints: a host and port resolved to a sockaddr
// (IPv4 or IPv6, numeric or a name), and a sockaddr printed as "ip:port" ("[ip]:port" for IPv6).
// Thread contract: plain functions over values.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fmt/format.h>

#include "sonolink/util/result.h"

namespace sonolink::transport::ucx::detail {

struct SocketAddress {
    sockaddr_storage storage;
    socklen_t length;
};

[[nodiscard]] inline std::string hostPort(const std::string& host, std::uint16_t port) {
    return host.find(':') == std::string::npos ? fmt::format("{}:{}", host, port) : fmt::format("[{}]:{}", host, port);
}

[[nodiscard]] inline Result<SocketAddress> resolveAddress(const std::string& host, std::uint16_t port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
    if (rc != 0 || found == nullptr) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not an address to use for {}: {}", host, hostPort(host, port), ::gai_strerror(rc)));
    }
    SocketAddress address{.storage = {}, .length = found->ai_addrlen};
    std::memcpy(&address.storage, found->ai_addr, found->ai_addrlen);
    ::freeaddrinfo(found);
    return address;
}

[[nodiscard]] inline std::uint16_t portOf(const sockaddr_storage& address) {
    if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
}

[[nodiscard]] inline std::string formatAddress(const sockaddr_storage& address) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* ip = address.ss_family == AF_INET6 ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6&>(address).sin6_addr)
                                                   : static_cast<const void*>(&reinterpret_cast<const sockaddr_in&>(address).sin_addr);
    if (::inet_ntop(address.ss_family, ip, text, sizeof(text)) == nullptr) return "an unknown address";
    return hostPort(text, portOf(address));
}

}  // namespace sonolink::transport::ucx::detail
