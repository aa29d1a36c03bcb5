#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

namespace {

const ir::ClassDef* class_named(const ir::Module& module, std::string_view name) {
  for (const ir::ClassDef& cls : module.classes()) {
    if (cls.name == name) return &cls;
  }
  return nullptr;
}

std::string search(const ir::Module& module, const ir::ClassDef& cls,
                   const std::function<bool(std::string_view)>& matches, size_t depth) {
  if (depth > module.classes().size()) return {};
  for (const ir::Expr* base : cls.bases) {
    std::string qualified = ir::qualified_name(module, base);
    if (qualified.empty()) continue;
    if (matches(qualified)) return qualified;
    if (base->kind != ir::ExprKind::Name) continue;
    if (const ir::ClassDef* local = class_named(module, base->text); local && local != &cls) {
      if (std::string found = search(module, *local, matches, depth + 1); !found.empty())
        return found;
    }
  }
  return {};
}

}  // namespace

std::string inherited_base(const ir::Module& module, const ir::ClassDef& cls,
                           const std::function<bool(std::string_view)>& matches) {
  return search(module, cls, matches, 0);
}

std::vector<const ir::ClassDef*> same_file_chain(const ir::FileAnalysis& analysis,
                                                 const ir::ClassDef& cls) {
  std::vector<const ir::ClassDef*> chain;
  const size_t limit = analysis.module().classes().size();
  for (const ir::ClassDef* current = &cls; current != nullptr && chain.size() <= limit;
       current = analysis.base_in_file(*current))
    chain.push_back(current);
  return chain;
}

}  // namespace sealint::semantic
