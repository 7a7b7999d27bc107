// sonolink-cli archive mb | put | get | ls | head | rm: the S3-compatible archive from the command
// line, on the configured endpoint (archive.*), any setting overridable by an option. Long
// transfers print a progress line a second on stderr; --json prints the result as JSON.
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/archive_setup.h"
#include "sonolink/archive/archive_audit.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::cli {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct ArchiveOptions {
    std::string configFile;
    std::string endpoint, region, caFile, bucket;
    std::optional<std::int64_t> partSizeBytes;
    std::optional<int> parallel;
    std::string first, second;  // the command's operands
    bool json = false;
    bool quiet = false;
};

std::atomic<bool> gCancel{false};

Result<config::ArchiveSettings> loadArchive(const ArchiveOptions& o) {
    std::vector<config::ConfigOverride> overrides;
    auto text = [](const std::string& s) { return json(s).dump(); };
    if (!o.endpoint.empty()) overrides.push_back({"/archive/endpoint", text(o.endpoint), "--endpoint"});
    if (!o.region.empty()) overrides.push_back({"/archive/region", text(o.region), "--region"});
    if (!o.caFile.empty()) overrides.push_back({"/archive/ca_file", text(o.caFile), "--ca-file"});
    if (!o.bucket.empty()) overrides.push_back({"/archive/bucket", text(o.bucket), "--bucket"});
    if (o.partSizeBytes) overrides.push_back({"/archive/part_size_bytes", std::to_string(*o.partSizeBytes), "--part-size"});
    if (o.parallel) overrides.push_back({"/archive/parallel_requests", std::to_string(*o.parallel), "--parallel"});
    auto loaded = config::loadConfig(o.configFile, overrides);
    if (!loaded) return fail(std::move(loaded.error()));
    return loaded->archive;
}

json objectJson(const archive::ObjectInfo& i) {
    json j{{"key", i.key}, {"size_bytes", i.sizeBytes}, {"etag", i.etag}, {"last_modified", i.lastModified}};
    if (!i.metadata.empty()) j["metadata"] = i.metadata;
    return j;
}

// A line a second on stderr: "put s3://b/k: 512.0 of 2048.0 MiB (25 %), 410.3 MB/s".
class ProgressPrinter {
public:
    ProgressPrinter(std::string what, bool quiet) : what_(std::move(what)), quiet_(quiet), start_(Clock::now()), last_(start_) {}
    void operator()(const archive::TransferProgress& p) {
        if (quiet_) return;
        std::lock_guard lock(mutex_);
        const auto now = Clock::now();
        if (now - last_ < std::chrono::seconds(1) && p.bytesDone < p.bytesTotal) return;
        last_ = now;
        const double s = std::chrono::duration<double>(now - start_).count();
        std::cerr << fmt::format("{}: {:.1f} of {:.1f} MiB ({:.0f} %), {:.1f} MB/s\n", what_, p.bytesDone / 1048576.0, p.bytesTotal / 1048576.0,
                                 p.bytesTotal ? 100.0 * p.bytesDone / p.bytesTotal : 100.0, s > 0 ? p.bytesDone / s / 1e6 : 0.0);
    }

private:
    std::string what_;
    bool quiet_;
    std::mutex mutex_;
    Clock::time_point start_, last_;
};

struct Session {
    config::ArchiveSettings settings;
    std::unique_ptr<archive::S3Client> client;
    std::unique_ptr<archive::ArchiveAudit> audit;  // uploads, downloads and deletions
};

Result<Session> open(const ArchiveOptions& o) {
    auto settings = loadArchive(o);
    if (!settings) return fail(std::move(settings.error()));
    auto client = app::makeArchiveClient(*settings);
    if (!client) return fail(std::move(client.error()));
    auto audit = archive::ArchiveAudit::open(settings->auditFile);
    if (!audit) return fail(std::move(audit.error()));
    return Session{std::move(*settings), std::move(*client), std::move(*audit)};
}

void onSignal(int) { gCancel = true; }

// Each subcommand on an open session: its result on stdout (JSON with --json), or its failure
// through reportError under `name`. Transfers are recorded in the audit, done or not.
int archiveMakeBucket(Session& session, const std::string& name, const ArchiveOptions& o) {
    auto where = app::archiveLocation(session.settings, o.first);
    if (!where) return reportError(name, where.error());
    if (auto ok = session.client->createBucket(where->bucket); !ok) return reportError(name, ok.error());
    std::cout << (o.json ? json{{"bucket", where->bucket}}.dump(2) : "made bucket " + where->bucket) << '\n';
    return kExitOk;
}

