// Flags a map-style Dataset that keeps its data in Python lists or dicts while DataLoader worker
// processes read it. docs: docs/rules/SL011.md
#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/naming.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL011",
    .name = "dataset-object-lists",
    .severity = Severity::Warning,
    .python = true,
    .cpp = false,
    .summary =
        "Flags a Dataset that stores data it reads in Python lists or dicts while DataLoader "
        "worker processes load it, so every worker ends up copying them.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // 4 of 4 on bench/corpus, too few to say high
    .brief = "a Dataset holding Python lists/dicts of data read by DataLoader workers",
};

using ir::ClassDef;
using ir::CollectionKind;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;

// Classification depth: names, helpers and fills refer to each other; past this, a value is not
// data (quiet).
constexpr int kMaxDepth = 24;
// Work per file: past this many steps, values are not data (quiet) rather than slow.
constexpr size_t kMaxSteps = 200'000;

// What an expression holds, as far as copy-on-read is concerned.
enum class Data : uint8_t {
  None,     // not data, or unknown
  Text,     // one string read from a file: iterating it yields characters, a small alphabet
  Source,   // bulk data that is not itself a Python container: a file, a listing, a data frame,
            // an array, a view into loaded objects
  Objects,  // a Python container of data-dependent size: what workers copy
};

enum class Shape : uint8_t { List, Dict, Set, Tuple, Loaded };

// What the items of a container (or of an iteration) are. Small ints, bools and constants are
// shared objects a worker never copies; strings, tuples, dicts and big ints are one object each.
enum class Items : uint8_t { Unknown, Small, Objects };

Items join(Items a, Items b) {
  if (a == Items::Objects || b == Items::Objects) return Items::Objects;
  return a == Items::Small && b == Items::Small ? Items::Small : Items::Unknown;
}

struct Value {
  Data data = Data::None;
  Shape shape = Shape::List;
  Items items = Items::Unknown;
  const Stmt* fill = nullptr;  // where an empty container is filled from the data
  std::string fill_key;        // the container filled there (`samples`, `self.samples`)
};

bool is_data(const Value& value) {
  return value.data == Data::Source || value.data == Data::Objects;
}

Value join(const Value& a, const Value& b) {
  if (a.data == Data::Objects) return a;
  if (b.data == Data::Objects) return b;
  if (a.data == Data::Source) return a;
  if (b.data == Data::Source) return b;
  return a.data == Data::Text ? a : b;
}

Value objects(Shape shape, Items items) {
  return {Data::Objects, shape, items, nullptr, {}};
}
Value source(Items items) {
  return {Data::Source, Shape::List, items, nullptr, {}};
}

// A local name or `self.attr` bound by a statement of a function.
struct Binding {
  uint32_t pos = 0;
  const Stmt* stmt = nullptr;
  const Expr* value = nullptr;  // nullptr: unknown (a loop element, a deleted name)
  bool element = false;         // bound to one element of `value` (tuple unpacking)
};

using BindingIndex = std::unordered_map<std::string, std::vector<Binding>>;

bool contains(std::span<const std::string_view> list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

std::string lowercase(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return lower;
}

// `label2id` -> {label, id} (mapping), `word_to_idx` -> {word, to, idx}.
std::vector<std::string> name_tokens(std::string_view name, bool& mapping) {
  const std::string text = lowercase(name);
  std::vector<std::string> tokens;
  size_t start = 0;
  mapping = false;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool two = i < text.size() && text[i] == '2' && i > 0 && i + 1 < text.size() &&
                     std::isalpha(static_cast<unsigned char>(text[i - 1])) != 0 &&
                     std::isalpha(static_cast<unsigned char>(text[i + 1])) != 0;
    if (i == text.size() || text[i] == '_' || two) {
      if (i > start) tokens.push_back(text.substr(start, i - start));
      if (two) mapping = true;
      start = i + 1;
    }
  }
  for (const std::string& token : tokens) mapping = mapping || token == "to";
  return tokens;
}

// Names that hold one entry per class, a vocabulary or a configuration: small next to the data
// even when read from a file (`self.classes = sorted(os.listdir(root))`).
bool names_small_table(std::string_view name) {
  const std::string lower = lowercase(name);
  static constexpr std::array<std::string_view, 7> kParts = {
      "class", "categor", "vocab", "config", "cfg", "alphabet", "charset"};
  for (std::string_view part : kParts) {
    if (lower.find(part) != std::string::npos) return true;
  }
  static constexpr std::array<std::string_view, 28> kTokens = {
      "conf",      "args",     "opt",       "opts",          "options", "params",      "hparams",
      "hyp",       "settings", "stats",     "mean",          "std",     "hyperparams", "transforms",
      "transform", "augs",     "aug",       "augmentations", "chars",   "cat",         "cats",
      "cls",       "langs",    "languages", "symbols",       "symbol",  "phonemes",    "phoneme"};
  static constexpr std::array<std::string_view, 8> kMapped = {"label", "labels", "word", "words",
                                                              "char",  "token",  "tag",  "lang"};
  bool mapping = false;
  const std::vector<std::string> tokens = name_tokens(name, mapping);
  for (const std::string& token : tokens) {
    if (contains(kTokens, token)) return true;
  }
  const bool labels = std::any_of(tokens.begin(), tokens.end(), [](const std::string& token) {
    return token == "label" || token == "labels";
  });
  // `label_names`, `label_list`: the classes.
  if (labels && (tokens.back() == "names" || tokens.back() == "list")) return true;
  if (!mapping) return false;
  return std::any_of(tokens.begin(), tokens.end(),
                     [](const std::string& token) { return contains(kMapped, token); });
}

// `labels`, `self._targets`, `img_labels`: usually class indices, small ints a worker never
// copies, unless the items are evidently objects.
bool names_labels(std::string_view name) {
  static constexpr std::array<std::string_view, 8> kLabels = {
      "label", "labels", "target", "targets", "y", "ys", "lbl", "lbls"};
  bool mapping = false;
  const std::vector<std::string> tokens = name_tokens(name, mapping);
  return !mapping && !tokens.empty() && contains(kLabels, tokens.back());
}

using knowledge::last_component;

// `[]`, `{}`, `list()`, `dict()`, `set()`, `defaultdict(list)`, `OrderedDict()`.
std::optional<Shape> empty_container(const ir::Module& module, const Expr* value) {
  if (value == nullptr) return std::nullopt;
  if (value->kind == ExprKind::Collection && value->items.empty()) {
    switch (value->collection_kind) {
      case CollectionKind::List:
        return Shape::List;
      case CollectionKind::Dict:
        return Shape::Dict;
      case CollectionKind::Set:
        return Shape::Set;
      case CollectionKind::Tuple:
      case CollectionKind::Generator:
        return std::nullopt;
    }
  }
  if (value->kind != ExprKind::Call) return std::nullopt;
  const std::string q = ir::qualified_name(module, value->callee());
  if ((q == "list" || q == "dict" || q == "set") && value->arg_count() == 0)
    return q == "list" ? Shape::List : (q == "dict" ? Shape::Dict : Shape::Set);
  if ((q == "collections.defaultdict" || q == "defaultdict") ||
      ((q == "collections.OrderedDict" || q == "OrderedDict") && value->arg_count() == 0)) {
    return Shape::Dict;
  }
  return std::nullopt;
}

// Where a DataLoader gets its workers.
struct Workers {
  enum class Count { Zero, Positive, Unknown };
  Count count = Count::Zero;
  long long n = 0;
  const Expr* expr = nullptr;  // the num_workers value
};

