#include "sonolink/util/error.h"

#include <fmt/format.h>

namespace sonolink {

std::string_view toString(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::Ok: return "Ok";
        case ErrorCode::Cancelled: return "Cancelled";
        case ErrorCode::InvalidArgument: return "InvalidArgument";
        case ErrorCode::DeadlineExceeded: return "DeadlineExceeded";
        case ErrorCode::NotFound: return "NotFound";
        case ErrorCode::FailedPrecondition: return "FailedPrecondition";
        case ErrorCode::ResourceExhausted: return "ResourceExhausted";
        case ErrorCode::Unavailable: return "Unavailable";
        case ErrorCode::DataLoss: return "DataLoss";
        case ErrorCode::Unimplemented: return "Unimplemented";
        case ErrorCode::Internal: return "Internal";
        case ErrorCode::PermissionDenied: return "PermissionDenied";
    }
    return "Unknown";
}

Error::Error(ErrorCode code, std::string message, std::source_location where) : code_(code), message_(std::move(message)), where_(where) {}

Error& Error::addContext(std::string what) & {
    context_.push_back(std::move(what));
    return *this;
}

Error&& Error::addContext(std::string what) && {
    context_.push_back(std::move(what));
    return std::move(*this);
}

Error& Error::addDetail(std::string detail) & {
    details_.push_back(std::move(detail));
    return *this;
}

Error&& Error::addDetail(std::string detail) && {
    details_.push_back(std::move(detail));
    return std::move(*this);
}

std::string Error::describe() const {
    std::string text = fmt::format("{}: {}", toString(code_), message_);
    if (!context_.empty()) {
        text += " (";
        for (std::size_t i = 0; i < context_.size(); ++i) {
            text += (i == 0 ? "while " : "; while ") + context_[i];
        }
        text += ")";
    }
    for (const auto& detail : details_) {
        text += "\n  " + detail;
    }
    return text;
}

}  // namespace sonolink
