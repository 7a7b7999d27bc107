// sonolink-cli archive queue add | run | list | retry | reset: the persistent upload queue from the
// command line (archive.queue_directory). `queue run` uploads what is due, verifies it, applies
// the retention rule and audits each step until every item is settled or a deadline; it can be
// killed at any point (SIGKILL included) and run again: each item still ends as one object.
#include <csignal>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "event_lines.h"
#include "exit_codes.h"
#include "sonolink/app/archive_setup.h"
#include "sonolink/archive/archive_uploader.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::cli {
namespace {

using nlohmann::json;

struct QueueOptions {
    std::string configFile;
    std::vector<std::string> files;
    std::vector<std::int64_t> ids;
    std::string keyPrefix;
    std::string kind = "file";
    bool untilSettled = false;
    double timeoutS = 0;
    bool json = false;
    bool events = false;  // run: each event as a JSON line while it runs
};

std::atomic<bool> gStop{false};

int failWith(std::string_view command, const Error& e) { return reportError(fmt::format("archive queue {}", command), e); }

json itemJson(const archive::ArchiveItem& i) {
    return {{"id", i.id},
            {"file", i.file},
            {"url", i.object.url()},
            {"kind", i.kind},
            {"state", archive::toString(i.state)},
            {"attempts", i.attempts},
            {"size_bytes", i.sizeBytes},
            {"crc32c", i.crc32c},
            {"enqueued_at_ms", i.enqueuedAtMs},
            {"next_attempt_at_ms", i.nextAttemptAtMs},
            {"verified_at_ms", i.verifiedAtMs},
            {"local_deleted_at_ms", i.localDeletedAtMs},
            {"last_error", i.lastError}};
}

void printItems(const std::vector<archive::ArchiveItem>& items, bool asJson) {
    if (asJson) {
        json out = json::array();
        for (const auto& i : items) out.push_back(itemJson(i));
        std::cout << out.dump(2) << '\n';
        return;
    }
    for (const auto& i : items) {
        std::cout << fmt::format("{:>6}  {:<9} attempts {:<3} {} -> {}{}{}\n", i.id, archive::toString(i.state), i.attempts, i.file, i.object.url(),
                                 i.localDeletedAtMs > 0   ? " (local copy deleted)"
                                 : i.localDeletedAtMs < 0 ? " (local copy kept: changed since)"
                                                          : "",
                                 i.lastError.empty() ? "" : "\n        last error: " + i.lastError);
    }
}

Result<config::ArchiveSettings> load(const QueueOptions& o) {
    auto loaded = config::loadConfigFile(o.configFile);
    if (!loaded) return fail(std::move(loaded.error()));
    return loaded->archive;
}

int runAdd(const QueueOptions& o) {
    auto settings = load(o);
    if (!settings) return failWith("add", settings.error());
    auto queue = archive::ArchiveQueue::open(settings->queueDirectory, app::archiveRetryFrom(*settings));
    if (!queue) return failWith("add", queue.error());
    std::vector<archive::ArchiveItem> added;
    for (const auto& file : o.files) {
        auto where = app::archiveLocation(*settings, o.keyPrefix + std::filesystem::path(file).filename().string());
        if (!where) return failWith("add", where.error());
        auto item = (*queue)->enqueue(file, *where, o.kind, archive::epochMs());
        if (!item) return failWith("add", item.error());  // the files before it stay queued
        added.push_back(*item);
    }
    printItems(added, o.json);
    return kExitOk;
}

int runList(const QueueOptions& o) {
    auto settings = load(o);
    if (!settings) return failWith("list", settings.error());
    auto items = archive::readArchiveQueue(settings->queueDirectory);
    if (!items) return failWith("list", items.error());
    printItems(*items, o.json);
    return kExitOk;
}

int runRetry(const QueueOptions& o) {
    auto settings = load(o);
    if (!settings) return failWith("retry", settings.error());
    auto queue = archive::ArchiveQueue::open(settings->queueDirectory, app::archiveRetryFrom(*settings));
    if (!queue) return failWith("retry", queue.error());
    for (auto id : o.ids) {
        if (auto ok = (*queue)->retry(id); !ok) return failWith("retry", ok.error());
    }
    return kExitOk;
}

// A new, empty queue on purpose (the database moved aside, not deleted): the way out when the
// queue's database is lost and no backup can restore it.
int runReset(const QueueOptions& o) {
    auto settings = load(o);
    if (!settings) return failWith("reset", settings.error());
    auto aside = archive::ArchiveQueue::reset(settings->queueDirectory, archive::epochMs());
    if (!aside) return failWith("reset", aside.error());
    std::cout << fmt::format("archive queue {}: a new, empty queue starts at the next use; the old database (if any) is kept as {}\n", settings->queueDirectory,
                             *aside);
    return kExitOk;
}

json archivePassEventJson(const archive::PassEvent& e) {
    json out{{"item", e.item}, {"url", e.url}, {"file", e.file}};
    if (e.kind == archive::PassEvent::Kind::Verified || e.kind == archive::PassEvent::Kind::LocalDeleted) {
        out["size_bytes"] = e.bytes;
        out["crc32c"] = e.crc32c;
    }
    if (e.error) {
        out["code"] = toString(e.error->code());
        out["error"] = e.error->message();
    }
    if (e.kind == archive::PassEvent::Kind::UploadFailed || e.kind == archive::PassEvent::Kind::LocalKept) out["retry"] = e.retry;
    return out;
}

json archiveCountsJson(const std::vector<archive::ArchiveItem>& items) {
    json counts{{"queued", 0}, {"uploading", 0}, {"verified", 0}, {"failed", 0}};
    for (const auto& i : items) {
        auto& count = counts[std::string(archive::toString(i.state))];
        count = count.get<int>() + 1;
    }
    return counts;
}

// The queue as the run left it: the last event, the items as JSON, or the counts in words; the
// exit code: failed items, or unsettled ones (a deadline), or none.
int endOfRun(const archive::ArchiveQueue& queue, const QueueOptions& o, EventLines& events) {
    const auto items = queue.items();
    if (events.enabled()) {
        json listed = json::array();
        for (const auto& i : items) listed.push_back(itemJson(i));
        events.print("ended", {{"settled", queue.settled()}, {"counts", archiveCountsJson(items)}, {"items", std::move(listed)}});
    } else if (o.json) {
        printItems(items, true);
    } else {
        const auto counts = archiveCountsJson(items);
        std::cout << fmt::format("archive queue: {} queued, {} uploading, {} verified, {} failed\n", counts["queued"].get<int>(),
                                 counts["uploading"].get<int>(), counts["verified"].get<int>(), counts["failed"].get<int>());
    }
    if (std::any_of(items.begin(), items.end(), [](const auto& i) { return i.state == archive::ArchiveState::Failed; })) return kExitFailed;
    return queue.settled() ? kExitOk : kExitUnavailable;
}

int runQueue(const QueueOptions& o) {
    auto settings = load(o);
    if (!settings) return failWith("run", settings.error());
    auto queue = archive::ArchiveQueue::open(settings->queueDirectory, app::archiveRetryFrom(*settings));
    if (!queue) return failWith("run", queue.error());
    auto client = app::makeArchiveClient(*settings);
    if (!client) return failWith("run", client.error());
    auto audit = archive::ArchiveAudit::open(settings->auditFile);
    if (!audit) return failWith("run", audit.error());
    std::signal(SIGINT, [](int) { gStop = true; });
    std::signal(SIGTERM, [](int) { gStop = true; });
    EventLines events(o.events);
    archive::PassSettings pass{settings->journalDirectory, settings->retentionDays, 16, {}};
    if (events.enabled()) pass.onEvent = [&events](const archive::PassEvent& e) { events.print(archive::toString(e.kind), archivePassEventJson(e)); };
    events.print("started", {{"queue", settings->queueDirectory}, {"counts", archiveCountsJson((*queue)->items())}});  // the queue is ours now
    const auto deadline = archive::epochMs() + static_cast<std::int64_t>(o.timeoutS * 1000);
    while (!gStop) {
        auto report = archive::runArchivePass(**queue, **client, audit->get(), pass, &gStop);
        if (!report) return failWith("run", report.error());
        if (o.untilSettled && (*queue)->settled()) break;
        if (o.timeoutS > 0 && archive::epochMs() >= deadline) break;
        const auto next = (*queue)->nextDueMs();
        for (auto now = archive::epochMs(); !gStop && (!next || now < *next) && (o.timeoutS <= 0 || now < deadline); now = archive::epochMs()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return endOfRun(**queue, o, events);
}

}  // namespace

void addArchiveQueueCommands(CLI::App& archiveCmd, int& exitCode) {
    auto* queueCmd = archiveCmd.add_subcommand("queue", "The persistent upload queue: finished recordings and studies to the archive");
    queueCmd->require_subcommand(1);
    auto o = std::make_shared<QueueOptions>();
    auto common = [&](CLI::App& cmd) {
        cmd.add_option("--config", o->configFile, "Configuration file (JSON) with the archive section")->required()->check(CLI::ExistingFile);
        cmd.add_flag("--json", o->json, "Print JSON");
    };
    auto* add = queueCmd->add_subcommand("add", "Queue files for the archive (each under archive.bucket and archive.prefix by its name)");
    common(*add);
    add->add_option("--key-prefix", o->keyPrefix, "Put before each file's name in its key (after archive.prefix)");
    add->add_option("--kind", o->kind, "What the files are: recording, study or file")->check(CLI::IsMember({"recording", "study", "file"}));
    add->add_option("FILES", o->files, "Files")->required()->check(CLI::ExistingFile);
    add->callback([o, &exitCode] { exitCode = runAdd(*o); });
    auto* run = queueCmd->add_subcommand("run", "Upload what is due: verified, audited, retried with back-off, local copies deleted by retention");
    common(*run);
    run->add_flag("--until-settled", o->untilSettled, "Stop when every item is verified or failed");
    run->add_flag("--events", o->events,
                  "Print each event as it happens as a line of JSON (started, verified, upload_failed, local_deleted, "
                  "local_kept, ended)");
    run->add_option("--timeout", o->timeoutS, "Stop after this many seconds (0: no limit)")->check(CLI::Range(0.0, 1e7));
    run->callback([o, &exitCode] { exitCode = runQueue(*o); });
    auto* list = queueCmd->add_subcommand("list", "Each item's state, attempts and last error");
    common(*list);
    list->callback([o, &exitCode] { exitCode = runList(*o); });
    auto* retry = queueCmd->add_subcommand("retry", "Queue failed items again");
    common(*retry);
    retry->add_option("IDS", o->ids, "Item ids (from queue list)")->required();
    retry->callback([o, &exitCode] { exitCode = runRetry(*o); });
    auto* reset = queueCmd->add_subcommand("reset", "Start a new, empty queue deliberately (its database lost or damaged): the old one moved aside");
    common(*reset);
    reset->callback([o, &exitCode] { exitCode = runReset(*o); });
}

}  // namespace sonolink::cli
