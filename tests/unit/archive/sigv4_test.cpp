// Our SigV4 signer (used where libcurl 7.88's own misorders headers) against AWS's worked example
// ("Signature Calculations for the Authorization Header", GET Object with a Range), and the
// test of when it is needed.
#include <gtest/gtest.h>

#include "sigv4.h"

namespace sonolink::archive {
namespace {

TEST(SigV4, MatchesAwsWorkedExampleForGetObject) {
    SigV4Request r;
    r.method = "GET";
    r.canonicalUri = "/test.txt";
    r.payloadSha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    r.headers = {
        {"Host", "examplebucket.s3.amazonaws.com"}, {"Range", "bytes=0-9"}, {"x-amz-content-sha256", r.payloadSha256}, {"x-amz-date", "20130524T000000Z"}};
    const S3Credentials c{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "", "example"};
    EXPECT_EQ(sigV4Authorization(r, c, "us-east-1", "20130524T000000Z"),
              "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
              "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
              "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, IsNeededOnlyWhereOneHeaderNameContinuesAnotherWithADash) {
    EXPECT_TRUE(curlSignerMisorders({"x-amz-server-side-encryption-customer-key: k", "x-amz-server-side-encryption-customer-key-MD5: m"}));
    EXPECT_TRUE(curlSignerMisorders({"x-amz-meta-a: 1", "X-Amz-Meta-A-B: 2"}));
    EXPECT_FALSE(curlSignerMisorders({"x-amz-meta-a: 1", "x-amz-meta-ab: 2"}));
    EXPECT_FALSE(curlSignerMisorders({"x-amz-server-side-encryption-customer-algorithm: AES256", "Range: bytes=0-1", "Content-Type: x"}));
}

}  // namespace
}  // namespace sonolink::archive
