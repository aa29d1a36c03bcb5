#pragma once
// Reaching definitions by position: for each place a function binds (`samples`, `self.items`),
// every statement that binds it, with the value it binds, in source order. "The definition of
// `x` that reaches position p" is the last one before p: no branch merging, which is what the
// rules that follow a value to where it was made need (a value bound in one branch of an `if`
// and read after it is taken from that branch).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

struct Definition {
  uint32_t pos = 0;                 // where the binding statement starts
  const ir::Stmt* stmt = nullptr;   // the assignment, loop, `with` or `del`
  const ir::Expr* value = nullptr;  // nullptr: unknown (a loop element, a deleted place)
  bool element = false;             // bound to one element of `value` (tuple unpacking)
};

// The definitions of each function, indexed on first use. Places are names and attribute chains
// (`self.items`); an item store (`d[k] = v`) defines no place.
class Definitions {
 public:
  // Every definition of `key` in `function` (its nested statements, not nested functions'), in
  // source order; empty when it binds none.
  [[nodiscard]] const std::vector<Definition>& of(const ir::Function& function,
                                                  const std::string& key);

  // The last definition of `key` in `function` that starts before `pos`, or nullptr (a
  // parameter, a global, or not bound there).
  [[nodiscard]] const Definition* before(const ir::Function& function, const std::string& key,
                                         uint32_t pos);

 private:
  using Index = std::unordered_map<std::string, std::vector<Definition>>;
  const Index& index(const ir::Function& function);

  std::unordered_map<const ir::Function*, Index> functions_;
};

}  // namespace sealint::semantic
