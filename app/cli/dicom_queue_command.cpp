// sonolink-cli dicom queue add | run | list | retry | recover | purge, and dicom commit: the store-and-forward
// queue from the command line, on the configured PACS nodes (dicom.nodes). `queue run` drains
// the queue (retries with back-off, storage commitment through our own listener) until every
// item is settled or a deadline; it can be killed at any point and run again.
#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "event_lines.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/file_transfer.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/pacs_station.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/util/log.h"

namespace sonolink::cli {
namespace {

using nlohmann::json;

struct QueueOptions {
    std::string configFile;
    std::string queueDirectory;  // overrides dicom.queue_directory
    std::string node;
    std::vector<std::string> files;
    std::vector<std::string> ids;
    bool untilSettled = false;
    double timeoutS = 0;
    double waitS = 30;
    std::optional<double> olderThanDays;  // purge: overrides dicom.queue_retention_days
    bool json = false;
    bool events = false;  // queue run: each event as a JSON line while it runs
};

std::atomic<bool> gStop{false};

int failWith(std::string_view command, const Error& e) { return reportError(fmt::format("dicom {}", command), e); }

Result<config::DicomSettings> loadDicom(const QueueOptions& o) {
    auto loaded = config::loadConfigFile(o.configFile);
    if (!loaded) return fail(std::move(loaded.error()));
    (void)log::configure(loaded->log);  // a bad log file is reported by config check; logging goes on to stderr
    auto dicom = loaded->dicom;
    if (!o.queueDirectory.empty()) dicom.queueDirectory = o.queueDirectory;
    return dicom;
}

json queueItemJson(const dicom::QueueItem& i) {
    return {{"id", i.id},
            {"node", i.node},
            {"state", dicom::toString(i.state)},
            {"sop_instance_uid", i.object.sopInstanceUid},
            {"sop_class_uid", i.object.sopClassUid},
            {"source_file", i.sourceFile},
            {"attempts", i.attempts},
            {"last_status", i.lastStatus},
            {"last_error", i.lastError},
            {"next_attempt_at_ms", i.nextAttemptAtMs},
            {"commitment_required", i.commitmentRequired},
            {"transaction_uid", i.transactionUid}};
}

void printItems(const std::vector<dicom::QueueItem>& items, bool asJson) {
    if (asJson) {
        json out = json::array();
        for (const auto& i : items) out.push_back(queueItemJson(i));
        std::cout << out.dump(2) << '\n';
        return;
    }
    for (const auto& i : items) {
        std::cout << fmt::format("{}  {:<9} {:<12} attempts {:<3} {}{}\n", i.id, dicom::toString(i.state), i.node, i.attempts, i.sourceFile,
                                 i.lastError.empty() ? "" : "\n        last error: " + i.lastError);
    }
}

int runAdd(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue add", settings.error());
    auto destination = app::destinationNamed(*settings, o.node);
    if (!destination) return failWith("queue add", destination.error());
    auto queue = dicom::StoreQueue::open(settings->queueDirectory, app::retryPolicyFrom(*settings));
    if (!queue) return failWith("queue add", queue.error());
    std::vector<dicom::QueueItem> added;
    for (const auto& file : o.files) {
        auto item = (*queue)->enqueue(file, o.node, destination->storageCommitment);
        if (!item) return failWith("queue add", item.error());  // the files before it stay queued
        added.push_back(*item);
    }
    printItems(added, o.json);
    return kExitOk;
}

int runList(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue list", settings.error());
    auto items = dicom::readQueue(settings->queueDirectory);
    if (!items) return failWith("queue list", items.error());
    printItems(*items, o.json);
    return kExitOk;
}

int runRetry(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue retry", settings.error());
    auto queue = dicom::StoreQueue::open(settings->queueDirectory, app::retryPolicyFrom(*settings));
    if (!queue) return failWith("queue retry", queue.error());
    for (const auto& id : o.ids) {
        if (auto ok = (*queue)->retry(id); !ok) return failWith("queue retry", ok.error());
    }
    return kExitOk;
}

// A queue that open() refuses (its database missing, damaged or short of records): the
// readable records kept, every copy they do not account for queued again for its own node
// (--node only for copies whose node is not known).
int runRecover(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue recover", settings.error());
    bool commitment = false;
    if (!o.node.empty()) {
        auto destination = app::destinationNamed(*settings, o.node);
        if (!destination) return failWith("queue recover", destination.error());
        commitment = destination->storageCommitment;
    }
    auto report = dicom::StoreQueue::recover(settings->queueDirectory, o.node, commitment, app::retryPolicyFrom(*settings));
    if (!report) return failWith("queue recover", report.error());
    if (o.json) {
        std::cout << json{{"kept", report->kept},
                          {"requeued", report->requeued},
                          {"set_aside", report->setAside},
                          {"bad_records", report->badRecords},
                          {"notes", report->notes}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << fmt::format("kept {} items; queued {} copies again, each for its node; {} kept aside\n", report->kept, report->requeued, report->setAside);
        for (const auto& note : report->notes) std::cout << "  " << note << '\n';
    }
    return kExitOk;
}

int runPurge(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue purge", settings.error());
    const double days = o.olderThanDays.value_or(settings->queueRetentionDays);
    if (!o.olderThanDays && days == 0) {
        return failWith("queue purge", Error(ErrorCode::InvalidArgument,
                                             "dicom.queue_retention_days is 0 (keep for ever): "
                                             "give --older-than DAYS to purge anyway"));
    }
    auto queue = dicom::StoreQueue::open(settings->queueDirectory, app::retryPolicyFrom(*settings));
    if (!queue) return failWith("queue purge", queue.error());
    auto forgotten = (*queue)->forgetSettledBefore(dicom::nowMs() - static_cast<std::int64_t>(days * 86'400'000));
    if (!forgotten) return failWith("queue purge", forgotten.error());
    if (o.json) {
        std::cout << json{{"forgotten", *forgotten}, {"older_than_days", days}, {"remaining", (*queue)->items().size()}}.dump(2) << '\n';
    } else {
        std::cout << fmt::format("forgot {} items settled over {:g} days ago; {} remain\n", *forgotten, days, (*queue)->items().size());
    }
    return kExitOk;
}

// A forwarder's event as a JSON line: what happened, to which item and node, and for a failure
// its code, its class (nothing listening, rejected, timeout, TLS, aborted, other) and its words.
json forwardEventJson(const dicom::ForwardEvent& e) {
    json out{{"node", e.node}};
    if (!e.item.empty()) out["item"] = e.item;
    if (e.kind == dicom::ForwardEvent::Kind::Stored) out["status"] = e.status;
    if (!e.transactionUid.empty()) out["transaction_uid"] = e.transactionUid;
    if (e.count > 1 || e.item.empty()) out["items"] = e.count;
    if (e.kind == dicom::ForwardEvent::Kind::CommitmentReported) out["not_committed"] = e.failedCount;
    if (e.error) {
        out["code"] = toString(e.error->code());
        out["fault"] = dicom::toString(dicom::classifyEchoFailure(*e.error));
        out["error"] = e.error->message();
        out["retry"] = e.retry;
    }
    return out;
}

json storeQueueCountsJson(const std::vector<dicom::QueueItem>& items) {
    json counts{{"queued", 0}, {"sending", 0}, {"sent", 0}, {"committed", 0}, {"failed", 0}};
    for (const auto& i : items) {
        auto& count = counts[std::string(dicom::toString(i.state))];
        count = count.get<int>() + 1;
    }
    return counts;
}

int runQueue(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("queue run", settings.error());
    auto uids = dicom::UidGenerator::create(settings->uidRoot.empty() ? std::nullopt : std::optional(settings->uidRoot));
    if (!uids) return failWith("queue run", uids.error());
    dicom::AuditTrail audit(app::auditFrom(*settings));
    EventLines events(o.events);
    auto forwarding = app::forwarderFrom(*settings);
    if (events.enabled()) forwarding.onEvent = [&events](const dicom::ForwardEvent& e) { events.print(dicom::toString(e.kind), forwardEventJson(e)); };
    auto station = dicom::PacsStation::open(
        {settings->queueDirectory, app::retryPolicyFrom(*settings), std::move(forwarding), settings->stationAeTitle, settings->listenPort}, std::move(*uids),
        &audit);
    if (!station) return failWith("queue run", station.error());
    auto* queue = &(*station)->queue();
    auto& forwarder = (*station)->forwarder();
    events.print("started", {{"queue", settings->queueDirectory}, {"counts", storeQueueCountsJson(queue->items())}});  // the queue is ours now
    // A signal ends the exchange in flight too (within about 100 ms), the queue left consistent:
    // an interrupted send is queued again.
    std::signal(SIGINT, [](int) {
        gStop = true;
        dicom::requestStop();
    });
    std::signal(SIGTERM, [](int) {
        gStop = true;
        dicom::requestStop();
    });
    const auto deadline = dicom::nowMs() + static_cast<std::int64_t>(o.timeoutS * 1000);
    while (!gStop) {
        forwarder.runOnce();
        if (o.untilSettled && queue->settled()) break;
        if (o.timeoutS > 0 && dicom::nowMs() >= deadline) break;
        // Sleep until something is due, in short steps (a report or a signal may come first).
        const auto next = forwarder.nextDueMs();
        for (auto now = dicom::nowMs(); !gStop && (!next || now < *next) && (o.timeoutS <= 0 || now < deadline); now = dicom::nowMs()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (o.untilSettled && queue->settled()) break;
        }
    }
    const auto items = queue->items();
    if (events.enabled()) {
        json listed = json::array();
        for (const auto& i : items) listed.push_back(queueItemJson(i));
        events.print("ended", {{"settled", queue->settled()}, {"counts", storeQueueCountsJson(items)}, {"items", std::move(listed)}});
    } else if (o.json) {
        printItems(items, true);
    } else {
        std::size_t counts[5] = {};
        for (const auto& i : items) ++counts[static_cast<int>(i.state)];
        std::cout << fmt::format("queue: {} queued, {} sending, {} sent, {} committed, {} failed\n", counts[0], counts[1], counts[2], counts[3], counts[4]);
    }
    const bool anyFailed = std::any_of(items.begin(), items.end(), [](const auto& i) { return i.state == dicom::ItemState::Failed; });
    if (anyFailed) return kExitFailed;
    return queue->settled() ? kExitOk : kExitUnavailable;
}

int runCommit(const QueueOptions& o) {
    auto settings = loadDicom(o);
    if (!settings) return failWith("commit", settings.error());
    auto destination = app::destinationNamed(*settings, o.node);
    if (!destination) return failWith("commit", destination.error());
    auto uids = dicom::UidGenerator::create(settings->uidRoot.empty() ? std::nullopt : std::optional(settings->uidRoot));
    if (!uids) return failWith("commit", uids.error());
    const dicom::CommitRequest request{destination->node,
                                       app::associationFrom(*settings),
                                       settings->stationAeTitle,
                                       settings->listenPort,
                                       uids->next(),
                                       std::chrono::milliseconds(static_cast<std::int64_t>(o.waitS * 1000))};
    auto report = dicom::commitFiles(request, o.files);
    if (!report) return failWith("commit", report.error());
    json out{{"transaction_uid", report->transactionUid}, {"committed", report->committed}, {"failed", json::array()}};
    for (const auto& [uid, reason] : report->failed) out["failed"].push_back({{"sop_instance_uid", uid}, {"reason", reason}});
    if (o.json) {
        std::cout << out.dump(2) << '\n';
    } else {
        for (const auto& uid : report->committed) std::cout << "committed " << uid << '\n';
        for (const auto& [uid, reason] : report->failed) std::cout << "NOT committed " << uid << ": " << reason << '\n';
    }
    return report->failed.empty() ? kExitOk : kExitFailed;
}

void addConfigOptions(CLI::App& cmd, QueueOptions& o) {
    cmd.add_option("--config", o.configFile, "Configuration file (JSON) with dicom.nodes")->required()->check(CLI::ExistingFile);
    cmd.add_option("--queue", o.queueDirectory, "Queue directory (overrides dicom.queue_directory)");
    cmd.add_flag("--json", o.json, "Print JSON");
}

}  // namespace

void addDicomQueueCommands(CLI::App& dicomCmd, int& exitCode) {
    auto* queueCmd = dicomCmd.add_subcommand("queue", "The persistent store-and-forward queue to PACS");
    queueCmd->require_subcommand(1);
    auto o = std::make_shared<QueueOptions>();

    auto* add = queueCmd->add_subcommand("add", "Queue DICOM files for a configured PACS node");
    addConfigOptions(*add, *o);
    add->add_option("--node", o->node, "The node's name in dicom.nodes")->required();
    add->add_option("FILES", o->files, "DICOM files")->required()->check(CLI::ExistingFile);
    add->callback([o, &exitCode] { exitCode = runAdd(*o); });

    auto* run = queueCmd->add_subcommand("run", "Send what is queued: retries with back-off, storage commitment");
    addConfigOptions(*run, *o);
    run->add_flag("--until-settled", o->untilSettled, "Stop when every item is sent (and committed where asked) or failed");
    run->add_option("--timeout", o->timeoutS, "Stop after this many seconds (0: no limit)")->check(CLI::Range(0.0, 1e7));
    run->add_flag("--events", o->events,
                  "Print each event as it happens as a line of JSON (started, stored, attempt_failed, association_failed, "
                  "commitment_requested, commitment_request_failed, commitment_reported, node_gone, ended)");
    run->callback([o, &exitCode] { exitCode = runQueue(*o); });

    auto* list = queueCmd->add_subcommand("list", "Each item's state, attempts and last error");
    addConfigOptions(*list, *o);
    list->callback([o, &exitCode] { exitCode = runList(*o); });

    auto* retry = queueCmd->add_subcommand("retry", "Queue failed items again");
    addConfigOptions(*retry, *o);
    retry->add_option("IDS", o->ids, "Item ids (from queue list)")->required();
    retry->callback([o, &exitCode] { exitCode = runRetry(*o); });

    auto* recover = queueCmd->add_subcommand("recover", "Repair a queue whose database is lost or damaged: queue its copies again for a node");
    addConfigOptions(*recover, *o);
    recover->add_option("--node", o->node,
                        "For copies whose node is not known (queued before SonoLink kept it beside each copy): "
                        "queue them for this node (without it they are kept aside)");
    recover->callback([o, &exitCode] { exitCode = runRecover(*o); });

    auto* purge = queueCmd->add_subcommand("purge", "Forget settled items (committed, or sent to nodes without storage commitment) and delete their copies");
    addConfigOptions(*purge, *o);
    purge->add_option("--older-than", o->olderThanDays, "Days since the item settled (default: dicom.queue_retention_days)")->check(CLI::Range(0.0, 3650.0));
    purge->callback([o, &exitCode] { exitCode = runPurge(*o); });

    auto* commit = dicomCmd.add_subcommand("commit", "Ask a node to commit stored objects (Storage Commitment) and wait for its report");
    addConfigOptions(*commit, *o);
    commit->add_option("--node", o->node, "The node's name in dicom.nodes")->required();
    commit->add_option("--wait", o->waitS, "Seconds to wait for the report")->check(CLI::Range(1.0, 3600.0));
    commit->add_option("FILES", o->files, "The DICOM files that were stored")->required()->check(CLI::ExistingFile);
    commit->callback([o, &exitCode] { exitCode = runCommit(*o); });
}

}  // namespace sonolink::cli