struct LoaderUse {
  const Expr* call = nullptr;
  Workers workers;
  const Expr* via = nullptr;  // the call of the file that passes the dataset to `call`'s function
};

// Follows data through one file: which values are Python containers built from the data.
class DataFlow {
 public:
  DataFlow(const ir::Module& module, const ir::FileAnalysis& analysis)
      : module_(module), analysis_(analysis) {}

  void set_self_class(const ClassDef* cls) { self_class_ = cls; }

  const BindingIndex& bindings(const Function& function) {
    auto [it, inserted] = bindings_.try_emplace(&function);
    if (inserted) index(function, it->second);
    return it->second;
  }

  // The last binding of `key` in `function` before `pos`, or nullptr.
  const Binding* binding_before(const Function& function, const std::string& key, uint32_t pos) {
    const BindingIndex& index = bindings(function);
    auto it = index.find(key);
    if (it == index.end()) return nullptr;
    const Binding* found = nullptr;
    for (const Binding& binding : it->second) {
      if (binding.pos < pos) found = &binding;
    }
    return found;
  }

  Value classify(const Function& function, const Expr& expr, uint32_t pos, int depth) {
    if (at_limit(depth)) return {};
    switch (expr.kind) {
      case ExprKind::Name:
        return lookup(function, std::string(expr.text), pos, depth + 1);
      case ExprKind::Attr: {
        const std::string key = ir::place_key(&expr);
        if (!key.empty() && ir::place_root(key) == self_name(function) &&
            std::count(key.begin(), key.end(), '.') == 1) {
          return lookup(function, key, pos, depth + 1);
        }
        // `df.values`, `df.path`, `frame.loc`: a view of a data frame or an array.
        const Value base = classify(function, *expr.base(), pos, depth + 1);
        if (is_data(base)) return source(Items::Unknown);
        return {};
      }
      case ExprKind::Subscript: {
        const Value base = classify(function, *expr.base(), pos, depth + 1);
        if (base.data == Data::Text) return base;
        if (!is_data(base)) return {};
        // A slice of a list is a list; an item or a column is a view into the data.
        if (base.data == Data::Objects && expr.items.size() == 2 &&
            expr.items[1]->kind == ExprKind::Slice) {
          return base;
        }
        return source(Items::Unknown);
      }
      case ExprKind::Call:
        return classify_call(function, expr, pos, depth + 1);
      case ExprKind::Comprehension: {
        bool over_data = false;
        for (const ir::ComprehensionFor& gen : expr.generators) {
          if (gen.iter == nullptr) continue;
          const Value iter = classify(function, *gen.iter, pos, depth + 1);
          over_data = over_data || is_data(iter);
        }
        if (!over_data) return {};
        Items items = expr.items.empty() ? Items::Unknown : Items::Small;
        for (const Expr* element : expr.items)
          items = join(items, item_kind(function, *element, pos, depth + 1));
        switch (expr.collection_kind) {
          case CollectionKind::List:
            return objects(Shape::List, items);
          case CollectionKind::Dict:
            return objects(Shape::Dict, items);
          case CollectionKind::Set:
            return objects(Shape::Set, items);
          case CollectionKind::Tuple:
          case CollectionKind::Generator:
            return source(items);
        }
        return {};
      }
      case ExprKind::BinOp: {
        if (expr.text != "+") return {};
        const Value lhs = classify(function, *expr.items[0], pos, depth + 1);
        const Value rhs = classify(function, *expr.items[1], pos, depth + 1);
        if (lhs.data == Data::Text || rhs.data == Data::Text) return {};
        if (lhs.data != Data::Objects && rhs.data != Data::Objects) return {};
        Value out = lhs.data == Data::Objects ? lhs : rhs;
        if (lhs.data == Data::Objects && rhs.data == Data::Objects)
          out.items = join(lhs.items, rhs.items);
        return out;
      }
      case ExprKind::IfExp:
        return join(classify(function, *expr.items[0], pos, depth + 1),
                    classify(function, *expr.items[2], pos, depth + 1));
      case ExprKind::Const:
      case ExprKind::UnaryOp:
      case ExprKind::BoolOp:
      case ExprKind::Compare:
      case ExprKind::Collection:
      case ExprKind::Starred:
      case ExprKind::Lambda:
      case ExprKind::Await:
      case ExprKind::NamedExpr:
      case ExprKind::Slice:
      case ExprKind::Other:
        return {};
    }
    return {};
  }

  // The value a store `key = value` gives `key`: an empty container counts as what fills it.
  Value stored_value(const Function& function, const std::string& key, const Stmt& stmt,
                     const Expr* value, int depth) {
    if (value == nullptr || at_limit(depth)) return {};
    // A binding's value does not depend on where it is read, only on the data a followed call
    // passes to the function: remember it when none does. A binding being computed reads as
    // not data (a cycle).
    const bool memo = !arguments_.contains(&function);
    const auto memo_key = std::make_tuple(&function, key, stmt.range.begin);
    if (memo) {
      auto [it, inserted] = stored_.try_emplace(memo_key);
      if (!inserted) return it->second;
    }
    // A value cut short by the depth limit is not remembered: read from a shallower place, it
    // may be complete.
    const bool was_cut = cut_;
    cut_ = false;
    Value out = compute_stored_value(function, key, stmt, value, depth);
    if (memo && cut_) stored_.erase(memo_key);
    if (memo && !cut_) stored_[memo_key] = out;
    cut_ = cut_ || was_cut;
    return out;
  }

 private:
  Value compute_stored_value(const Function& function, const std::string& key, const Stmt& stmt,
                             const Expr* value, int depth) {
    if (const auto shape = empty_container(module_, value)) {
      const Fill fill = find_fill(function, key, stmt.range.begin, depth + 1);
      if (fill.stmt == nullptr) return {};
      Value out = objects(*shape, fill.items);
      out.fill = fill.stmt;
      out.fill_key = fill.key;
      return out;
    }
    return classify(function, *value, stmt.range.begin, depth + 1);
  }

 public:
  // A method of the dataset class (or an in-file base) by name.
  const Function* method_named(std::string_view name) const {
    const ClassDef* cls = self_class_;
    for (size_t hops = 0; cls != nullptr && hops <= module_.classes().size(); ++hops) {
      for (const Function* method : cls->methods) {
        if (method->name == name) return method;
      }
      const ClassDef* next = nullptr;
      for (const Expr* base : cls->bases) {
        if (base->kind == ExprKind::Name) next = analysis_.class_named(base->text);
        if (next != nullptr) break;
      }
      cls = next;
    }
    return nullptr;
  }

  static std::string_view self_name(const Function& function) {
    if (function.parent_class == nullptr || function.params.empty()) return {};
    return function.params[0].name;
  }

  // `self.m(...)` with `m` a method of the dataset class: the method.
  const Function* self_method_call(const Function& function, const Expr& call) const {
    if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return nullptr;
    const Expr* base = call.callee()->base();
    const std::string_view self = self_name(function);
    if (self.empty() || base->kind != ExprKind::Name || base->text != self) return nullptr;
    const Function* method = method_named(call.callee()->text);
    return method == &function ? nullptr : method;
  }

 private:
  bool at_limit(int depth) {
    if (depth > kMaxDepth) cut_ = true;
    return depth > kMaxDepth || ++steps_ > kMaxSteps;
  }

  struct Fill {
    const Stmt* stmt = nullptr;
    Items items = Items::Unknown;
    std::string key;
  };

