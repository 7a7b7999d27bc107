#include "sonolink/transport/ucx/ucx_fabric.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sonolink::transport::ucx {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kTimeout = 10s;  // generous: a loaded CI machine; a healthy run takes milliseconds

struct Received {
    PeerId peer;
    std::uint16_t kind;
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
};

// What one Fabric reports through its callbacks, with bounded waits on it.
class Recorder {
public:
    FabricCallbacks callbacks() {
        return FabricCallbacks{
            .onMessage =
                [this](PeerId peer, std::uint16_t kind, std::span<const std::byte> header, std::vector<std::byte> payload) {
                    record([&] {
                        payloadMemory_.push_back(payload.data());
                        messages_.push_back(Received{peer, kind, {header.begin(), header.end()}, std::move(payload)});
                    });
                },
            .onPeerAccepted = [this](PeerId peer, std::string address) { record([&] { accepted_.emplace_back(peer, std::move(address)); }); },
            .onPeerLost = [this](PeerId peer, std::string reason) { record([&] { lost_.emplace_back(peer, std::move(reason)); }); },
        };
    }

    bool waitForMessages(std::size_t count, std::chrono::milliseconds timeout = kTimeout) {
        return waitFor([&] { return messages_.size() >= count; }, timeout);
    }
    std::optional<std::pair<PeerId, std::string>> waitForAccepted(std::chrono::milliseconds timeout = kTimeout) {
        if (!waitFor([&] { return !accepted_.empty(); }, timeout)) return std::nullopt;
        std::lock_guard lock(mutex_);
        return accepted_.front();
    }
    std::optional<std::pair<PeerId, std::string>> waitForLost(std::chrono::milliseconds timeout = kTimeout) {
        if (!waitFor([&] { return !lost_.empty(); }, timeout)) return std::nullopt;
        std::lock_guard lock(mutex_);
        return lost_.front();
    }
    std::vector<Received> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    std::vector<const std::byte*> payloadMemory() {  // where each payload was, as onMessage got it
        std::lock_guard lock(mutex_);
        return payloadMemory_;
    }
    std::size_t lostCount() {
        std::lock_guard lock(mutex_);
        return lost_.size();
    }

private:
    template <typename Change> void record(Change change) {
        {
            std::lock_guard lock(mutex_);
            change();
        }
        changed_.notify_all();
    }
    template <typename Predicate> bool waitFor(Predicate done, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, done);
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Received> messages_;
    std::vector<const std::byte*> payloadMemory_;
    std::vector<std::pair<PeerId, std::string>> accepted_;
    std::vector<std::pair<PeerId, std::string>> lost_;
};

