#include "analyzer/ir/ir.h"

#include <algorithm>
#include <vector>

#include "analyzer/ir/walk.h"

namespace sealint::ir {

std::string Module::resolve_import(std::string_view local) const {
  // The last binding wins, as at run time for top-level imports.
  auto it = import_index_.find(local);
  return it == import_index_.end() ? std::string(local) : imports[it->second].dotted;
}

namespace {

std::string_view package_of(const ImportAlias& alias) {
  return std::string_view(alias.dotted).substr(0, alias.dotted.find('.'));
}

}  // namespace

void Module::index_imports() {
  import_index_.clear();
  imported_packages_.clear();
  for (size_t i = 0; i < imports.size(); ++i) {
    import_index_[imports[i].local] = i;
    imported_packages_.emplace(package_of(imports[i]));
  }
  indexed_imports_ = imports.size();
}

bool Module::imports_package(std::string_view package) const {
  // Imports added since the index was built (a test assembling a module by hand) are scanned.
  if (indexed_imports_ == imports.size()) return imported_packages_.contains(std::string(package));
  return std::any_of(imports.begin(), imports.end(),
                     [&](const ImportAlias& alias) { return package_of(alias) == package; });
}

bool Module::has_method_called_on(std::string_view name) const {
  std::call_once(receivers_indexed_, [this] {
    for (const Function& function : functions_) {
      for_each_nested(function.body, [&](const Stmt& stmt) {
        for_each_expr(stmt, [&](const Expr& expr) {
          const Expr* callee = expr.kind == ExprKind::Call ? expr.callee() : nullptr;
          if (callee != nullptr && callee->kind == ExprKind::Attr &&
              callee->base()->kind == ExprKind::Name)
            method_receivers_.insert(callee->base()->text);
        });
      });
    }
  });
  return method_receivers_.contains(name);
}

std::string dotted_name(const Expr* expr) {
  std::vector<std::string_view> parts;
  while (expr != nullptr && expr->kind == ExprKind::Attr) {
    parts.push_back(expr->text);
    expr = expr->base();
  }
  if (expr == nullptr || expr->kind != ExprKind::Name) return {};
  std::string out(expr->text);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    out += '.';
    out += *it;
  }
  return out;
}

SourceRange loop_header(const Stmt& loop) {
  const uint32_t end = loop.value != nullptr ? loop.value->range.end : loop.range.begin;
  return {loop.range.begin, std::max(end, loop.range.begin)};
}

const Expr* root_name(const Expr* expr) {
  while (expr != nullptr && (expr->kind == ExprKind::Attr || expr->kind == ExprKind::Subscript)) {
    expr = expr->base();
  }
  return expr != nullptr && expr->kind == ExprKind::Name ? expr : nullptr;
}

}  // namespace sealint::ir

namespace sealint::ir {

std::string qualified_name(const Module& module, const Expr* expr) {
  std::string dotted = dotted_name(expr);
  if (dotted.empty()) return dotted;
  const size_t dot = dotted.find('.');
  const std::string first = dotted.substr(0, dot);
  std::string resolved = module.resolve_import(first);
  if (dot != std::string::npos) resolved += dotted.substr(dot);
  return resolved;
}

}  // namespace sealint::ir
