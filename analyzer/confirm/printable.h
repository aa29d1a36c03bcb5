#pragma once
// Text the script under confirm made (its output, an exception's message, a holder's name) as
// sealint prints it: control characters shown as `\xNN`, never sent raw to the user's terminal or
// CI log, where an escape sequence would recolour, move or clear what sealint wrote (issue 41).
#include <string>
#include <string_view>

namespace sealint::confirm {

// `text` with every C0 control character but newline and tab, DEL and the C1 controls U+0080 to
// U+009F written as `\xNN` (`\u009b` for a C1 one); other UTF-8 is left as it is.
[[nodiscard]] std::string printable(std::string_view text);

}  // namespace sealint::confirm