// For state that no callback announces (a sender's completions): checks it until the deadline.
template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds timeout = kTimeout) {
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
        if (Clock::now() >= deadline) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

std::vector<std::byte> bytes(std::string_view text) {
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

std::vector<std::byte> pattern(std::size_t size, std::uint32_t seed) {
    std::vector<std::byte> out(size);
    for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>((seed * 131u + i * 7u + (i >> 12)) & 0xffu);
    return out;
}

std::vector<std::byte> indexHeader(std::uint32_t index) {
    std::vector<std::byte> header(sizeof(index));
    std::memcpy(header.data(), &index, sizeof(index));
    return header;
}

std::uint32_t indexOf(const std::vector<std::byte>& header) {
    std::uint32_t index = 0;
    if (header.size() == sizeof(index)) std::memcpy(&index, header.data(), sizeof(index));
    return index;
}

std::unique_ptr<Fabric> makeFabric(Recorder& recorder, const std::string& transports = "tcp") {
    auto fabric =
        Fabric::create(FabricOptions{.transports = transports, .netDevices = {}, .connectTimeout = 5000ms, .closeGrace = 200ms}, recorder.callbacks());
    EXPECT_TRUE(fabric) << fabric.error().describe();
    return fabric ? std::move(*fabric) : nullptr;
}

// A server Fabric listening on 127.0.0.1 (a free port) and a client Fabric connected to it.
struct Pair {
    Recorder serverEvents;
    Recorder clientEvents;
    std::unique_ptr<Fabric> server;
    std::unique_ptr<Fabric> client;
    PeerId clientToServer = 0;  // the client's peer id of the server
    PeerId serverToClient = 0;  // the server's peer id of the client (accepted)

    void open(const std::string& transports = "tcp") {
        server = makeFabric(serverEvents, transports);
        client = makeFabric(clientEvents, transports);
        ASSERT_TRUE(server && client);
        auto port = server->listen("127.0.0.1", 0);
        ASSERT_TRUE(port) << port.error().describe();
        ASSERT_NE(*port, 0);
        auto peer = client->connect("127.0.0.1", *port);
        ASSERT_TRUE(peer) << peer.error().describe();
        clientToServer = *peer;
        auto accepted = serverEvents.waitForAccepted();
        ASSERT_TRUE(accepted);
        serverToClient = accepted->first;
        EXPECT_TRUE(accepted->second.starts_with("127.0.0.1:")) << accepted->second;
    }
};

TEST(UcxFabricTest, SmallMessagesGoBothWaysAndNameTheirSender) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open());

    ASSERT_TRUE(pair.client->send(pair.clientToServer, 3, bytes("hdr"), bytes("hello coordinator")));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(1));
    const Received up = pair.serverEvents.messages().front();
    EXPECT_EQ(up.peer, pair.serverToClient);
    EXPECT_EQ(up.kind, 3);
    EXPECT_EQ(up.header, bytes("hdr"));
    EXPECT_EQ(up.payload, bytes("hello coordinator"));

    ASSERT_TRUE(pair.server->send(pair.serverToClient, 31, bytes("h2"), bytes("hello node")));
    ASSERT_TRUE(pair.clientEvents.waitForMessages(1));
    const Received down = pair.clientEvents.messages().front();
    EXPECT_EQ(down.peer, pair.clientToServer);
    EXPECT_EQ(down.kind, 31);
    EXPECT_EQ(down.header, bytes("h2"));
    EXPECT_EQ(down.payload, bytes("hello node"));

    ASSERT_TRUE(eventually([&] { return pair.client->pendingSends() == 0 && pair.server->pendingSends() == 0; }));
    const PeerTraffic client = pair.client->traffic(pair.clientToServer);
    EXPECT_EQ(client.messagesSent, 1u);
    EXPECT_EQ(client.bytesSent, 3u + 17u);
    EXPECT_EQ(client.messagesReceived, 1u);
    EXPECT_EQ(client.bytesReceived, 2u + 10u);
    const PeerTraffic server = pair.server->traffic(pair.serverToClient);
    EXPECT_EQ(server.messagesSent, 1u);
    EXPECT_EQ(server.bytesSent, 2u + 10u);
    EXPECT_EQ(server.messagesReceived, 1u);
    EXPECT_EQ(server.bytesReceived, 3u + 17u);
}

// The server may send from onPeerAccepted, before the client's connect() has returned: the client
// still learns the message came from the peer connect() returns.
TEST(UcxFabricTest, AGreetingSentOnAcceptReachesTheConnectingPeer) {
    Recorder serverEvents;
    Fabric* serverFabric = nullptr;
    FabricCallbacks greeting = serverEvents.callbacks();
    greeting.onPeerAccepted = [&serverFabric](PeerId peer, std::string) { EXPECT_TRUE(serverFabric->send(peer, 4, bytes("hi"), bytes("welcome"))); };
    auto server = Fabric::create(FabricOptions{}, greeting);
    ASSERT_TRUE(server) << server.error().describe();
    serverFabric = server->get();
    auto port = serverFabric->listen("127.0.0.1", 0);
    ASSERT_TRUE(port) << port.error().describe();
    for (int attempt = 0; attempt < 20; ++attempt) {
        Recorder clientEvents;
        auto client = makeFabric(clientEvents);
        ASSERT_TRUE(client);
        auto peer = client->connect("127.0.0.1", *port);
        ASSERT_TRUE(peer) << peer.error().describe();
        ASSERT_TRUE(clientEvents.waitForMessages(1));
        EXPECT_EQ(clientEvents.messages().front().peer, *peer);
        EXPECT_EQ(clientEvents.messages().front().payload, bytes("welcome"));
    }
}

TEST(UcxFabricTest, SendChecksKindHeaderAndPeer) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open());
    auto badKind = pair.client->send(pair.clientToServer, kMessageKinds, {}, {});
    ASSERT_FALSE(badKind);
    EXPECT_EQ(badKind.error().code(), ErrorCode::InvalidArgument);
    ASSERT_GT(pair.client->maxHeaderBytes(), 1000u);
    auto bigHeader = pair.client->send(pair.clientToServer, 0, std::vector<std::byte>(pair.client->maxHeaderBytes() + 1), {});
    ASSERT_FALSE(bigHeader);
    EXPECT_EQ(bigHeader.error().code(), ErrorCode::InvalidArgument);
    auto unknown = pair.client->send(pair.clientToServer + 1000, 0, {}, {});
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().code(), ErrorCode::FailedPrecondition);
    // A header at the limit and an empty message are fine.
    EXPECT_TRUE(pair.client->send(pair.clientToServer, 1, std::vector<std::byte>(pair.client->maxHeaderBytes()), {}));
    EXPECT_TRUE(pair.client->send(pair.clientToServer, 2, {}, {}));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(2));
}

