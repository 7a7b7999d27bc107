// The presenters of the console's engineer docks, one per dock: each wires its view to the bridge
// (what the engine says, shown; what the engineer asks, sent) and is owned by its view, so a dock
// is built, shown and tested on its own. The link's health strip charts (the display feed's
// samples), the RF traces (the channels chosen -> the feed, their traces back), the PACS queue
// and the archive's upload queue (shown at once, then at every change; retry and withdraw), and a
// cluster's acquisition hosts.
// Thread contract: GUI thread only.
#pragma once

#include <QObject>

namespace sonolink::gui {
class EngineBridge;
class LinkHealthPanel;
class RfPanel;
class QueueView;
class ArchiveView;
class HostsPanel;
}  // namespace sonolink::gui

namespace sonolink::app {

class LinkHealthPresenter : public QObject {
    Q_OBJECT
public:
    LinkHealthPresenter(gui::EngineBridge& bridge, gui::LinkHealthPanel& panel);
};

class RfPresenter : public QObject {
    Q_OBJECT
public:
    RfPresenter(gui::EngineBridge& bridge, gui::RfPanel& panel);
};

class QueuePresenter : public QObject {
    Q_OBJECT
public:
    QueuePresenter(gui::EngineBridge& bridge, gui::QueueView& view);
};

// A cluster's display host: its acquisition hosts, from the display feed's samples.
class HostsPresenter : public QObject {
    Q_OBJECT
public:
    HostsPresenter(gui::EngineBridge& bridge, gui::HostsPanel& panel);
};

class ArchivePresenter : public QObject {
    Q_OBJECT
public:
    ArchivePresenter(gui::EngineBridge& bridge, gui::ArchiveView& view);
};

}  // namespace sonolink::app
