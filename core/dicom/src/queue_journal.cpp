#include "queue_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace sonolink::dicom {
namespace {

using nlohmann::json;

std::optional<ItemState> stateFrom(std::string_view text) {
    for (auto s : {ItemState::Queued, ItemState::Sending, ItemState::Sent, ItemState::Committed, ItemState::Failed}) {
        if (toString(s) == text) return s;
    }
    return std::nullopt;
}

// One line; "sending" is never written: after a restart it means what "queued" means.
std::string toLine(const QueueItem& i) {
    const auto state = i.state == ItemState::Sending ? ItemState::Queued : i.state;
    return json{{"id", i.id}, {"node", i.node}, {"file", i.object.file}, {"sop_class_uid", i.object.sopClassUid},
                {"sop_instance_uid", i.object.sopInstanceUid}, {"transfer_syntax_uid", i.object.transferSyntaxUid},
                {"study_instance_uid", i.object.studyInstanceUid}, {"patient_id", i.object.patientId},
                {"patient_name", i.object.patientName}, {"source_file", i.sourceFile}, {"state", toString(state)}, {"attempts", i.attempts},
                {"enqueued_at_ms", i.enqueuedAtMs}, {"next_attempt_at_ms", i.nextAttemptAtMs}, {"sent_at_ms", i.sentAtMs},
                {"committed_at_ms", i.committedAtMs}, {"last_status", i.lastStatus}, {"last_error", i.lastError},
                {"commitment_required", i.commitmentRequired}, {"transaction_uid", i.transactionUid},
                {"commitment_requested_at_ms", i.commitmentRequestedAtMs}}
               .dump() +
           "\n";
}

Result<QueueItem> fromLine(std::string_view line, const std::string& where) {
    try {
        const auto j = json::parse(line);
        QueueItem i;
        i.id = j.at("id").get<std::string>();
        const bool idOk = !i.id.empty() && i.id.size() <= 18 && i.id.find_first_not_of("0123456789") == std::string::npos;
        if (!idOk) return fail(ErrorCode::DataLoss, fmt::format("{}: not an item id: {}", where, j.at("id").dump()));
        i.node = j.at("node").get<std::string>();
        i.object = {j.at("file").get<std::string>(), j.at("sop_class_uid").get<std::string>(),
                    j.at("sop_instance_uid").get<std::string>(), j.at("transfer_syntax_uid").get<std::string>(),
                    j.at("study_instance_uid").get<std::string>(), j.at("patient_id").get<std::string>(),
                    j.at("patient_name").get<std::string>()};
        i.sourceFile = j.at("source_file").get<std::string>();
        const auto state = stateFrom(j.at("state").get<std::string>());
        if (!state) return fail(ErrorCode::DataLoss, fmt::format("{}: unknown state {}", where, j.at("state").dump()));
        i.state = *state;
        i.attempts = j.at("attempts").get<int>();
        i.enqueuedAtMs = j.at("enqueued_at_ms").get<std::int64_t>();
        i.nextAttemptAtMs = j.at("next_attempt_at_ms").get<std::int64_t>();
        i.sentAtMs = j.at("sent_at_ms").get<std::int64_t>();
        i.committedAtMs = j.at("committed_at_ms").get<std::int64_t>();
        i.lastStatus = j.at("last_status").get<std::uint16_t>();
        i.lastError = j.at("last_error").get<std::string>();
        i.commitmentRequired = j.at("commitment_required").get<bool>();
        i.transactionUid = j.at("transaction_uid").get<std::string>();
        i.commitmentRequestedAtMs = j.at("commitment_requested_at_ms").get<std::int64_t>();
        return i;
    } catch (const json::exception& e) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: not a queue record: {}", where, e.what()));
    }
}

Error ioError(std::string_view what, const std::string& path) {
    const int e = errno;
    return Error(e == ENOSPC || e == EDQUOT ? ErrorCode::ResourceExhausted : ErrorCode::DataLoss,
                 fmt::format("cannot {} {}: {}", what, path, std::strerror(e)));
}

}  // namespace

Result<QueueJournal::Contents> QueueJournal::read(const std::string& path, Reading reading) {
    Contents contents;
    auto text = readWholeFile(path);
    if (!text) return text.error().code() == ErrorCode::NotFound ? Result<Contents>(contents) : fail(std::move(text.error()));
    contents.found = true;
    std::size_t start = 0;
    for (int lineNo = 1; start < text->size(); ++lineNo) {
        const auto end = text->find('\n', start);
        if (end == std::string::npos) break;  // torn last line: the append a crash cut short
        auto item = fromLine(std::string_view(*text).substr(start, end - start), fmt::format("{}:{}", path, lineNo));
        start = end + 1;
        if (!item && reading == Reading::Lenient) {
            ++contents.badLines;
            continue;
        }
        if (!item) return fail(std::move(item.error()));
        contents.items[item->id] = std::move(*item);
    }
    return contents;
}

Result<QueueJournal> QueueJournal::create(const std::string& path, const Items& items) {
    std::string text;
    for (const auto& [id, item] : items) text += toLine(item);
    if (auto ok = writeFileDurably(path, text); !ok) return fail(std::move(ok.error()));
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);  // made 0600 by writeFileDurably
    if (fd < 0) return fail(ioError("open", path));
    return QueueJournal(path, fd);
}

QueueJournal::QueueJournal(QueueJournal&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), appended_(other.appended_) {}

QueueJournal& QueueJournal::operator=(QueueJournal&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        path_ = std::move(other.path_);
        fd_ = std::exchange(other.fd_, -1);
        appended_ = other.appended_;
    }
    return *this;
}

QueueJournal::~QueueJournal() {
    if (fd_ >= 0) ::close(fd_);
}

Status QueueJournal::append(const QueueItem& item, Sync sync) {
    const auto line = toLine(item);
    // One write: with O_APPEND the line lands whole or, cut by a crash, as a torn tail read() skips.
    const auto n = ::write(fd_, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size())) {
        if (n >= 0) errno = ENOSPC;
        auto error = ioError("append to", path_);
        if (n > 0) (void)::ftruncate(fd_, ::lseek(fd_, 0, SEEK_END) - n);  // no half line for the next append to follow
        return fail(std::move(error));
    }
    ++appended_;
    return sync == Sync::Durable ? this->sync() : Status{};
}

Status QueueJournal::sync() {
    if (::fdatasync(fd_) != 0) return fail(ioError("sync", path_));
    return {};
}

Status QueueJournal::compact(const Items& items) {
    auto fresh = create(path_, items);
    if (!fresh) return fail(std::move(fresh.error()));
    *this = std::move(*fresh);
    return {};
}

}  // namespace sonolink::dicom
