#include "sonolink/dicom/uid_generator.h"

#include <algorithm>
#include <cctype>

#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/ofstd/ofuuid.h>
#include <fmt/format.h>

#include "sonolink/dicom/value_rules.h"

namespace sonolink::dicom {

Status checkUid(const std::string& uid, const char* what) {
    if (auto problem = uidProblem(uid); !problem.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("{} '{}': {}", what, uid, problem));
    return {};
}

Result<UidGenerator> UidGenerator::create(std::optional<std::string> root) {
    if (root) {
        if (auto problem = uidRootProblem(*root); !problem.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("UID root '{}' {}", *root, problem));
    }
    return UidGenerator(std::move(root));
}

std::string UidGenerator::next() const {
    if (root_) {
        char buffer[100];
        return dcmGenerateUniqueIdentifier(buffer, root_->c_str());
    }
    OFString uid;
    OFUUID().toString(uid, OFUUID::ER_RepresentationOID);  // 2.25.<the UUID as a decimal number>
    return uid.c_str();
}

}  // namespace sonolink::dicom