// Data tests, over TCP alone and with shared memory beside it (the sockets still make the connection).
class UcxFabricDataTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UcxFabricDataTest, FourMebibytePayloadArrivesIntact) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open(GetParam()));
    const auto payload = pattern(4u << 20, 42);
    ASSERT_TRUE(pair.client->send(pair.clientToServer, 7, indexHeader(42), payload));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(1));
    const Received image = pair.serverEvents.messages().front();
    EXPECT_EQ(image.peer, pair.serverToClient);
    EXPECT_EQ(indexOf(image.header), 42u);
    EXPECT_TRUE(image.payload == payload);
    ASSERT_TRUE(eventually([&] { return pair.client->pendingSends() == 0; }));
    EXPECT_EQ(pair.client->traffic(pair.clientToServer).bytesSent, 4u + (4u << 20));
}

TEST_P(UcxFabricDataTest, TwoHundredQuarterMebibyteMessagesAllArriveIntact) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open(GetParam()));
    constexpr std::uint32_t kCount = 200;
    constexpr std::size_t kSize = 256u << 10;
    for (std::uint32_t i = 0; i < kCount; ++i) {
        ASSERT_TRUE(pair.client->send(pair.clientToServer, static_cast<std::uint16_t>(i % kMessageKinds), indexHeader(i), pattern(kSize, i)));
    }
    ASSERT_TRUE(pair.serverEvents.waitForMessages(kCount, 30s)) << pair.serverEvents.messages().size() << " of " << kCount;
    std::set<std::uint32_t> seen;
    for (const Received& message : pair.serverEvents.messages()) {
        const std::uint32_t index = indexOf(message.header);
        EXPECT_EQ(message.kind, index % kMessageKinds);
        EXPECT_TRUE(message.payload == pattern(kSize, index)) << "message " << index;
        seen.insert(index);
    }
    EXPECT_EQ(seen.size(), kCount);
    ASSERT_TRUE(eventually([&] { return pair.client->pendingSends() == 0; }));
    const PeerTraffic traffic = pair.server->traffic(pair.serverToClient);
    EXPECT_EQ(traffic.messagesReceived, kCount);
    EXPECT_EQ(traffic.bytesReceived, kCount * (4u + kSize));
}

// buffer() and recycle(): a sent payload's memory comes back to the sender's pool, a received one
// handed back goes to the next large receive, without a zero-fill, and payloads still arrive exactly.
TEST_P(UcxFabricDataTest, RecycledBuffersCarryPayloadsIntact) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open(GetParam()));
    constexpr std::size_t kSize = 1u << 20;
    const auto firstPattern = pattern(kSize, 1);
    std::vector<std::byte> first = pair.client->buffer(kSize);
    ASSERT_EQ(first.size(), kSize);
    std::copy(firstPattern.begin(), firstPattern.end(), first.begin());
    const std::byte* firstMemory = first.data();
    ASSERT_TRUE(pair.client->send(pair.clientToServer, 5, indexHeader(1), std::move(first)));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(1));
    ASSERT_TRUE(eventually([&] { return pair.client->pendingSends() == 0; }));

    std::vector<std::byte> second = pair.client->buffer(kSize - 100);  // the sent one, shortened
    EXPECT_EQ(second.data(), firstMemory);
    ASSERT_EQ(second.size(), kSize - 100);
    std::vector<std::byte> received = pair.serverEvents.messages().front().payload;
    EXPECT_TRUE(received == firstPattern);
    const std::byte* recycledMemory = received.data();
    pair.server->recycle(std::move(received));
    const auto secondPattern = pattern(kSize - 100, 2);
    std::copy(secondPattern.begin(), secondPattern.end(), second.begin());
    ASSERT_TRUE(pair.client->send(pair.clientToServer, 5, indexHeader(2), std::move(second)));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(2));
    EXPECT_EQ(pair.serverEvents.payloadMemory().back(), recycledMemory);  // received into the recycled buffer
    const Received again = pair.serverEvents.messages().back();
    EXPECT_EQ(indexOf(again.header), 2u);
    EXPECT_TRUE(again.payload == secondPattern);

    // Small payloads are not kept: a fresh, zero-filled buffer.
    pair.server->recycle(std::vector<std::byte>(1000, std::byte{1}));
    EXPECT_EQ(pair.server->buffer(1000), std::vector<std::byte>(1000));
}

