#include "dock_presenters.h"

#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/plot/link_health_panel.h"
#include "sonolink/gui/plot/rf_panel.h"
#include "sonolink/gui/views/archive_view.h"
#include "sonolink/gui/views/hosts_panel.h"
#include "sonolink/gui/views/queue_view.h"

namespace sonolink::app {

LinkHealthPresenter::LinkHealthPresenter(gui::EngineBridge& bridge, gui::LinkHealthPanel& panel) : QObject(&panel) {
    connect(&bridge.display(), &gui::DisplayFeed::healthSampled, &panel, &gui::LinkHealthPanel::addSample);
}

RfPresenter::RfPresenter(gui::EngineBridge& bridge, gui::RfPanel& panel) : QObject(&panel) {
    auto& feed = bridge.display();
    connect(&feed, &gui::DisplayFeed::rfReady, &panel, &gui::RfPanel::showTraces);
    connect(&panel, &gui::RfPanel::channelsChosen, &feed, &gui::DisplayFeed::setRfChannels);
}

QueuePresenter::QueuePresenter(gui::EngineBridge& bridge, gui::QueueView& view) : QObject(&view) {
    connect(&bridge, &gui::EngineBridge::queueChanged, &view, &gui::QueueView::showQueue);
    connect(&view, &gui::QueueView::retryRequested, &bridge, &gui::EngineBridge::retryQueueItem);
    connect(&view, &gui::QueueView::withdrawRequested, &bridge, &gui::EngineBridge::withdrawQueueItem);
    view.showQueue(bridge.queue());
}

HostsPresenter::HostsPresenter(gui::EngineBridge& bridge, gui::HostsPanel& panel) : QObject(&panel) {
    connect(&bridge.display(), &gui::DisplayFeed::clusterSampled, &panel, &gui::HostsPanel::showHosts);
}

ArchivePresenter::ArchivePresenter(gui::EngineBridge& bridge, gui::ArchiveView& view) : QObject(&view) {
    connect(&bridge, &gui::EngineBridge::archiveChanged, &view, &gui::ArchiveView::showArchive);
    connect(&view, &gui::ArchiveView::retryRequested, &bridge, &gui::EngineBridge::retryArchiveItem);
    view.showArchive(bridge.archive(), bridge.hasArchive());
}

}  // namespace sonolink::app