  // What a statement adds to a container.
  struct Added {
    const Expr* value = nullptr;
    const Expr* key = nullptr;  // `d[key] = value`
    bool many = false;          // `extend(values)`, `+= values`, `update(values)`
  };

  void index(const Function& function, BindingIndex& out) const {
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      switch (stmt.kind) {
        case StmtKind::Assign:
        case StmtKind::AnnAssign:
          if (stmt.value == nullptr) break;
          for (const Expr* target : stmt.targets) bind(out, target, stmt, stmt.value, false);
          break;
        case StmtKind::Loop:
          for (const Expr* target : stmt.targets) bind(out, target, stmt, nullptr, false);
          break;
        case StmtKind::Guard:
          for (size_t i = 0; i < stmt.targets.size(); ++i) {
            const Expr* item = stmt.items.size() == stmt.targets.size() ? stmt.items[i]
                               : stmt.items.size() == 1                 ? stmt.items[0]
                                                                        : nullptr;
            bind(out, stmt.targets[i], stmt, item, false);
          }
          break;
        case StmtKind::Del:
          for (const Expr* target : stmt.targets) bind(out, target, stmt, nullptr, false);
          break;
        case StmtKind::AugAssign:
        case StmtKind::ExprStmt:
        case StmtKind::Return:
        case StmtKind::If:
        case StmtKind::Try:
        case StmtKind::FunctionDef:
        case StmtKind::ClassDef:
        case StmtKind::Import:
        case StmtKind::Global:
        case StmtKind::Raise:
        case StmtKind::Other:
          break;
      }
    });
  }

  static void bind(BindingIndex& out, const Expr* target, const Stmt& stmt, const Expr* value,
                   bool element) {
    if (target == nullptr) return;
    if (target->kind == ExprKind::Collection) {
      const bool paired = value != nullptr && value->kind == ExprKind::Collection &&
                          value->items.size() == target->items.size();
      for (size_t i = 0; i < target->items.size(); ++i)
        bind(out, target->items[i], stmt, paired ? value->items[i] : value, !paired || element);
      return;
    }
    if (target->kind == ExprKind::Starred) {
      bind(out, target->base(), stmt, value, true);
      return;
    }
    const std::string key = ir::place_key(target);
    if (key.empty() || key.find('[') != std::string::npos) return;
    out[key].push_back({stmt.range.begin, &stmt, value, element});
  }

  Value lookup(const Function& function, const std::string& key, uint32_t pos, int depth) {
    if (at_limit(depth)) return {};
    const size_t dot = key.rfind('.');
    if (names_small_table(dot == std::string::npos ? key : key.substr(dot + 1))) return {};
    const Binding* binding = binding_before(function, key, pos);
    if (binding == nullptr) return parameter_value(function, key);
    if (binding->value == nullptr || binding->element) return {};
    return stored_value(function, key, *binding->stmt, binding->value, depth + 1);
  }

  // A parameter of a helper that the call being followed passes data to.
  Value parameter_value(const Function& function, std::string_view name) const {
    auto it = arguments_.find(&function);
    if (it == arguments_.end()) return {};
    for (const auto& [param, value] : it->second) {
      if (param == name) return value;
    }
    return {};
  }

  // Is the item `expr` a small shared object (an int label, a bool, a constant), evidently a new
  // object (a string, a tuple, a path), or unknown?
  Items item_kind(const Function& function, const Expr& expr, uint32_t pos, int depth) {
    if (at_limit(depth)) return Items::Unknown;
    switch (expr.kind) {
      case ExprKind::Const: {
        // An f-string makes a new string; a literal is one shared constant.
        const std::string_view text = expr.text;
        const bool formatted = expr.const_kind == ir::ConstKind::Str &&
                               text.find_first_of("fF") < text.find_first_of("'\"");
        return formatted ? Items::Objects : Items::Small;
      }
      case ExprKind::Compare:
        return Items::Small;
      case ExprKind::UnaryOp:
        return expr.text == "not" ? Items::Small
                                  : item_kind(function, *expr.items[0], pos, depth + 1);
      case ExprKind::BoolOp:
        return join(item_kind(function, *expr.items[0], pos, depth + 1),
                    item_kind(function, *expr.items[1], pos, depth + 1));
      case ExprKind::BinOp: {
        const Items lhs = item_kind(function, *expr.items[0], pos, depth + 1);
        const Items rhs = item_kind(function, *expr.items[1], pos, depth + 1);
        const auto is_str = [](const Expr* e) {
          return e->kind == ExprKind::Const && e->const_kind == ir::ConstKind::Str;
        };
        // `root + "/a.png"`, `folder / name`: a new string or path.
        if (is_str(expr.items[0]) || is_str(expr.items[1]) || expr.text == "/")
          return Items::Objects;
        if (lhs == Items::Objects || rhs == Items::Objects) return Items::Objects;
        return lhs == Items::Small && rhs == Items::Small ? Items::Small : Items::Unknown;
      }
      case ExprKind::Subscript: {
        // `self.class_to_idx[name]`: an entry of a small table.
        const std::string key = ir::place_key(expr.base());
        const size_t dot = key.rfind('.');
        if (!key.empty() && names_small_table(dot == std::string::npos ? key : key.substr(dot + 1)))
          return Items::Small;
        return Items::Unknown;
      }
      case ExprKind::Name: {
        const Binding* binding = binding_before(function, std::string(expr.text), pos);
        if (binding == nullptr || binding->value == nullptr || binding->element)
          return Items::Unknown;
        return item_kind(function, *binding->value, binding->pos, depth + 1);
      }
      case ExprKind::Call: {
        const Expr* callee = expr.callee();
        if (callee->kind == ExprKind::Name) {
          static constexpr std::array<std::string_view, 7> kSmall = {"int",  "len",   "bool", "ord",
                                                                     "hash", "round", "abs"};
          if (contains(kSmall, callee->text)) return Items::Small;
          if (analysis_.function_named(callee->text) != nullptr) return Items::Unknown;
          return Items::Objects;
        }
        if (callee->kind == ExprKind::Attr) {
          const std::string_view method = callee->text;
          if (method == "index" || method == "count" || method == "find") return Items::Small;
          if (method == "get") return item_kind(function, *callee, pos, depth + 1);
          if (self_method_call(function, expr) != nullptr) return Items::Unknown;
        }
        return Items::Objects;
      }
      case ExprKind::Attr: {
        // `self.class_to_idx.get(name)` reaches here through `get`.
        const std::string key = ir::place_key(expr.base());
        const size_t dot = key.rfind('.');
        if (!key.empty() && names_small_table(dot == std::string::npos ? key : key.substr(dot + 1)))
          return Items::Small;
        return Items::Unknown;
      }
      case ExprKind::Collection: {
        // `(None, None)`: a tuple of constants is one constant the compiler shares.
        const bool constant =
            expr.collection_kind == CollectionKind::Tuple &&
            std::all_of(expr.items.begin(), expr.items.end(),
                        [](const Expr* item) { return item->kind == ExprKind::Const; });
        return constant ? Items::Small : Items::Objects;
      }
      case ExprKind::Comprehension:
        return Items::Objects;
      case ExprKind::IfExp:
        return join(item_kind(function, *expr.items[0], pos, depth + 1),
                    item_kind(function, *expr.items[2], pos, depth + 1));
      case ExprKind::Starred:
      case ExprKind::Lambda:
      case ExprKind::Await:
      case ExprKind::NamedExpr:
      case ExprKind::Slice:
      case ExprKind::Other:
        return Items::Unknown;
    }
    return Items::Unknown;
  }

  // The items a fill adds: one item for `append(x)`, those of an iterable for `extend(xs)`.
  Items added_items(const Function& function, const Stmt& stmt, const Added& added, int depth) {
    const uint32_t pos = stmt.range.begin;
    if (added.key != nullptr)
      return join(item_kind(function, *added.key, pos, depth + 1),
                  item_kind(function, *added.value, pos, depth + 1));
    if (!added.many) return item_kind(function, *added.value, pos, depth + 1);
    const Value value = classify(function, *added.value, pos, depth + 1);
    if (is_data(value)) return value.items;
    if (added.value->kind == ExprKind::Collection || added.value->kind == ExprKind::Comprehension) {
      Items items = added.value->items.empty() ? Items::Unknown : Items::Small;
      for (const Expr* item : added.value->items)
        items = join(items, item_kind(function, *item, pos, depth + 1));
      return items;
    }
    return Items::Unknown;
  }

  // The first statement after `after` in `function` that adds the data to the container `key`:
  // inside a loop over the data, or adding data itself (`paths.extend(glob(...))`). Follows
  // `self.helper()` calls one level for `self.` places.
  Fill find_fill(const Function& function, const std::string& key, uint32_t after, int depth) {
    Fill found;
    if (at_limit(depth)) return found;
    ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
      if (found.stmt != nullptr || stmt.range.begin <= after || ++steps_ > kMaxSteps) return;
      if (const std::optional<Added> added = fill_value(stmt, key)) {
        bool in_data_loop = false;
        for (const Stmt* loop : where.loops) {
          if (loop->loop_kind != ir::LoopKind::For || loop->value == nullptr) continue;
          in_data_loop = in_data_loop ||
                         is_data(classify(function, *loop->value, loop->range.begin, depth + 1));
        }
        if (in_data_loop || (added->many && is_data(classify(function, *added->value,
                                                             stmt.range.begin, depth + 1)))) {
          found = {&stmt, added_items(function, stmt, *added, depth + 1), key};
          return;
        }
      }
      // `self._scan(root)` filling `self.items` in the helper.
      const std::string_view self = self_name(function);
      if (self.empty() || ir::place_root(key) != self || stmt.kind != StmtKind::ExprStmt ||
          stmt.value == nullptr)
        return;
      const Function* helper = self_method_call(function, *stmt.value);
      if (helper == nullptr) return;
      const std::string_view helper_self = self_name(*helper);
      if (helper_self.empty()) return;
      const std::string helper_key = std::string(helper_self) + key.substr(self.size());
      found = find_fill(*helper, helper_key, 0, depth + 2);
    });
    return found;
  }

  // What `stmt` adds to the container `key` (`key.append(v)`, `key[k] = v`, `key += v`).
  static std::optional<Added> fill_value(const Stmt& stmt, const std::string& key) {
    const std::string item_prefix = key + "[";
    if (stmt.kind == StmtKind::AugAssign && stmt.targets.size() == 1 &&
        (stmt.text == "+=" || stmt.text == "|=") && ir::place_key(stmt.targets[0]) == key) {
      return Added{stmt.value, nullptr, true};
    }
    if (stmt.kind == StmtKind::Assign && stmt.value != nullptr) {
      for (const Expr* target : stmt.targets) {
        // `d[k] = v` with a key that changes: the dict grows.
        if (target->kind == ExprKind::Subscript && target->items.size() == 2 &&
            target->items[1]->kind != ExprKind::Const &&
            target->items[1]->kind != ExprKind::Slice && ir::place_key(target->base()) == key) {
          return Added{stmt.value, target->items[1], false};
        }
      }
    }
    std::optional<Added> added;
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (added || call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr ||
          call.arg_count() == 0)
        return;
      const std::string_view method = call.callee()->text;
      const knowledge::ContainerStore* store = knowledge::container_store(method);
      if (store == nullptr) return;
      const std::string receiver = ir::place_key(call.callee()->base());
      if (receiver != key && !receiver.starts_with(item_prefix)) return;
      if (method == "setdefault") {
        // `d.setdefault(k, []).append(v)`: a list per key.
        added = Added{&call, nullptr, false};
      } else if (call.arg_count() > store->value_arg) {
        added = Added{call.arg(store->value_arg), nullptr, store->spreads};
      } else {
        added = Added{call.arg(0), nullptr, store->spreads};
      }
    });
    return added;
  }

  // The data a file's own function or method returns (`self.make_dataset(root)`), with the data
  // the call passes bound to its parameters.
  Value classify_returns(const Function& caller, const Function& callee, const Expr& call,
                         uint32_t pos, int depth) {
    if (at_limit(depth)) return {};
    std::vector<std::pair<std::string_view, Value>> arguments;
    const size_t first = self_name(callee).empty() ? 0 : 1;
    for (size_t i = 0; i < call.arg_count() && first + i < callee.params.size(); ++i) {
      const Value value = classify(caller, *call.arg(i), pos, depth + 1);
      if (is_data(value) || value.data == Data::Text)
        arguments.emplace_back(callee.params[first + i].name, value);
    }
    for (const ir::Keyword& keyword : call.keywords) {
      if (keyword.name.empty() || keyword.value == nullptr) continue;
      const Value value = classify(caller, *keyword.value, pos, depth + 1);
      if (is_data(value) || value.data == Data::Text) arguments.emplace_back(keyword.name, value);
    }
    auto saved = arguments_.find(&callee) == arguments_.end() ? std::nullopt
                                                              : std::optional(arguments_[&callee]);
    arguments_[&callee] = std::move(arguments);
    Value out;
    ir::for_each_nested(callee.body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
      out = join(out, classify(callee, *stmt.value, stmt.range.begin, depth + 1));
    });
    if (saved) {
      arguments_[&callee] = std::move(*saved);
    } else {
      arguments_.erase(&callee);
    }
    return out;
  }

  bool any_arg_is_data(const Function& function, const Expr& call, uint32_t pos, int depth,
                       Items& items) {
    bool any = false;
    for (size_t i = 0; i < call.arg_count(); ++i) {
      const Value arg = classify(function, *call.arg(i), pos, depth + 1);
      if (!is_data(arg)) continue;
      items = any ? join(items, arg.items) : arg.items;
      any = true;
    }
    return any;
  }

  Value classify_call(const Function& function, const Expr& call, uint32_t pos, int depth) {
    if (at_limit(depth)) return {};
    const Expr* callee = call.callee();
    const std::string q = ir::qualified_name(module_, callee);
    const Expr* first = call.arg(0);
    const auto first_value = [&]() {
      return first == nullptr ? Value{} : classify(function, *first, pos, depth + 1);
    };
    // Functions and methods of the file: what they return.
    if (callee->kind == ExprKind::Name && !analysis_.is_import_alias(callee->text)) {
      if (const Function* helper = analysis_.function_named(callee->text))
        return classify_returns(function, *helper, call, pos, depth + 1);
      if (analysis_.class_named(callee->text) != nullptr) return {};
    }
    if (const Function* helper = self_method_call(function, call))
      return classify_returns(function, *helper, call, pos, depth + 1);

    // Builtins.
    if (q == "list" || q == "sorted" || q == "tuple" || q == "set" || q == "frozenset" ||
        q == "dict" || q == "collections.OrderedDict") {
      const Value arg = first_value();
      // Not data; or the characters of a string, a small alphabet.
      if (!is_data(arg)) return {};
      if (q == "tuple") return objects(Shape::Tuple, arg.items);
      if (q == "set" || q == "frozenset") return objects(Shape::Set, arg.items);
      if (q == "dict" || q == "collections.OrderedDict") return objects(Shape::Dict, arg.items);
      return objects(Shape::List, arg.items);
    }
    if (q == "enumerate" || q == "zip") {
      Items items = Items::Unknown;
      return any_arg_is_data(function, call, pos, depth, items) ? source(Items::Objects) : Value{};
    }
    if (q == "reversed" || q == "iter" || q == "filter" || q == "map" || q == "itertools.chain" ||
        q == "itertools.chain.from_iterable" || q == "itertools.islice" ||
        last_component(q) == "tqdm") {
      Items items = Items::Unknown;
      if (!any_arg_is_data(function, call, pos, depth, items)) return {};
      return source(q == "map" ? Items::Unknown : items);
    }
    if (q == "range") {
      // `range(len(lines))`: one index per item of the data, ints beyond the shared small ones.
      for (size_t i = 0; i < call.arg_count(); ++i) {
        const Expr* arg = call.arg(i);
        if (arg->kind == ExprKind::Call && arg->callee()->kind == ExprKind::Name &&
            arg->callee()->text == "len" && arg->arg_count() == 1 &&
            is_data(classify(function, *arg->arg(0), pos, depth + 1))) {
          return source(Items::Objects);
        }
      }
      return {};
    }
    if (q == "copy.copy" || q == "copy.deepcopy") return first_value();
    // Files, listings and parsers.
    static constexpr std::array<std::string_view, 7> kOpen = {
        "open", "io.open", "gzip.open", "bz2.open", "lzma.open", "codecs.open", "builtins.open"};
    if (contains(kOpen, q)) return source(Items::Objects);
    if (q == "glob.glob" || q == "os.listdir" || q == "fnmatch.filter")
      return objects(Shape::List, Items::Objects);
    if (q == "glob.iglob" || q == "os.scandir" || q == "os.walk" || q == "csv.reader" ||
        q == "csv.DictReader") {
      return source(Items::Objects);
    }
    if (q == "h5py.File" || q.starts_with("pandas.read_") || q == "numpy.load" ||
        q == "numpy.loadtxt" || q == "numpy.genfromtxt" || q == "numpy.fromfile" ||
        q == "numpy.memmap") {
      return source(Items::Unknown);
    }
    static constexpr std::array<std::string_view, 12> kLoaders = {
        "json.load",        "json.loads",   "pickle.load",  "pickle.loads",
        "ujson.load",       "ujson.loads",  "orjson.loads", "simplejson.load",
        "simplejson.loads", "_pickle.load", "cPickle.load", "dill.load"};
    // pycocotools' COCO index: dicts of every image and annotation.
    if (contains(kLoaders, q) || q == "pycocotools.coco.COCO")
      return objects(Shape::Loaded, Items::Objects);

    // Methods.
    if (callee->kind != ExprKind::Attr) return {};
    const std::string_view method = callee->text;
    const Expr* receiver = callee->base();
    if (method == "readlines") return objects(Shape::List, Items::Objects);
    if (method == "read" || method == "read_text" || method == "read_bytes")
      return {Data::Text, Shape::List, Items::Unknown, nullptr, {}};
    if (method == "glob" || method == "rglob" || method == "iterdir" || method == "iterrows" ||
        method == "itertuples") {
      return source(Items::Objects);
    }
    const Value base = classify(function, *receiver, pos, depth + 1);
    if (base.data == Data::Text) {
      if (method == "split" || method == "splitlines") return objects(Shape::List, Items::Objects);
      if (method == "strip" || method == "lower" || method == "upper" || method == "replace" ||
          method == "decode" || method == "rstrip" || method == "lstrip") {
        return base;
      }
      return {};
    }
    if (!is_data(base)) return {};
    if (method == "tolist" || method == "to_list")
      return objects(Shape::List, base.data == Data::Objects ? base.items : Items::Unknown);
    if (method == "to_dict") return objects(Shape::Dict, Items::Unknown);
    if (method == "copy") return base;
    if (method == "items") return source(Items::Objects);
    static constexpr std::array<std::string_view, 19> kViews = {"keys",
                                                                "values",
                                                                "get",
                                                                "to_numpy",
                                                                "sort_values",
                                                                "reset_index",
                                                                "dropna",
                                                                "drop",
                                                                "query",
                                                                "sample",
                                                                "head",
                                                                "tail",
                                                                "fillna",
                                                                "astype",
                                                                "groupby",
                                                                "merge",
                                                                "drop_duplicates",
                                                                "reindex",
                                                                "set_index"};
    if (contains(kViews, method)) return source(base.items);
    return {};
  }

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  const ClassDef* self_class_ = nullptr;
  std::unordered_map<const Function*, BindingIndex> bindings_;
  std::map<std::tuple<const Function*, std::string, uint32_t>, Value> stored_;
  size_t steps_ = 0;
  bool cut_ = false;  // a depth limit cut the value being computed short
  // While a call to a helper of the file is followed: its parameters that receive data.
  std::unordered_map<const Function*, std::vector<std::pair<std::string_view, Value>>> arguments_;
};

