#pragma once
// HMAC-SHA-256 (RFC 2104 over FIPS 180-4's SHA-256): the seal on each result cache entry, keyed
// with the user's own secret (secret.h), so that entries a repository ships are never used
// (docs/cache.md, "Safety"). Written here because sealint links no crypto library; checked
// against RFC 4231's test vectors.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealint::cache {

using Digest = std::array<uint8_t, 32>;

[[nodiscard]] Digest sha256(std::string_view bytes);
[[nodiscard]] Digest hmac_sha256(std::span<const uint8_t> key, std::string_view bytes);

// Equal digests, compared in a time that does not depend on where they first differ.
[[nodiscard]] bool same_digest(const Digest& a, const Digest& b);

}  // namespace sealint::cache
