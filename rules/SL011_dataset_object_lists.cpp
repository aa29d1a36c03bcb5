// Flags a map-style Dataset that keeps its data in Python lists or dicts while DataLoader worker
// processes read it. docs: docs/rules/SL011.md
//
// The rule's parts live in rules/SL011/: the copy-on-read lattice (value.h), the data flow that
// classifies what a dataset stores (data_flow.cpp, items.cpp), the DataLoaders that start workers
// and the datasets they load (loaders.cpp, workers.cpp), and the wording (report.cpp).
#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/class_bases.h"
#include "rules/SL011/data_flow.h"
#include "rules/SL011/loaders.h"
#include "rules/SL011/report.h"
#include "rules/rule.h"

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
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;
using sl011::Data;
using sl011::DataFlow;
using sl011::Items;
using sl011::LoaderUse;
using sl011::Value;

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
    if (knowledge::is_map_dataset_base(ir::qualified_name(module, base))) return true;
  }
  return false;
}

// One `self.attr` store in `__init__` (or in a helper it calls), in execution order.
struct Store {
  std::tuple<size_t, uint32_t, uint32_t> order;  // (class in the chain, base first; position)
  const Function* function = nullptr;
  const Stmt* stmt = nullptr;
  const Expr* value = nullptr;  // nullptr for `del self.attr` and tuple unpacking
  std::string key;
  std::string_view attr;
};

void collect_stores(const DataFlow& flow, const Function& function, size_t rank, uint32_t outer,
                    bool follow_helpers, std::vector<Store>& out) {
  const std::string_view self = semantic::receiver_name(function);
  if (self.empty()) return;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    const uint32_t pos = stmt.range.begin;
    const auto order =
        follow_helpers ? std::make_tuple(rank, pos, 0U) : std::make_tuple(rank, outer, pos);
    const bool stores = stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AnnAssign ||
                        stmt.kind == StmtKind::Del;
    for (const Expr* target : stores ? stmt.targets : std::vector<Expr*>{}) {
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

// The last store of each attribute in the `__init__`s of the class chain: what the workers see.
std::vector<Store> last_stores(const ir::FileAnalysis& analysis, const ClassDef& cls,
                               const DataFlow& flow) {
  // Every in-file __init__ up the class chain runs (through super().__init__()).
  std::vector<const Function*> inits;
  for (const ClassDef* owner : semantic::same_file_chain(analysis, cls)) {
    for (const Function* method : owner->methods) {
      if (method->name == "__init__") inits.push_back(method);
    }
  }
  // A base class's __init__ runs first (`super().__init__()`): a subclass may convert what it
  // stored.
  std::vector<Store> stores;
  for (size_t i = 0; i < inits.size(); ++i)
    collect_stores(flow, *inits[i], inits.size() - i, 0, true, stores);
  std::stable_sort(stores.begin(), stores.end(),
                   [](const Store& a, const Store& b) { return a.order < b.order; });
  std::vector<Store> last;
  for (Store& store : stores) {
    auto it =
        std::find_if(last.begin(), last.end(), [&](const Store& s) { return s.key == store.key; });
    if (it == last.end()) {
      last.push_back(std::move(store));
    } else {
      *it = std::move(store);
    }
  }
  return last;
}

// `self.images[i % self.count]` in a method of the class chain: the dataset cycles through the
// container, repeating its items (few-shot and personalisation datasets repeat a few images or
// prompts to fill an epoch). What a worker copies of a few items is negligible.
bool read_cyclically(const ir::FileAnalysis& analysis, const ClassDef& cls, std::string_view attr) {
  bool cyclic = false;
  for (const ClassDef* owner : semantic::same_file_chain(analysis, cls)) {
    for (const Function* method : owner->methods) {
      const std::string_view self = semantic::receiver_name(*method);
      if (self.empty()) continue;
      ir::for_each_nested(method->body, [&](const Stmt& stmt) {
        if (cyclic) return;
        ir::for_each_expr(stmt, [&](const Expr& e) {
          cyclic = cyclic ||
                   (e.kind == ExprKind::Subscript && e.items.size() == 2 &&
                    e.items[1]->kind == ExprKind::BinOp && e.items[1]->text == "%" &&
                    e.base()->kind == ExprKind::Attr && e.base()->text == attr &&
                    e.base()->base()->kind == ExprKind::Name && e.base()->base()->text == self);
        });
      });
      if (cyclic) return true;
    }
  }
  return false;
}

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
    sl011::LoaderScan scan(module, analysis);
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
  static void check_dataset(const ir::Module& module, const ir::FileAnalysis& analysis,
                            const ClassDef& cls, const LoaderUse& loader,
                            std::unordered_set<const Stmt*>& reported, DiagnosticSink& sink) {
    DataFlow flow(module, analysis);
    flow.set_self_class(&cls);
    for (const Store& store : last_stores(analysis, cls, flow)) {
      // Deleted, unpacked from a tuple, or named for classes/vocabularies/configuration.
      if (store.value == nullptr || knowledge::is_small_table_name(store.attr)) continue;
      // Reported for another dataset class of the chain already.
      if (reported.contains(store.stmt)) continue;
      const Value value =
          flow.stored_value(*store.function, store.key, *store.stmt, store.value, 0);
      // Not a Python container built from the data.
      if (value.data != Data::Objects) continue;
      // Small ints, bools or constants: shared objects that no worker copies.
      if (value.items == Items::Small) continue;
      // Named for labels, most often class indices, and nothing shows the items are objects.
      if (value.items == Items::Unknown && knowledge::is_labels_name(store.attr)) continue;
      // Cycled through: a few items repeated.
      if (read_cyclically(analysis, cls, store.attr)) continue;
      reported.insert(store.stmt);
      sl011::report(module, cls.name, store.key, *store.stmt, value, loader, sink);
    }
  }
};

}  // namespace

const RuleInfo& sl011::info() {
  return kInfo;
}

std::unique_ptr<const Rule> make_sl011_dataset_object_lists() {
  return std::make_unique<DatasetObjectLists>();
}

}  // namespace sealint::rules