// The bases that make a class a map-style dataset.
bool is_dataset_base(std::string_view q) {
  return q == "torch.utils.data.Dataset" || q == "torch.utils.data.dataset.Dataset" ||
         q == "torchvision.datasets.VisionDataset" ||
         q == "torchvision.datasets.vision.VisionDataset";
}

bool is_map_dataset(const ir::Module& module, const ir::FileAnalysis& analysis, const ClassDef& cls,
                    size_t hops = 0) {
  if (hops > module.classes().size()) return false;
  for (const Expr* base : cls.bases) {
    // `Dataset[int]`.
    if (base->kind == ExprKind::Subscript) base = base->base();
    if (base->kind == ExprKind::Name) {
      if (const ClassDef* parent = analysis.class_named(base->text)) {
        if (parent != &cls && is_map_dataset(module, analysis, *parent, hops + 1)) return true;
        continue;
      }
    }
    if (is_dataset_base(ir::qualified_name(module, base))) return true;
  }
  return false;
}

// Finds the DataLoaders of the file that start worker processes, and the dataset classes of the
// file each one loads.
class LoaderScan {
 public:
  LoaderScan(const ir::Module& module, const ir::FileAnalysis& analysis)
      : module_(module), analysis_(analysis), flow_(module, analysis) {}