// The lane that carries eager messages and rendezvous requests, from ucp_ep_print_info's lines
// ("lane[1]:  3:sysv/memory.0 md[2] -> md[2]/sysv/sysdev[255] am am_bw#0 keepalive").
std::string activeMessageLane(const std::string& description) {
    std::istringstream lines(description);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("lane[") != std::string::npos && line.find(" am ") != std::string::npos) return line;
    }
    return {};
}

TEST(UcxFabricTest, SharedMemoryCarriesTheMessagesOnOneHost) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open("tcp,shm,self"));
    for (auto [fabric, peer] : {std::pair{pair.client.get(), pair.clientToServer}, std::pair{pair.server.get(), pair.serverToClient}}) {
        auto description = fabric->describeTransport(peer);
        ASSERT_TRUE(description) << description.error().describe();
        const std::string lane = activeMessageLane(*description);
        EXPECT_TRUE(lane.find("sysv/") != std::string::npos || lane.find("posix/") != std::string::npos) << *description;
    }
    ASSERT_TRUE(pair.client->send(pair.clientToServer, 0, bytes("h"), bytes("over shared memory")));
    ASSERT_TRUE(pair.serverEvents.waitForMessages(1));
    EXPECT_EQ(pair.serverEvents.messages().front().payload, bytes("over shared memory"));
}

TEST(UcxFabricTest, TcpAloneCarriesTheMessagesOverTcp) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open("tcp"));
    auto description = pair.client->describeTransport(pair.clientToServer);
    ASSERT_TRUE(description) << description.error().describe();
    EXPECT_NE(activeMessageLane(*description).find("tcp/"), std::string::npos) << *description;
    auto unknown = pair.client->describeTransport(pair.clientToServer + 1000);
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().code(), ErrorCode::NotFound);
}

TEST_P(UcxFabricDataTest, DestroyingThePeerReportsItLostWithinASecond) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open(GetParam()));
    pair.client.reset();
    auto lost = pair.serverEvents.waitForLost(1000ms);
    ASSERT_TRUE(lost);
    EXPECT_EQ(lost->first, pair.serverToClient);
    auto refused = pair.server->send(pair.serverToClient, 0, {}, bytes("anyone?"));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(refused.error().message().find("lost"), std::string::npos) << refused.error().message();
}

INSTANTIATE_TEST_SUITE_P(Transports, UcxFabricDataTest, ::testing::Values("tcp", "tcp,shm,self"),
                         [](const auto& instance) { return instance.param == "tcp" ? std::string("Tcp") : std::string("TcpSharedMemory"); });

// A server whose first message holds its progress thread until release(): a peer that stops
// answering, as a SIGSTOPped process does.
struct StalledServer {
    Recorder events;
    std::atomic<bool> holding{false};
    std::promise<void> held;
    std::promise<void> released;
    std::unique_ptr<Fabric> fabric;
    std::uint16_t port = 0;

    void open() {
        FabricCallbacks callbacks = events.callbacks();
        callbacks.onMessage = [this, waiting = released.get_future().share()](PeerId, std::uint16_t, std::span<const std::byte>, std::vector<std::byte>) {
            if (holding.exchange(true)) return;
            held.set_value();
            waiting.wait();
        };
        auto created = Fabric::create(FabricOptions{}, callbacks);
        ASSERT_TRUE(created) << created.error().describe();
        fabric = std::move(*created);
        auto bound = fabric->listen("127.0.0.1", 0);
        ASSERT_TRUE(bound) << bound.error().describe();
        port = *bound;
    }
    // Connects client, holds the server with a first message and queues a rendezvous it cannot answer.
    PeerId stallWithRendezvous(Fabric& client) {
        auto peer = client.connect("127.0.0.1", port);
        EXPECT_TRUE(peer) << peer.error().describe();
        if (!peer) return 0;
        EXPECT_TRUE(client.send(*peer, 0, {}, bytes("hold on")));
        EXPECT_EQ(held.get_future().wait_for(kTimeout), std::future_status::ready);
        EXPECT_TRUE(client.send(*peer, 1, {}, pattern(4u << 20, 1)));
        return *peer;
    }
    void release() { released.set_value(); }
};

