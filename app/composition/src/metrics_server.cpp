#include "metrics_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/util/thread_affinity.h"

namespace sonolink::app {

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(int port, Render render) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return fail(ErrorCode::FailedPrecondition, fmt::format("metrics: cannot open a socket: {}", std::strerror(errno)));
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 8) != 0) {
        const int e = errno;
        ::close(fd);
        return fail(ErrorCode::FailedPrecondition, fmt::format("metrics: cannot listen on 127.0.0.1:{}: {}", port, std::strerror(e)));
    }
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    return std::unique_ptr<MetricsServer>(new MetricsServer(fd, ntohs(address.sin_port), std::move(render)));
}

MetricsServer::MetricsServer(int fd, int port, Render render) : fd_(fd), port_(port), render_(std::move(render)) {
    thread_ = std::thread([this] { run(); });
}

MetricsServer::~MetricsServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
}

void MetricsServer::run() {
    nameCurrentThread("metrics");
    while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0) continue;  // wakes to see whether to stop
        const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        timeval timeout{1, 0};  // a client that sends nothing does not hold the thread
        ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        char request[2048] = {};
        const auto n = ::recv(client, request, sizeof request - 1, 0);
        const std::string_view line(request, n > 0 ? static_cast<std::size_t>(n) : 0);
        std::string body, status = "200 OK", type = "text/plain; version=0.0.4; charset=utf-8";
        if (line.starts_with("GET /metrics ") || line.starts_with("GET /metrics?")) {
            try {  // a scrape that fails is a 500 for that scrape, never the end of the thread
                body = render_();
            } catch (const std::exception& e) {
                status = "500 Internal Server Error";
                body = std::string("rendering the metrics failed: ") + e.what() + "\n";
            }
        } else {
            status = "404 Not Found";
            body = "SonoLink serves /metrics only\n";
        }
        const auto response =
            fmt::format("HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", status, type, body.size(), body);
        for (std::size_t sent = 0; sent < response.size();) {
            const auto w = ::send(client, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
            if (w <= 0) break;
            sent += static_cast<std::size_t>(w);
        }
        ::close(client);
    }
}

}  // namespace sonolink::app
