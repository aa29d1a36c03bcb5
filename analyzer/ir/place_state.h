#pragma once
// What grad flow knows of each place (`x`, `x.a`, `x[0]`) while it walks a function, with the
// merges control flow needs. A branch or a loop changes a few places of many: each open scope
// keeps a journal of the places written in it and their values before, so that a merge, an undo
// or a snapshot costs the places changed, not every place known. Copying the whole state at each
// `if` made a long function of branches take quadratic time (a generated module of 10,000
// top-level `if` blocks took a minute).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/facts.h"

namespace sealint::ir {

// Ordered: the places below `x` sort together after it, so forgetting them is one range.
using PlaceFacts = std::map<std::string, Fact, std::less<>>;

class PlaceState {
 public:
  [[nodiscard]] const Fact* find(std::string_view key) const;
  [[nodiscard]] bool contains(std::string_view key) const { return find(key) != nullptr; }
  void set(const std::string& key, const Fact& fact);
  void erase(const std::string& key);
  // Forgets what is known below `key` (`x.a`, `x[0]` for `x`): rebinding `x` replaces them.
  void erase_below(const std::string& key);

  // A scope: from open_scope() on, writes are journaled until close_scope(), which hands the
  // journal to the enclosing scope (the values before are the enclosing scope's too).
  void open_scope();
  void close_scope();
  // Each place written since the scope opened becomes join(its value then, its value now), as
  // after a loop body that may run or not, or a handler that may run or not.
  void join_with_scope_start();
  // The places written since the scope opened and their values now; then back to the state
  // the scope opened with (the scope stays open, its journal empty).
  struct Branch {
    std::vector<std::pair<std::string, std::optional<Fact>>> written;
    std::set<std::string, std::less<>> written_keys;
  };
  [[nodiscard]] Branch undo_scope();
  // After undo_scope() gave `taken` and the other branch ran in the same scope: each place
  // either branch wrote becomes join(taken's value, the other branch's value).
  void join_with_branch(const Branch& taken);

  [[nodiscard]] PlaceFacts take() { return std::move(facts_); }

 private:
  using Journal = std::map<std::string, std::optional<Fact>, std::less<>>;
  void note_write(const std::string& key);
  [[nodiscard]] std::optional<Fact> value_of(std::string_view key) const;
  void assign(const std::string& key, const std::optional<Fact>& value);

  PlaceFacts facts_;
  std::vector<Journal> journals_;  // innermost last
};

}  // namespace sealint::ir
