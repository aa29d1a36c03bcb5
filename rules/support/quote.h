#pragma once
// How messages quote source code: the one place that cuts a quote short, always at a UTF-8
// code point boundary (a cut inside a character makes JSON and SARIF output invalid).
#include <string>
#include <string_view>

#include "analyzer/ir/ir.h"

namespace sealint::rules {

inline constexpr size_t kMaxQuote = 40;

// Source as messages quote it: the text, or its first line cut to `max_bytes` and "..." when it
// is longer or spans lines (then `complete` is false and a help should not build code from it).
struct QuotedExpr {
  std::string text;
  bool complete = true;
};
[[nodiscard]] QuotedExpr quote_range(const ir::Module& module, ir::SourceRange range,
                                     size_t max_bytes = kMaxQuote);
[[nodiscard]] QuotedExpr quote(const ir::Module& module, const ir::Expr& expr);

// A call as messages name it: its source, or `callee(...)` when the call is too long to quote
// whole and the callee is not: `tf.image_summary(...)`.
[[nodiscard]] std::string quote_call(const ir::Module& module, const ir::Expr& call);

// A C++ construction written at `range` (`torch::nn::Linear head(512, 10)`, whose IR call
// spans the whole declaration): its source when short, else its head up to the argument list
// and `(...)`: `torch::nn::Linear head(...)`. Empty when the head spans lines.
[[nodiscard]] std::string quote_cpp_construction(const ir::Module& module, ir::SourceRange range,
                                                 size_t max_bytes = kMaxQuote);

}  // namespace sealint::rules
