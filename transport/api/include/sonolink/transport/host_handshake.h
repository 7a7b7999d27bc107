// answerHello(): the host's half of the opening handshake, the same on every link: wait for the
// front end's Hello, check its role, negotiate the version and answer HelloAck (or ErrorReport
// and an error). Backends call it from accept() once their transport is connected.
// Thread contract: the thread that owns the link's control plane.
#pragma once

#include <chrono>
#include <cstdint>

#include <fmt/format.h>

#include "sonolink/transport/link.h"

namespace sonolink::transport {

struct AgreedHello {
    Hello peer;
    std::uint16_t version = 0;
};

[[nodiscard]] inline Result<AgreedHello> answerHello(Link& link, std::uint64_t sessionId, std::chrono::milliseconds timeout) {
    auto message = link.receiveControl(timeout);
    if (!message) return fail(std::move(message.error()).addContext("waiting for the front end's Hello"));
    if (!*message) return fail(ErrorCode::Unavailable, "the front end connected but sent no Hello in time");
    const auto* hello = std::get_if<Hello>(&**message);
    if (!hello || hello->role != Role::FrontEnd) {
        return fail(ErrorCode::InvalidArgument, fmt::format("expected Hello from a front end, got {}", toString(typeOf(**message))));
    }
    Hello ours;
    ours.role = Role::Host;
    auto version = negotiateVersion(ours, *hello);
    if (!version) {
        (void)link.sendControl(
            ErrorReport{static_cast<std::uint16_t>(version.error().code()), static_cast<std::uint8_t>(MessageType::Hello), version.error().message()});
        return fail(std::move(version.error()));
    }
    if (auto sent = link.sendControl(HelloAck{*version, sessionId}); !sent) return fail(std::move(sent.error()));
    return AgreedHello{*hello, *version};
}

}  // namespace sonolink::transport
