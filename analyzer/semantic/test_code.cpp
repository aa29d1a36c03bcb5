#include "analyzer/semantic/test_code.h"

#include <algorithm>
#include <filesystem>
#include <string>

#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

namespace {

// Defined at the file's top level, not inside a function (lowering gives top-level code a
// `<module>` function).
bool at_top_level(const ir::Function* enclosing) {
  return enclosing == nullptr || enclosing->is_module;
}

bool is_test_case_class(const ir::Module& module, const ir::ClassDef& cls) {
  auto is_test_case = [](std::string_view qualified) {
    return qualified == "TestCase" || qualified.ends_with(".TestCase");
  };
  return !inherited_base(module, cls, is_test_case).empty();
}

bool is_fixture(const ir::Function& function) {
  return std::any_of(function.decorators.begin(), function.decorators.end(),
                     [](const ir::Expr* decorator) {
                       const ir::Expr* named =
                           decorator->kind == ir::ExprKind::Call ? decorator->callee() : decorator;
                       return knowledge::is_fixture_decorator_name(ir::dotted_name(named));
                     });
}

// A class whose methods pytest or unittest runs; false for none (a module-level function).
bool is_test_class(const ir::Module& module, const ir::ClassDef* cls, bool collected) {
  if (cls == nullptr || !at_top_level(cls->parent_function)) return false;
  return (collected && cls->name.starts_with("Test")) || is_test_case_class(module, *cls);
}

}  // namespace

std::vector<const ir::Function*> test_functions(const ir::Module& module) {
  std::vector<const ir::Function*> found;
  if (module.language() == ir::Language::Cpp) {
    for (const ir::Function& function : module.functions()) {
      if (function.name == "TestBody" && function.parent_class != nullptr)
        found.push_back(&function);
    }
    return found;
  }
  const std::string file_name =
      std::filesystem::path(std::string(module.file().path())).filename().string();
  const bool collected = knowledge::is_pytest_module_name(file_name);
  const bool conftest = file_name == "conftest.py";
  for (const ir::Function& function : module.functions()) {
    if (function.is_module || !at_top_level(function.parent_function)) continue;
    const bool top_level = function.parent_class == nullptr;
    const bool test = (top_level && collected && function.name.starts_with("test_")) ||
                      is_test_class(module, function.parent_class, collected) ||
                      (top_level && (collected || conftest) && is_fixture(function));
    if (test) found.push_back(&function);
  }
  return found;
}

}  // namespace sealint::semantic
