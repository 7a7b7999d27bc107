// AWS Signature V4 for the requests libcurl 7.88 signs wrongly. Its signer (CURLOPT_AWS_SIGV4)
// sorts the canonical headers as whole "name:value" lines, so a name that another continues with
// '-' ("...-customer-key" and "...-customer-key-MD5", as SSE-C needs) lands in the wrong order and
// the server answers SignatureDoesNotMatch (fixed in later libcurl). Only those requests are
// signed here, by the published algorithm, checked against AWS's own worked example.
// Thread contract: pure functions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sonolink/archive/s3_credentials.h"

namespace sonolink::archive {

struct SigV4Request {
    std::string method;
    std::string canonicalUri;                                  // the path as sent (already URI-encoded)
    std::string canonicalQuery;                                // "a=1&b=2", sorted and encoded, as sent
    std::vector<std::pair<std::string, std::string>> headers;  // every header to sign (names any case)
    std::string payloadSha256;                                 // hex
};

// True when libcurl's signer would misorder these "Name: value" headers.
[[nodiscard]] bool curlSignerMisorders(const std::vector<std::string>& headers);

// "AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…" for amzDate "YYYYMMDDTHHMMSSZ".
[[nodiscard]] std::string sigV4Authorization(const SigV4Request& request, const S3Credentials& credentials, const std::string& region,
                                             const std::string& amzDate);

}  // namespace sonolink::archive