// Our destructor gives the unanswered rendezvous the close grace, then force-closes: bounded.
TEST(UcxFabricTest, DestroyingIsBoundedWhenThePeerStopsAnswering) {
    StalledServer server;
    ASSERT_NO_FATAL_FAILURE(server.open());
    Recorder clientEvents;
    auto client = makeFabric(clientEvents);
    ASSERT_TRUE(client);
    ASSERT_NE(server.stallWithRendezvous(*client), 0u);
    const auto start = Clock::now();
    client.reset();
    const auto took = Clock::now() - start;
    server.release();
    EXPECT_LT(took, 2s);
    ASSERT_TRUE(server.events.waitForLost());
}

TEST(UcxFabricTest, ClosingAPeerThatStopsAnsweringSettlesItsSends) {
    StalledServer server;
    ASSERT_NO_FATAL_FAILURE(server.open());
    Recorder clientEvents;
    auto client = makeFabric(clientEvents);
    ASSERT_TRUE(client);
    const PeerId peer = server.stallWithRendezvous(*client);
    ASSERT_NE(peer, 0u);
    EXPECT_GE(client->pendingSends(), 1u);
    client->close(peer);
    EXPECT_TRUE(eventually([&] { return client->pendingSends() == 0; }, 3000ms)) << client->pendingSends() << " sends still pending";
    server.release();
}

TEST(UcxFabricTest, ClosingAPeerTellsTheOtherSideOnly) {
    Pair pair;
    ASSERT_NO_FATAL_FAILURE(pair.open());
    pair.client->close(pair.clientToServer);
    auto closed = pair.client->send(pair.clientToServer, 0, {}, {});
    ASSERT_FALSE(closed);
    EXPECT_EQ(closed.error().code(), ErrorCode::FailedPrecondition);
    ASSERT_TRUE(pair.serverEvents.waitForLost(1000ms));
    EXPECT_EQ(pair.clientEvents.lostCount(), 0u);
}

TEST(UcxFabricTest, ConnectingToAClosedPortFailsPromptly) {
    std::uint16_t closedPort = 0;
    {
        Recorder gone;
        auto listener = makeFabric(gone);
        ASSERT_TRUE(listener);
        auto port = listener->listen("127.0.0.1", 0);
        ASSERT_TRUE(port) << port.error().describe();
        closedPort = *port;
    }
    Recorder events;
    auto client = makeFabric(events);
    ASSERT_TRUE(client);
    const auto start = Clock::now();
    auto peer = client->connect("127.0.0.1", closedPort);
    const auto took = Clock::now() - start;
    ASSERT_FALSE(peer);
    EXPECT_LT(took, 3s);  // refused at once on loopback; well before the 5 s connect timeout
    EXPECT_EQ(peer.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(peer.error().message().find(fmt::format("127.0.0.1:{}", closedPort)), std::string::npos) << peer.error().message();
}

// A plain socket that listens but never answers UCX's connection protocol: connect() gives up at connectTimeout.
TEST(UcxFabricTest, ConnectingToAPeerThatNeverAnswersTimesOut) {
    const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(silent, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = 0;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ASSERT_EQ(::bind(silent, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    ASSERT_EQ(::listen(silent, 4), 0);
    ASSERT_EQ(::getsockname(silent, reinterpret_cast<sockaddr*>(&address), &length), 0);
    const std::uint16_t port = ntohs(address.sin_port);
    Recorder events;
    auto client = Fabric::create(FabricOptions{.transports = "tcp", .netDevices = {}, .connectTimeout = 300ms, .closeGrace = 200ms}, events.callbacks());
    ASSERT_TRUE(client) << client.error().describe();
    const auto start = Clock::now();
    auto peer = (*client)->connect("127.0.0.1", port);
    const auto took = Clock::now() - start;
    ::close(silent);
    ASSERT_FALSE(peer);
    EXPECT_EQ(peer.error().code(), ErrorCode::DeadlineExceeded);
    EXPECT_GE(took, 300ms);
    EXPECT_LT(took, 3s);
    EXPECT_NE(peer.error().message().find(fmt::format("127.0.0.1:{}", port)), std::string::npos) << peer.error().message();
}

TEST(UcxFabricTest, ListeningOnAPortInUseNamesTheAddress) {
    Recorder firstEvents;
    Recorder secondEvents;
    auto first = makeFabric(firstEvents);
    auto second = makeFabric(secondEvents);
    ASSERT_TRUE(first && second);
    auto port = first->listen("127.0.0.1", 0);
    ASSERT_TRUE(port) << port.error().describe();
    auto again = second->listen("127.0.0.1", *port);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(again.error().message().find(fmt::format("127.0.0.1:{}", *port)), std::string::npos) << again.error().message();
}

}  // namespace
}  // namespace sonolink::transport::ucx
