// engineText(): a sentence the engine wrote in English (a self-test figure, limit or advice, a
// station check's finding, an error for the status bar) in the user's language. The sentence is
// matched against the catalogue of the engine's sentence patterns (engine_text_catalogue.cpp:
// each the engine's text with %1..%n where it puts values), the pattern translated (context
// sonolink::gui::EngineText), and each value put back, itself translated where it is a sentence of
// the catalogue. A sentence the catalogue does not know comes back as it is. Thread contract: any
// thread (QCoreApplication::translate is thread-safe); the bridge calls it on the GUI thread.
#pragma once

#include <QString>
#include <QStringList>

namespace sonolink::gui {

[[nodiscard]] QString engineText(const QString& english);

// The catalogue's patterns, as written in English (for the tests: each is matched by itself).
[[nodiscard]] const QStringList& engineTextPatterns();

}  // namespace sonolink::gui
