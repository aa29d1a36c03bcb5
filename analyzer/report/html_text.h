#pragma once
// Text from a run (a script's names, an exception's message, source lines) made safe to put in an
// HTML page or an attribute: markup characters escaped, control characters shown, never sent.
#include <string>
#include <string_view>

namespace sealint::report {

// `<`, `>`, `&`, `"` and `'` as entities; C0 controls other than tab and newline, and DEL, as
// U+FFFD (an ESC from a script's output must not reach a terminal that prints the page).
[[nodiscard]] std::string html_text(std::string_view text);

}  // namespace sealint::report
