#include "s3_xml.h"

#include <charconv>

#include <fmt/format.h>
#include <tinyxml2.h>

namespace sonolink::archive {
namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

Result<const XMLElement*> rootNamed(XMLDocument& doc, std::string_view xml, std::string_view name) {
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
        return fail(ErrorCode::DataLoss, fmt::format("the server's answer is not XML ({}): expected <{}>", doc.ErrorStr(), name));
    }
    const XMLElement* root = doc.RootElement();
    if (!root || name != root->Name()) {
        return fail(ErrorCode::DataLoss, fmt::format("the server's answer is <{}>, expected <{}>", root ? root->Name() : "nothing", name));
    }
    return root;
}

std::string text(const XMLElement* parent, const char* child) {
    const XMLElement* e = parent->FirstChildElement(child);
    return e && e->GetText() ? e->GetText() : "";
}

bool number(const std::string& s, std::uint64_t& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace

std::string unquoted(std::string_view etag) {
    if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') etag = etag.substr(1, etag.size() - 2);
    return std::string(etag);
}

S3ErrorBody parseErrorBody(std::string_view xml) {
    XMLDocument doc;
    auto root = rootNamed(doc, xml, "Error");
    if (!root) return {};
    return {text(*root, "Code"), text(*root, "Message")};
}

Result<ListPage> parseListObjectsV2(std::string_view xml) {
    XMLDocument doc;
    auto root = rootNamed(doc, xml, "ListBucketResult");
    if (!root) return fail(std::move(root.error()));
    ListPage page;
    page.truncated = text(*root, "IsTruncated") == "true";
    page.nextContinuationToken = text(*root, "NextContinuationToken");
    for (const XMLElement* c = (*root)->FirstChildElement("Contents"); c; c = c->NextSiblingElement("Contents")) {
        ObjectInfo o;
        o.key = text(c, "Key");
        o.etag = unquoted(text(c, "ETag"));
        o.lastModified = text(c, "LastModified");
        if (o.key.empty() || !number(text(c, "Size"), o.sizeBytes)) {
            return fail(ErrorCode::DataLoss, "the server's listing has an entry without a key or a size");
        }
        page.objects.push_back(std::move(o));
    }
    if (page.truncated && page.nextContinuationToken.empty()) {
        return fail(ErrorCode::DataLoss, "the server's listing says it is truncated but gives no continuation token");
    }
    return page;
}

Result<std::string> parseUploadId(std::string_view xml) {
    XMLDocument doc;
    auto root = rootNamed(doc, xml, "InitiateMultipartUploadResult");
    if (!root) return fail(std::move(root.error()));
    std::string id = text(*root, "UploadId");
    if (id.empty()) return fail(ErrorCode::DataLoss, "the server started a multipart upload without an UploadId");
    return id;
}

Result<PartsPage> parseListParts(std::string_view xml) {
    XMLDocument doc;
    auto root = rootNamed(doc, xml, "ListPartsResult");
    if (!root) return fail(std::move(root.error()));
    PartsPage page;
    page.truncated = text(*root, "IsTruncated") == "true";
    std::uint64_t marker = 0;
    if (number(text(*root, "NextPartNumberMarker"), marker)) page.nextMarker = static_cast<int>(marker);
    for (const XMLElement* p = (*root)->FirstChildElement("Part"); p; p = p->NextSiblingElement("Part")) {
        StoredPart part;
        std::uint64_t n = 0;
        if (!number(text(p, "PartNumber"), n) || !number(text(p, "Size"), part.sizeBytes) || n == 0 || n > 10000) {
            return fail(ErrorCode::DataLoss, "the server's part list has a part without a number or a size");
        }
        part.number = static_cast<int>(n);
        part.etag = unquoted(text(p, "ETag"));
        page.parts.push_back(std::move(part));
    }
    return page;
}

Result<std::string> parseCompleteResult(std::string_view xml) {
    XMLDocument doc;
    if (doc.Parse(xml.data(), xml.size()) == tinyxml2::XML_SUCCESS && doc.RootElement() && std::string_view(doc.RootElement()->Name()) == "Error") {
        return fail(ErrorCode::Unavailable,
                    fmt::format("completing the upload failed: {}: {}", text(doc.RootElement(), "Code"), text(doc.RootElement(), "Message")));
    }
    XMLDocument result;
    auto root = rootNamed(result, xml, "CompleteMultipartUploadResult");
    if (!root) return fail(std::move(root.error()));
    return unquoted(text(*root, "ETag"));
}

std::string completeMultipartBody(const std::vector<StoredPart>& parts) {
    std::string body = "<CompleteMultipartUpload>";
    for (const auto& p : parts) body += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>\"{}\"</ETag></Part>", p.number, p.etag);
    body += "</CompleteMultipartUpload>";
    return body;
}

}  // namespace sonolink::archive