// `started`: when the session was open, the start of the transfer's time and rate.
int archivePutFile(Session& session, const std::string& name, const ArchiveOptions& o, Clock::time_point started) {
    auto where = app::archiveLocation(session.settings, o.second.empty() ? std::filesystem::path(o.first).filename().string() : o.second);
    if (!where) return reportError(name, where.error());
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    ProgressPrinter progress("put " + where->url(), o.quiet);
    archive::UploadOptions options;
    options.journalDirectory = session.settings.journalDirectory;
    auto done = session.client->uploadFile(o.first, *where, options, {std::ref(progress), &gCancel});
    (void)session.audit->record({"upload", where->url(), o.first, done ? done->object.sizeBytes : 0, done ? fmt::format("{:08x}", done->crc32c) : "",
                                 done.has_value(), done ? "" : done.error().message()});
    if (!done) return reportError(name, done.error());
    const double s = std::chrono::duration<double>(Clock::now() - started).count();
    if (o.json) {
        std::cout << json{{"url", where->url()},
                          {"object", objectJson(done->object)},
                          {"crc32c", fmt::format("{:08x}", done->crc32c)},
                          {"parts", done->parts},
                          {"parts_resumed", done->partsResumed},
                          {"retries", done->retries},
                          {"seconds", s},
                          {"bytes_per_second", s > 0 ? done->object.sizeBytes / s : 0.0}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << fmt::format("put {} -> {}: {} bytes, CRC-32C {:08x} checked, {} parts ({} resumed), {} retries, {:.2f} s\n", o.first, where->url(),
                                 done->object.sizeBytes, done->crc32c, done->parts, done->partsResumed, done->retries, s);
    }
    return kExitOk;
}

int archiveGetFile(Session& session, const std::string& name, const ArchiveOptions& o, Clock::time_point started) {
    auto where = app::archiveLocation(session.settings, o.first);
    if (!where) return reportError(name, where.error());
    const std::string file = o.second.empty() ? std::filesystem::path(where->key).filename().string() : o.second;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    ProgressPrinter progress("get " + where->url(), o.quiet);
    auto done = session.client->downloadFile(*where, file, {std::ref(progress), &gCancel});
    (void)session.audit->record({"download", where->url(), file, done ? done->object.sizeBytes : 0, done ? fmt::format("{:08x}", done->crc32c) : "",
                                 done.has_value(), done ? "" : done.error().message()});
    if (!done) return reportError(name, done.error());
    const double s = std::chrono::duration<double>(Clock::now() - started).count();
    if (o.json) {
        std::cout << json{{"url", where->url()},
                          {"file", file},
                          {"object", objectJson(done->object)},
                          {"crc32c", fmt::format("{:08x}", done->crc32c)},
                          {"crc32c_checked", done->crcChecked},
                          {"seconds", s},
                          {"bytes_per_second", s > 0 ? done->object.sizeBytes / s : 0.0}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << fmt::format("get {} -> {}: {} bytes, CRC-32C {:08x} {}, {:.2f} s\n", where->url(), file, done->object.sizeBytes, done->crc32c,
                                 done->crcChecked ? "checked" : "(the object carries none to check)", s);
    }
    return kExitOk;
}

int archiveListObjects(Session& session, const std::string& name, const ArchiveOptions& o) {
    auto where = app::archiveLocation(session.settings, o.first);
    if (!where) return reportError(name, where.error());
    auto objects = session.client->list(*where);
    if (!objects) return reportError(name, objects.error());
    if (o.json) {
        json out = json::array();
        for (const auto& i : *objects) out.push_back(objectJson(i));
        std::cout << out.dump(2) << '\n';
    } else {
        for (const auto& i : *objects) std::cout << fmt::format("{:>14}  {}  {}\n", i.sizeBytes, i.lastModified, i.key);
    }
    return kExitOk;
}

int archiveHeadObject(Session& session, const std::string& name, const ArchiveOptions& o) {
    auto where = app::archiveLocation(session.settings, o.first);
    if (!where) return reportError(name, where.error());
    auto info = session.client->head(*where);
    if (!info) return reportError(name, info.error());
    if (o.json) {
        std::cout << objectJson(*info).dump(2) << '\n';
    } else {
        std::cout << fmt::format("{}: {} bytes, ETag {}, modified {}\n", where->url(), info->sizeBytes, info->etag, info->lastModified);
        for (const auto& [k, v] : info->metadata) std::cout << fmt::format("  {}: {}\n", k, v);
    }
    return kExitOk;
}

int archiveRemoveObject(Session& session, const std::string& name, const ArchiveOptions& o) {
    auto where = app::archiveLocation(session.settings, o.first);
    if (!where) return reportError(name, where.error());
    auto removed = session.client->remove(*where);
    (void)session.audit->record({"delete", where->url(), "", 0, "", removed.has_value(), removed ? "" : removed.error().message()});
    if (!removed) return reportError(name, removed.error());
    std::cout << (o.json ? json{{"removed", where->url()}}.dump(2) : "removed " + where->url()) << '\n';
    return kExitOk;
}

// Opens the session (configuration, client, audit) and runs the subcommand on it.
int run(const std::string& command, const ArchiveOptions& o) {
    const std::string name = "archive " + command;
    auto session = open(o);
    if (!session) return reportError(name, session.error());
    const auto started = Clock::now();
    if (command == "mb") return archiveMakeBucket(*session, name, o);
    if (command == "put") return archivePutFile(*session, name, o, started);
    if (command == "get") return archiveGetFile(*session, name, o, started);
    if (command == "ls") return archiveListObjects(*session, name, o);
    if (command == "head") return archiveHeadObject(*session, name, o);
    return archiveRemoveObject(*session, name, o);  // rm
}

void addCommonOptions(CLI::App& cmd, ArchiveOptions& o) {
    cmd.add_option("--config", o.configFile, "Configuration file (JSON) with the archive section")->check(CLI::ExistingFile);
    cmd.add_option("--endpoint", o.endpoint, "S3 endpoint, http(s)://host:port (overrides archive.endpoint)");
    cmd.add_option("--region", o.region, "Signing region (overrides archive.region)");
    cmd.add_option("--ca-file", o.caFile, "PEM file of the CAs to trust (overrides archive.ca_file)");
    cmd.add_option("--bucket", o.bucket, "Bucket for plain keys (overrides archive.bucket)");
    cmd.add_flag("--json", o.json, "Print JSON");
}

}  // namespace

void addArchiveCommand(CLI::App& app, int& exitCode) {
    auto* archiveCmd = app.add_subcommand("archive", "S3-compatible archive: make buckets, upload, download, list, inspect and remove objects");
    archiveCmd->require_subcommand(1);
    addArchiveQueueCommands(*archiveCmd, exitCode);
    auto o = std::make_shared<ArchiveOptions>();
    struct Spec {
        const char* name;
        const char* help;
        const char* first;
        const char* firstHelp;
        bool firstRequired;
        const char* second;
        const char* secondHelp;
    };
    const Spec specs[] = {
        {"mb", "Make a bucket (one you own already is fine)", "BUCKET", "s3://bucket", true, nullptr, nullptr},
        {"put", "Upload a file (multipart above archive.part_size_bytes, resumable; size and CRC-32C checked after)", "FILE", "Local file", true, "DEST",
         "s3://bucket/key, or a key under archive.bucket and archive.prefix (default: the file's name)"},
        {"get", "Download an object by ranges in parallel (CRC-32C checked where it carries one)", "SOURCE", "s3://bucket/key or a key", true, "FILE",
         "Local file (default: the key's last part)"},
        {"ls", "List the objects under a prefix", "PREFIX", "s3://bucket/prefix or a prefix under archive.bucket", false, nullptr, nullptr},
        {"head", "An object's size, ETag, time and metadata", "OBJECT", "s3://bucket/key or a key", true, nullptr, nullptr},
        {"rm", "Remove an object", "OBJECT", "s3://bucket/key or a key", true, nullptr, nullptr},
    };
    for (const auto& spec : specs) {
        auto* cmd = archiveCmd->add_subcommand(spec.name, spec.help);
        addCommonOptions(*cmd, *o);
        auto* first = cmd->add_option(spec.first, o->first, spec.firstHelp);
        if (spec.firstRequired) first->required();
        if (spec.second) cmd->add_option(spec.second, o->second, spec.secondHelp);
        if (std::string_view(spec.name) == "put" || std::string_view(spec.name) == "get") {
            cmd->add_option("--part-size", o->partSizeBytes, "Bytes a part or range (overrides archive.part_size_bytes)");
            cmd->add_option("--parallel", o->parallel, "Requests in flight (overrides archive.parallel_requests)");
            cmd->add_flag("--quiet", o->quiet, "No progress lines");
        }
        const std::string name = spec.name;
        cmd->callback([o, name, &exitCode] { exitCode = run(name, *o); });
    }
}

}  // namespace sonolink::cli
