// A loopback TCP port that nothing listens on: bound by the kernel's choice, then closed, so a
// connection to it is refused at once (a peer that is down), or a test's own server may take it.
// Thread contract: any thread; 0 when the kernel gave no port.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sonolink::testing {

inline int closedLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    const bool ok =
        ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    ::close(fd);
    return ok ? ntohs(address.sin_port) : 0;
}

}  // namespace sonolink::testing
