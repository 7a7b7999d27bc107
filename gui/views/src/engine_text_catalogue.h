// engineTextCatalogue(): the engine's sentence patterns that engineText() translates, each
// marked for lupdate (context sonolink::gui::EngineText). Private to sonolink_gui_views.
// Thread contract: a constant list.
#pragma once

#include <vector>

namespace sonolink::gui {
[[nodiscard]] const std::vector<const char*>& engineTextCatalogue();
}