  // The DataLoader with workers that loads each dataset class: a literal count first.
  std::unordered_map<const ClassDef*, LoaderUse> loaders() {
    std::unordered_map<const ClassDef*, LoaderUse> out;
    const auto record = [&](const std::vector<const ClassDef*>& classes, const Expr& call,
                            const Workers& workers, const Expr* via) {
      // num_workers=0, or none: the main process loads the data.
      if (workers.count == Workers::Count::Zero) return;
      for (const ClassDef* cls : classes) {
        auto [it, inserted] = out.try_emplace(cls, LoaderUse{&call, workers, via});
        if (!inserted && it->second.workers.count == Workers::Count::Unknown &&
            workers.count == Workers::Count::Positive) {
          it->second = {&call, workers, via};
        }
      }
    };
    for (const Function& function : module_.functions()) {
      ir::for_each_nested(function.body, [&](const Stmt& stmt) {
        ir::for_each_expr(stmt, [&](const Expr& call) {
          if (call.kind != ExprKind::Call || !is_data_loader(call)) return;
          const Expr* dataset = call.keyword("dataset");
          if (dataset == nullptr) dataset = call.arg(0);
          if (dataset == nullptr) return;
          // `def make_loader(dataset, workers): return DataLoader(dataset, num_workers=workers)`:
          // each call of the file pairs a dataset with a worker count.
          const std::optional<size_t> param = unbound_parameter(function, *dataset, call);
          if (param && !call_sites(function).empty()) {
            for (const CallSite& site : call_sites(function)) {
              bool unknown = false;
              const Expr* arg = argument_for(function, *site.call, *param, unknown);
              if (arg == nullptr) continue;
              std::vector<const ClassDef*> classes;
              dataset_classes(*site.caller, *arg, site.call->range.begin, 1, classes);
              pinned_ = &site;
              pinned_function_ = &function;
              const Workers workers = workers_of(function, call);
              pinned_ = nullptr;
              pinned_function_ = nullptr;
              record(classes, call, workers, site.call);
            }
            return;
          }
          std::vector<const ClassDef*> classes;
          dataset_classes(function, *dataset, call.range.begin, 0, classes);
          record(classes, call, workers_of(function, call), nullptr);
        });
      });
    }
    return out;
  }

