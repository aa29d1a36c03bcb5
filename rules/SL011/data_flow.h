#pragma once
// Follows data through one file for SL011: which values are Python containers built from the
// data a dataset reads. Names and `self.` places go to their reaching definition, calls of the
// file's own functions and methods to what they return (with the data passed to their
// parameters), and an empty container to what fills it.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/definitions.h"
#include "analyzer/semantic/grad_flow.h"
#include "rules/SL011/value.h"

namespace sealint::rules::sl011 {

// `[]`, `{}`, `list()`, `dict()`, `set()`, `defaultdict(list)`, `OrderedDict()`: an empty
// container, filled later (items.cpp).
[[nodiscard]] std::optional<Shape> empty_container(const ir::Module& module, const ir::Expr* value);

class DataFlow {
 public:
  DataFlow(const ir::Module& module, const ir::FileAnalysis& analysis)
      : module_(module), analysis_(analysis) {}

  // The dataset class whose `self.` methods calls follow.
  void set_self_class(const ir::ClassDef* cls) { self_class_ = cls; }

  // The reaching definitions the flow follows (shared with the loader scan).
  [[nodiscard]] semantic::Definitions& definitions() { return definitions_; }

  // What `expr`, read at `pos` in `function`, holds.
  Value classify(const ir::Function& function, const ir::Expr& expr, uint32_t pos, int depth);

  // The value a store `key = value` gives `key`: an empty container counts as what fills it.
  Value stored_value(const ir::Function& function, const std::string& key, const ir::Stmt& stmt,
                     const ir::Expr* value, int depth);

  // `self.m(...)` with `m` a method of the dataset class (or an in-file base): the method.
  [[nodiscard]] const ir::Function* self_method_call(const ir::Function& function,
                                                     const ir::Expr& call) const;

 private:
  // Classification depth: names, helpers and fills refer to each other; past this, a value is
  // not data (quiet).
  static constexpr int kMaxDepth = 24;
  // Work per file: past this many steps, values are not data (quiet) rather than slow.
  static constexpr size_t kMaxSteps = 200'000;

  struct Fill {
    const ir::Stmt* stmt = nullptr;
    Items items = Items::Unknown;
    std::string key;
    bool few = false;  // the fill runs at most kFewItems times
  };

  // A container of at most this many items costs each worker a megabyte or less: not worth a
  // finding (a million file names cost about 100 MiB).
  static constexpr int64_t kFewItems = 10'000;

  // What a statement adds to a container.
  struct Added {
    const ir::Expr* value = nullptr;
    const ir::Expr* key = nullptr;  // `d[key] = value`
    bool many = false;              // `extend(values)`, `+= values`, `update(values)`
  };

  bool at_limit(int depth);
  Value compute_stored_value(const ir::Function& function, const std::string& key,
                             const ir::Stmt& stmt, const ir::Expr* value, int depth);
  Value lookup(const ir::Function& function, const std::string& key, uint32_t pos, int depth);
  Value parameter_value(const ir::Function& function, std::string_view name) const;
  Value classify_call(const ir::Function& function, const ir::Expr& call, uint32_t pos, int depth);
  Value classify_method(const ir::Function& function, const ir::Expr& call, uint32_t pos,
                        int depth);
  Value classify_returns(const ir::Function& caller, const ir::Function& callee,
                         const ir::Expr& call, uint32_t pos, int depth);
  bool any_arg_is_data(const ir::Function& function, const ir::Expr& call, uint32_t pos, int depth,
                       Items& items);

  // items.cpp: what the items of a container are, and what fills an empty one.
  Items item_kind(const ir::Function& function, const ir::Expr& expr, uint32_t pos, int depth);
  Items call_item_kind(const ir::Function& function, const ir::Expr& call, uint32_t pos, int depth);
  Items added_items(const ir::Function& function, const ir::Stmt& stmt, const Added& added,
                    int depth);
  Fill find_fill(const ir::Function& function, const std::string& key, uint32_t after, int depth);
  static std::optional<Added> fill_value(const ir::Stmt& stmt, const std::string& key);

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  const ir::ClassDef* self_class_ = nullptr;
  semantic::Definitions definitions_;
  std::map<std::tuple<const ir::Function*, std::string, uint32_t>, Value> stored_;
  size_t steps_ = 0;
  bool cut_ = false;  // a depth limit cut the value being computed short
  // While a call to a helper of the file is followed: its parameters that receive data.
  std::unordered_map<const ir::Function*, std::vector<std::pair<std::string_view, Value>>>
      arguments_;
};

}  // namespace sealint::rules::sl011
