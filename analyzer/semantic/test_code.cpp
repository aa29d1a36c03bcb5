#include "analyzer/semantic/test_code.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <unordered_set>

#include "analyzer/ir/walk.h"
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

// The classes a test class of the file derives from (`class Checks(object)` that
// `class GruChecks(Checks, unittest.TestCase)` mixes in): their `test_*` methods run as that test
// class's, and their helpers only for them. One pass over the file's classes.
std::vector<std::string_view> test_mixins(const ir::Module& module, bool collected) {
  std::vector<std::string_view> names;
  for (const ir::ClassDef& cls : module.classes()) {
    if (!is_test_class(module, &cls, collected)) continue;
    for (const ir::Expr* base : cls.bases) {
      if (base->kind == ir::ExprKind::Name) names.push_back(base->text);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Inside `function` or a function or class nested in it.
bool within(const ir::Function* inner, const std::unordered_set<const ir::Function*>& outer) {
  for (const ir::Function* f = inner; f != nullptr;) {
    if (outer.contains(f)) return true;
    f = f->parent_function != nullptr ? f->parent_function
        : f->parent_class != nullptr  ? f->parent_class->parent_function
                                      : nullptr;
  }
  return false;
}

// A test file's own helpers: a top-level function or class of a collected file that only its
// tests call (`class Accumulation(Metric)` that `test_metric()` builds, `def check(model)` the
// tests share) is test code too. Each round adds what only test code calls; two rounds reach
// a helper's helper.
void add_helpers_of_tests(const ir::Module& module, std::vector<const ir::Function*>& found) {
  for (int round = 0; round < 2; ++round) {
    const std::unordered_set<const ir::Function*> tests(found.begin(), found.end());
    std::map<std::string_view, std::pair<int, int>> calls;  // name -> (from tests, from others)
    for (const ir::Function& function : module.functions()) {
      const bool from_test = within(&function, tests);
      for (const ir::Expr* call : ir::calls_in(function.body)) {
        if (call->callee()->kind != ir::ExprKind::Name) continue;
        auto& [by_tests, by_others] = calls[call->callee()->text];
        ++(from_test ? by_tests : by_others);
      }
    }
    auto only_tests = [&](std::string_view name) {
      const auto it = calls.find(name);
      return it != calls.end() && it->second.first > 0 && it->second.second == 0;
    };
    const size_t before = found.size();
    for (const ir::Function& function : module.functions()) {
      if (function.is_module || within(&function, tests)) continue;
      const ir::ClassDef* cls = function.parent_class;
      const bool helper = cls == nullptr
                              ? at_top_level(function.parent_function) && only_tests(function.name)
                              : at_top_level(cls->parent_function) && only_tests(cls->name);
      if (helper) found.push_back(&function);
    }
    if (found.size() == before) break;
  }
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
  const std::vector<std::string_view> mixins = test_mixins(module, collected);
  for (const ir::Function& function : module.functions()) {
    if (function.is_module || !at_top_level(function.parent_function)) continue;
    const bool top_level = function.parent_class == nullptr;
    const bool test =
        (top_level && collected && function.name.starts_with("test_")) ||
        is_test_class(module, function.parent_class, collected) ||
        (function.parent_class != nullptr && at_top_level(function.parent_class->parent_function) &&
         std::binary_search(mixins.begin(), mixins.end(), function.parent_class->name)) ||
        (top_level && (collected || conftest) && is_fixture(function));
    if (test) found.push_back(&function);
  }
  if (collected || conftest) add_helpers_of_tests(module, found);
  return found;
}

}  // namespace sealint::semantic
