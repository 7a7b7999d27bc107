// From configuration to what the link needs: the Configure message sent to the front end
// (probe, acquisition, payload kind) and the ring geometry of the link. The composition root
// owns this mapping so that core and transport never see AppConfig's JSON-shaped sections.
// Thread contract: pure functions.
#pragma once

#include "sonolink/config/app_config.h"
#include "sonolink/transport/protocol/control_messages.h"

namespace sonolink::app {

[[nodiscard]] transport::Configure configureFrom(const config::AppConfig& config);

}  // namespace sonolink::app
