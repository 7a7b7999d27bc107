// The engine as a cluster's display host (Backends::clusterFeed): no link or self-test of its
// own; a session is the feed running, whose joined images go to the display (ctl thread).
#include <fmt/format.h>

#include "engine_impl.h"

namespace sonolink::engine {

// Idle -> Ready: nothing to bring up or test here, the hosts test their own links.
void Engine::Impl::openClusterSession() { setState(EngineState::Ready, fmt::format("display host of the cluster in {}", backends.clusterFeed->health().file)); }

void Engine::Impl::startClusterFeed() {
    const auto session = tally.beginSession();
    display->newSession(session);
    DisplayPipeline* shown = display.get();  // the feed stops (closeSession) before the display goes
    auto started = backends.clusterFeed->start([shown](JoinedImage image) { shown->showJoined(std::move(image)); });
    if (!started) {
        setState(EngineState::Error, started.error().message());
        return report(ErrorOrigin::Link, Severity::Error, started.error());
    }
    clusterFeedRunning = true;
    setState(EngineState::Streaming, "joining the acquisition hosts' partials");
}

void Engine::Impl::stopClusterFeed() {
    if (!clusterFeedRunning) return;
    backends.clusterFeed->stop();
    clusterFeedRunning = false;
}

}  // namespace sonolink::engine
