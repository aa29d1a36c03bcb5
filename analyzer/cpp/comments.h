#pragma once
// `//` and `/* */` comments of C++ source, found by a lexer that skips string, character and raw
// string literals: suppressions and fixture markers come from comments, never from strings.
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::cpp {

// Byte ranges of every comment, in source order, `//`/`/*` included.
[[nodiscard]] std::vector<ByteRange> find_comments(std::string_view code);

}  // namespace sealint::cpp
