#include "analyzer/cache/hmac.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace sealint::cache {
namespace {

std::string hex(const Digest& digest) {
  std::string out;
  for (const uint8_t byte : digest) out += fmt::format("{:02x}", byte);
  return out;
}

std::vector<uint8_t> bytes(std::string_view text) {
  return {text.begin(), text.end()};
}

// FIPS 180-4's examples: one block, two blocks, and the padding's edge (55 and 56 bytes).
TEST(HmacTest, Sha256GivesTheStandardsDigests) {
  EXPECT_EQ(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(sha256(std::string(1'000'000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// RFC 4231 test cases 1, 2, 6 (a key longer than a block) and 7.
TEST(HmacTest, HmacSha256GivesRfc4231sValues) {
  EXPECT_EQ(hex(hmac_sha256(std::vector<uint8_t>(20, 0x0b), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(hex(hmac_sha256(bytes("Jefe"), "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(hex(hmac_sha256(std::vector<uint8_t>(131, 0xaa),
                            "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(
      hex(hmac_sha256(std::vector<uint8_t>(131, 0xaa),
                      "This is a test using a larger than block-size key and a larger than "
                      "block-size data. The key needs to be hashed before being used by the HMAC "
                      "algorithm.")),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST(HmacTest, ComparesDigestsWhole) {
  Digest a = sha256("a");
  Digest b = a;
  EXPECT_TRUE(same_digest(a, b));
  b[31] ^= 1;
  EXPECT_FALSE(same_digest(a, b));
}

}  // namespace
}  // namespace sealint::cache