 private:
  struct CallSite {
    const Function* caller = nullptr;
    const Expr* call = nullptr;
  };

  // The calls of the file that reach `callee`.
  const std::vector<CallSite>& call_sites(const Function& callee) {
    if (!calls_indexed_) {
      calls_indexed_ = true;
      for (const Function& caller : module_.functions()) {
        ir::for_each_nested(caller.body, [&](const Stmt& stmt) {
          ir::for_each_expr(stmt, [&](const Expr& call) {
            if (call.kind != ExprKind::Call) return;
            if (const Function* target = analysis_.resolve_callee(caller, call))
              calls_[target].push_back({&caller, &call});
          });
        });
      }
    }
    static const std::vector<CallSite> kNone;
    auto it = calls_.find(&callee);
    return it == calls_.end() ? kNone : it->second;
  }

  // The argument `call` passes to parameter `index` of `callee`; `unknown` when a `*args` or
  // `**kwargs` may pass it.
  static const Expr* argument_for(const Function& callee, const Expr& call, size_t index,
                                  bool& unknown) {
    unknown = false;
    const size_t first = DataFlow::self_name(callee).empty() ? 0 : 1;
    if (index < first) return nullptr;
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (call.arg(i)->kind == ExprKind::Starred) {
        unknown = true;
        return nullptr;
      }
      if (i == index - first) return call.arg(i);
    }
    for (const ir::Keyword& keyword : call.keywords) {
      if (keyword.name == callee.params[index].name) return keyword.value;
      if (keyword.name.empty()) unknown = true;
    }
    return nullptr;
  }

  // The parameter `expr` names at `call`, when nothing in the function rebinds it before.
  std::optional<size_t> unbound_parameter(const Function& function, const Expr& expr,
                                          const Expr& call) {
    if (expr.kind != ExprKind::Name ||
        flow_.binding_before(function, std::string(expr.text), call.range.begin) != nullptr)
      return std::nullopt;
    return parameter_index(function, expr.text);
  }

  static std::optional<size_t> parameter_index(const Function& function, std::string_view name) {
    for (size_t i = 0; i < function.params.size(); ++i) {
      if (function.params[i].name == name) return i;
    }
    return std::nullopt;
  }

  bool is_data_loader(const Expr& call) const {
    const Expr* callee = call.callee();
    // The file's own `DataLoader` class or function.
    if (callee->kind == ExprKind::Name && (analysis_.class_named(callee->text) != nullptr ||
                                           analysis_.function_named(callee->text) != nullptr))
      return false;
    return last_component(ir::qualified_name(module_, callee)) == "DataLoader";
  }

  // num_workers: the keyword, the sixth positional argument, or a `**kwargs` dict literal.
  Workers workers_of(const Function& function, const Expr& call) {
    // Spawned or forkserver workers unpickle their own copy at start: no copy-on-read.
    if (const Expr* context = call.keyword("multiprocessing_context")) {
      if (context->kind != ExprKind::Const || context->text.find("fork") == std::string::npos ||
          context->text.find("forkserver") != std::string::npos) {
        return {};
      }
    }
    const Expr* value = call.keyword("num_workers");
    if (value == nullptr && call.arg_count() >= 6) {
      // `DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers)`, unless
      // a `*args` shifts the positions.
      bool starred = false;
      for (size_t i = 0; i < 6; ++i) starred = starred || call.arg(i)->kind == ExprKind::Starred;
      if (!starred) value = call.arg(5);
    }
    if (value == nullptr) {
      for (const ir::Keyword& keyword : call.keywords) {
        // `**loader_kwargs`.
        if (!keyword.name.empty() || keyword.value == nullptr ||
            keyword.value->kind != ExprKind::Starred || keyword.value->base() == nullptr)
          continue;
        value = dict_entry(function, *keyword.value->base(), call.range.begin);
        if (value != nullptr) break;
      }
    }
    // No num_workers: the default is 0, the main process loads the data.
    if (value == nullptr) return {};
    Workers workers = count_of(function, *value, call.range.begin, 0);
    workers.expr = value;
    return workers;
  }

  // The "num_workers" entry of the dict a `**name` unpacks, when it is a literal of the file.
  const Expr* dict_entry(const Function& function, const Expr& expr, uint32_t pos) {
    const Expr* dict = &expr;
    if (dict->kind == ExprKind::Name) {
      const Binding* binding = flow_.binding_before(function, std::string(dict->text), pos);
      if (binding == nullptr || binding->value == nullptr || binding->element) return nullptr;
      dict = binding->value;
    }
    if (dict->kind == ExprKind::Collection && dict->collection_kind == CollectionKind::Dict) {
      for (size_t i = 0; i + 1 < dict->items.size(); i += 2) {
        const Expr* key = dict->items[i];
        if (key->kind == ExprKind::Const && key->const_kind == ir::ConstKind::Str &&
            key->text.find("num_workers") != std::string_view::npos) {
          return dict->items[i + 1];
        }
      }
    }
    if (dict->kind == ExprKind::Call && ir::qualified_name(module_, dict->callee()) == "dict")
      return dict->keyword("num_workers");
    return nullptr;
  }

  static Workers unknown_count() {
    Workers out;
    out.count = Workers::Count::Unknown;
    return out;
  }

  Workers count_of(const Function& function, const Expr& value, uint32_t pos, int depth) {
    if (depth > 8) return unknown_count();
    switch (value.kind) {
      case ExprKind::Const: {
        if (value.const_kind != ir::ConstKind::Int) return {};
        long long n = 0;
        for (char c : value.text) {
          if (c < '0' || c > '9' || n > 1'000'000) return unknown_count();
          n = n * 10 + (c - '0');
        }
        if (n <= 0) return {};
        Workers out;
        out.count = Workers::Count::Positive;
        out.n = n;
        return out;
      }
      case ExprKind::UnaryOp:
        // `-1`: not a worker count DataLoader accepts.
        return value.text == "-" ? Workers{} : unknown_count();
      case ExprKind::IfExp: {
        const Workers a = count_of(function, *value.items[0], pos, depth + 1);
        const Workers b = count_of(function, *value.items[2], pos, depth + 1);
        if (a.count == Workers::Count::Zero && b.count == Workers::Count::Zero) return {};
        return unknown_count();
      }
      case ExprKind::Name:
        return name_count(function, value.text, pos, depth);
      case ExprKind::Attr:
      case ExprKind::Call:
      case ExprKind::BinOp:
      case ExprKind::BoolOp:
      case ExprKind::Compare:
      case ExprKind::Collection:
      case ExprKind::Comprehension:
      case ExprKind::Subscript:
      case ExprKind::Starred:
      case ExprKind::Lambda:
      case ExprKind::Await:
      case ExprKind::NamedExpr:
      case ExprKind::Slice:
      case ExprKind::Other:
        return unknown_count();
    }
    return unknown_count();
  }

  // A name: its binding before `pos`, a parameter (what the file's calls pass, else its
  // default), or a module-level constant (`NUM_WORKERS = 8`).
  Workers name_count(const Function& function, std::string_view name, uint32_t pos, int depth) {
    const std::string key(name);
    if (const Binding* binding = flow_.binding_before(function, key, pos)) {
      if (binding->value == nullptr || binding->element) return unknown_count();
      return count_of(function, *binding->value, binding->pos, depth + 1);
    }
    if (function.is_module) return unknown_count();
    if (const std::optional<size_t> index = parameter_index(function, name)) {
      const ir::Param& param = function.params[*index];
      std::vector<CallSite> sites = call_sites(function);
      // The call that passed the dataset passes the count too.
      if (pinned_ != nullptr && pinned_function_ == &function) sites = {*pinned_};
      const auto by_default = [&]() {
        if (param.default_value == nullptr) return unknown_count();
        const Workers fallback = count_of(function, *param.default_value, pos, depth + 1);
        // A default above 0 that no call of the file confirms: say "when".
        return fallback.count == Workers::Count::Zero ? fallback : unknown_count();
      };
      if (sites.empty()) return by_default();
      Workers joined;
      for (const CallSite& site : sites) {
        bool unknown = false;
        const Expr* arg = argument_for(function, *site.call, *index, unknown);
        const Workers count = unknown ? unknown_count()
                              : arg == nullptr
                                  ? by_default()
                                  : count_of(*site.caller, *arg, site.call->range.begin, depth + 1);
        if (count.count == Workers::Count::Positive) return count;
        if (count.count == Workers::Count::Unknown) joined = count;
      }
      return joined;
    }
    const Function* top = function.parent_function;
    while (top != nullptr && !top->is_module) top = top->parent_function;
    if (top == nullptr) top = &module_.top_level();
    const Binding* binding = flow_.binding_before(*top, key, UINT32_MAX);
    if (binding == nullptr || binding->value == nullptr || binding->element) return unknown_count();
    return count_of(*top, *binding->value, binding->pos, depth + 1);
  }

  // The dataset classes of the file an expression may hold: `MyDataset(...)`, a name bound to
  // one, `self.train_set`, a parameter the file's calls pass one to, `Subset(ds, idx)`,
  // `random_split(ds, ...)`, `ConcatDataset([...])`.
  void dataset_classes(const Function& function, const Expr& expr, uint32_t pos, int depth,
                       std::vector<const ClassDef*>& out) {
    if (depth > 8) return;
    const ir::Fact& fact = analysis_.fact(expr);
    if (fact.instance_of != nullptr && fact.kind == ir::ValueKind::Instance) {
      out.push_back(fact.instance_of);
      return;
    }
    switch (expr.kind) {
      case ExprKind::Call: {
        const Expr* callee = expr.callee();
        if (callee->kind == ExprKind::Name) {
          if (const ClassDef* cls = analysis_.class_named(callee->text)) {
            out.push_back(cls);
            return;
          }
        }
        // The qualified name must outlive `last`, a view into it.
        const std::string qualified = ir::qualified_name(module_, callee);
        const std::string_view last = last_component(qualified);
        if (last == "Subset" || last == "random_split" || last == "ConcatDataset") {
          for (size_t i = 0; i < expr.arg_count(); ++i)
            dataset_classes(function, *expr.arg(i), pos, depth + 1, out);
          if (const Expr* ds = expr.keyword("dataset"))
            dataset_classes(function, *ds, pos, depth + 1, out);
        }
        return;
      }
      case ExprKind::Collection:
        for (const Expr* item : expr.items) dataset_classes(function, *item, pos, depth + 1, out);
        return;
      case ExprKind::IfExp:
        dataset_classes(function, *expr.items[0], pos, depth + 1, out);
        dataset_classes(function, *expr.items[2], pos, depth + 1, out);
        return;
      case ExprKind::Name:
      case ExprKind::Attr:
        place_classes(function, expr, pos, depth, out);
        return;
      case ExprKind::Const:
      case ExprKind::BinOp:
      case ExprKind::UnaryOp:
      case ExprKind::BoolOp:
      case ExprKind::Compare:
      case ExprKind::Subscript:
      case ExprKind::Comprehension:
      case ExprKind::Starred:
      case ExprKind::Lambda:
      case ExprKind::Await:
      case ExprKind::NamedExpr:
      case ExprKind::Slice:
      case ExprKind::Other:
        return;
    }
  }

  void place_classes(const Function& function, const Expr& expr, uint32_t pos, int depth,
                     std::vector<const ClassDef*>& out) {
    const std::string key = ir::place_key(&expr);
    if (key.empty()) return;
    if (const Binding* binding = flow_.binding_before(function, key, pos)) {
      if (binding->value != nullptr)
        dataset_classes(function, *binding->value, binding->pos, depth + 1, out);
      return;
    }
    const std::string_view self = DataFlow::self_name(function);
    if (expr.kind == ExprKind::Name) {
      // `DataLoader(self, ...)` in a method of the dataset class.
      if (!self.empty() && expr.text == self) {
        out.push_back(function.parent_class);
        return;
      }
      // `def make_loader(dataset): return DataLoader(dataset, ...)`: what the calls pass.
      const std::optional<size_t> index = parameter_index(function, expr.text);
      if (!index) return;
      for (const CallSite& site : call_sites(function)) {
        bool unknown = false;
        if (const Expr* arg = argument_for(function, *site.call, *index, unknown))
          dataset_classes(*site.caller, *arg, site.call->range.begin, depth + 1, out);
      }
      return;
    }
    // `self.train_set` bound in another method of the class (`setup()`).
    if (self.empty() || ir::place_root(key) != self) return;
    for (const Function* method : function.parent_class->methods) {
      const std::string_view other_self = DataFlow::self_name(*method);
      if (other_self.empty()) continue;
      const std::string other_key = std::string(other_self) + key.substr(self.size());
      const Binding* binding = flow_.binding_before(*method, other_key, UINT32_MAX);
      if (binding != nullptr && binding->value != nullptr)
        dataset_classes(*method, *binding->value, binding->pos, depth + 1, out);
    }
  }

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  DataFlow flow_;
  bool calls_indexed_ = false;
  const CallSite* pinned_ = nullptr;
  const Function* pinned_function_ = nullptr;
  std::unordered_map<const Function*, std::vector<CallSite>> calls_;
};

