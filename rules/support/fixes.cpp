#include "rules/support/fixes.h"

#include <fmt/format.h>

namespace sealint::rules {

std::string method_on(const ir::Expr& expr, std::string_view text, std::string_view method) {
  const bool bare = expr.kind == ir::ExprKind::Name || expr.kind == ir::ExprKind::Attr ||
                    expr.kind == ir::ExprKind::Call || expr.kind == ir::ExprKind::Subscript;
  return bare ? fmt::format("{}.{}", text, method) : fmt::format("({}).{}", text, method);
}

// Python: `.detach().item()`, since PyTorch 2.9 warns when `.item()` (or `float()`) is called on
// a tensor that requires grad. LibTorch's `item<float>()` does not warn.
std::string_view item_method(const ir::Module& module) {
  return module.language() == ir::Language::Cpp ? "item<float>()" : "detach().item()";
}

std::string_view item_method(const ir::Module& module, const ir::Expr& value) {
  return value.dependent ? "template item<float>()" : item_method(module);
}

Fix item_fix(const ir::Module& module, const ir::Expr& value) {
  const std::string_view item = item_method(module, value);
  Fix fix;
  fix.title = fmt::format("call `.{}` on the accumulated value", item);
  fix.safe = false;
  const std::string with_item = method_on(value, "", item);
  if (with_item.starts_with("(")) {
    fix.edits.push_back({{value.range.begin, value.range.begin}, {}, "("});
    fix.edits.push_back({{value.range.end, value.range.end}, {}, fmt::format(").{}", item)});
  } else {
    fix.edits.push_back({{value.range.end, value.range.end}, {}, fmt::format(".{}", item)});
  }
  return fix;
}

LinesAfter lines_after(const ir::Module& module, const ir::Stmt& stmt) {
  const std::string_view code = module.file().code();
  const Position start = module.file().position(stmt.range.begin);
  const std::string_view line = module.file().line_text(start.line);
  LinesAfter after;
  after.indent = std::string(line.substr(0, line.find_first_not_of(" \t")));
  size_t at = code.find('\n', stmt.range.end);
  at = at == std::string_view::npos ? code.size() : at + 1;
  if (at == code.size() && !code.ends_with('\n')) after.newline.push_back('\n');
  after.offset = static_cast<uint32_t>(at);
  return after;
}

}  // namespace sealint::rules