class DatasetObjectLists final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Dataset and DataLoader are torch's: without torch there are no worker processes.
    if (!analysis.has_torch()) return;
    std::vector<const ClassDef*> datasets;
    for (const ClassDef& cls : module.classes()) {
      if (is_map_dataset(module, analysis, cls)) datasets.push_back(&cls);
    }
    // No map-style Dataset class in the file.
    if (datasets.empty()) return;
    LoaderScan scan(module, analysis);
    const std::unordered_map<const ClassDef*, LoaderUse> loaders = scan.loaders();
    std::unordered_set<const Stmt*> reported;
    for (const ClassDef* cls : datasets) {
      auto it = loaders.find(cls);
      // Never given to a DataLoader with workers in this file.
      if (it == loaders.end()) continue;
      check_dataset(module, analysis, *cls, it->second, reported, sink);
    }
  }

 private:
  // One `self.attr` store in `__init__` (or in a helper it calls), in execution order.
  struct Store {
    std::tuple<size_t, uint32_t, uint32_t> order;  // (class in the chain, base first; position)
    const Function* function = nullptr;
    const Stmt* stmt = nullptr;
    const Expr* value = nullptr;  // nullptr for `del self.attr` and tuple unpacking
    std::string key;
    std::string_view attr;
  };

  static void collect_stores(DataFlow& flow, const Function& function, size_t rank, uint32_t outer,
                             bool follow_helpers, std::vector<Store>& out) {
    const std::string_view self = DataFlow::self_name(function);
    if (self.empty()) return;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      const uint32_t pos = stmt.range.begin;
      const auto order =
          follow_helpers ? std::make_tuple(rank, pos, 0U) : std::make_tuple(rank, outer, pos);
      for (const Expr* target : stmt.targets) {
        const bool stores = stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AnnAssign ||
                            stmt.kind == StmtKind::Del;
        if (!stores) break;
        const bool plain = target->kind == ExprKind::Attr;
        std::vector<const Expr*> attrs;
        if (plain) {
          attrs.push_back(target);
        } else if (target->kind == ExprKind::Collection) {
          attrs.insert(attrs.end(), target->items.begin(), target->items.end());
        }
        for (const Expr* attr : attrs) {
          if (attr->kind != ExprKind::Attr || attr->base()->kind != ExprKind::Name ||
              attr->base()->text != self)
            continue;
          out.push_back({order, &function, &stmt,
                         plain && stmt.kind != StmtKind::Del ? stmt.value : nullptr,
                         ir::place_key(attr), attr->text});
        }
      }
      if (!follow_helpers || stmt.kind != StmtKind::ExprStmt || stmt.value == nullptr) return;
      if (const Function* helper = flow.self_method_call(function, *stmt.value))
        collect_stores(flow, *helper, rank, pos, false, out);
    });
  }

  void check_dataset(const ir::Module& module, const ir::FileAnalysis& analysis,
                     const ClassDef& cls, const LoaderUse& loader,
                     std::unordered_set<const Stmt*>& reported, DiagnosticSink& sink) const {
    DataFlow flow(module, analysis);
    flow.set_self_class(&cls);
    // Every in-file __init__ up the class chain runs (through super().__init__()).
    std::vector<const Function*> inits;
    const ClassDef* current = &cls;
    for (size_t hops = 0; current != nullptr && hops <= module.classes().size(); ++hops) {
      for (const Function* method : current->methods) {
        if (method->name == "__init__") inits.push_back(method);
      }
      const ClassDef* next = nullptr;
      for (const Expr* base : current->bases) {
        if (base->kind == ExprKind::Name) next = analysis.class_named(base->text);
        if (next != nullptr) break;
      }
      current = next;
    }
    // A base class's __init__ runs first (`super().__init__()`): a subclass may convert what it
    // stored.
    std::vector<Store> stores;
    for (size_t i = 0; i < inits.size(); ++i)
      collect_stores(flow, *inits[i], inits.size() - i, 0, true, stores);
    std::stable_sort(stores.begin(), stores.end(),
                     [](const Store& a, const Store& b) { return a.order < b.order; });
    // The last store of each attribute is what the workers see.
    std::vector<const Store*> last;
    for (const Store& store : stores) {
      auto it = std::find_if(last.begin(), last.end(),
                             [&](const Store* s) { return s->key == store.key; });
      if (it == last.end()) {
        last.push_back(&store);
      } else {
        *it = &store;
      }
    }
    for (const Store* store : last) {
      // Deleted, unpacked from a tuple, or named for classes/vocabularies/configuration.
      if (store->value == nullptr || names_small_table(store->attr)) continue;
      // Reported for another dataset class of the chain already.
      if (reported.contains(store->stmt)) continue;
      const Value value =
          flow.stored_value(*store->function, store->key, *store->stmt, store->value, 0);
      // Not a Python container built from the data.
      if (value.data != Data::Objects) continue;
      // Small ints, bools or constants: shared objects that no worker copies.
      if (value.items == Items::Small) continue;
      // Named for labels, most often class indices, and nothing shows the items are objects.
      if (value.items == Items::Unknown && names_labels(store->attr)) continue;
      reported.insert(store->stmt);
      report(module, cls, *store, value, loader, sink);
    }
  }

  static void report(const ir::Module& module, const ClassDef& dataset, const Store& store,
                     const Value& value, const LoaderUse& loader, DiagnosticSink& sink) {
    std::string_view what;
    std::string help;
    switch (value.shape) {
      case Shape::List:
      case Shape::Set:
      case Shape::Tuple:
        what = value.shape == Shape::List  ? "a Python list built from the data"
               : value.shape == Shape::Set ? "a Python set built from the data"
                                           : "a Python tuple built from the data";
        help =
            "keep the data in numpy arrays or tensors instead (`np.array(paths, dtype=np.bytes_)` "
            "for strings, one array per field for records), which workers read without copying";
        break;
      case Shape::Dict:
        what = "a Python dict built from the data";
        help =
            "keep keys and values in numpy arrays or tensors instead (index by position, or "
            "look keys up in a sorted array), which workers read without copying";
        break;
      case Shape::Loaded:
        what = "Python objects loaded from a file";
        help =
            "convert the records to numpy arrays or tensors (one array per field, "
            "`dtype=np.bytes_` for strings), or keep them serialized in one byte array and "
            "decode an item in `__getitem__`";
        break;
    }
    const Workers& workers = loader.workers;
    const std::string count = quote(module, *workers.expr).text;
    std::string message;
    if (workers.count == Workers::Count::Positive) {
      message = fmt::format(
          "`{}` holds {}; reading an object writes its reference count, so each of the {} "
          "DataLoader workers ends up with its own copy of the objects it reads",
          store.key, what, workers.n);
    } else {
      message = fmt::format(
          "`{}` holds {}; reading an object writes its reference count, so when `num_workers` "
          "(`{}`) > 0 each DataLoader worker ends up with its own copy of the objects it reads",
          store.key, what, count);
    }
    std::vector<Related> related;
    if (value.fill != nullptr)
      related.push_back({value.fill->range, fmt::format("`{}` is filled here", value.fill_key)});
    related.push_back({loader.call->range, fmt::format("`{}` is loaded here with `num_workers={}`",
                                                       dataset.name, count)});
    if (loader.via != nullptr) {
      related.push_back(
          {loader.via->range,
           fmt::format("`{}` passes the dataset here", quote(module, *loader.via->callee()).text)});
    }
    const SourceFile& file = module.file();
    if (file.position(workers.expr->range.begin).line !=
        file.position(loader.call->range.begin).line) {
      related.push_back({workers.expr->range, "`num_workers` is set here"});
    }
    sink.report(kInfo, store.stmt->range, std::move(message), std::move(help), std::move(related));
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl011_dataset_object_lists() {
  return std::make_unique<DatasetObjectLists>();
}

}  // namespace sealint::rules
