#pragma once
// Grad-flow over a whole file (DESIGN.md "Analyses"): for every expression, a Fact saying
// whether its value carries an autograd graph; for every function, a bounded summary of what
// it does with its parameters; which functions run with autograd off; which loops iterate
// training or evaluation steps. Built once per file, read by every rule.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/ir/binding_index.h"
#include "analyzer/ir/facts.h"
#include "analyzer/ir/foreign.h"
#include "analyzer/ir/ir.h"
#include "analyzer/ir/place_state.h"

// Declared, not included: every file that includes this header would otherwise recompile when
// the frameworks table changes.
namespace sealint::knowledge {
struct FrameworkHook;
}  // namespace sealint::knowledge

namespace sealint::ir {

// A function or method a call reaches: one of this file's, or one another file of the project
// defines (its summary only: no IR of that file is at hand).
struct Callee {
  const Function* local = nullptr;
  const ForeignFunction* foreign = nullptr;
  explicit operator bool() const { return local != nullptr || foreign != nullptr; }
  [[nodiscard]] std::string_view name() const {
    return local != nullptr     ? local->name
           : foreign != nullptr ? std::string_view(foreign->name)
                                : "";
  }
  // The parameter named `param` (a method's receiver is 0), or -1.
  [[nodiscard]] int param_index(std::string_view param) const;
};

// Calls `visit` with each argument of `call` that binds a parameter in `params` (bit p:
// parameter p of `callee`), positional ones first, then keywords by name. A method called on an
// object has its receiver as parameter 0, so its first argument binds `first_param` = 1; a
// plain function's binds 0. `visit` returns true to stop.
void for_each_argument_in(const Expr& call, const Callee& callee, size_t first_param,
                          uint32_t params, const std::function<bool(const Expr&)>& visit);

// The qualified name (through the file's imports) of the first base of `cls`, or of a class of
// the same file it derives from, that `matches`; empty when none does. Bounded by the number of
// classes, so a cycle of same-file bases (invalid Python) ends.
[[nodiscard]] std::string inherited_base(const Module& module, const ClassDef& cls,
                                         const std::function<bool(std::string_view)>& matches);

// The framework hook `function` overrides (knowledge/frameworks.h), or nullptr.
[[nodiscard]] const knowledge::FrameworkHook* framework_hook_of(const Module& module,
                                                                const Function& function);

// The name of the class a value is an instance of (this file's or another's), or empty.
[[nodiscard]] std::string_view class_name_of(const Fact& fact);

class FileAnalysis {
 public:
  // `project`, when given, answers for names the file imports from the other files of its
  // project; it must outlive the analysis.
  explicit FileAnalysis(const Module& module, const ProjectScope* project = nullptr);
  FileAnalysis(const FileAnalysis&) = delete;
  FileAnalysis& operator=(const FileAnalysis&) = delete;

  const Module& module() const { return module_; }
  // The other files of the project, or nullptr without project scope.
  const ProjectScope* project() const { return project_; }
  // Some answer came from another file of the project: without it, the analysis would differ.
  bool used_project() const { return used_project_; }
  // Grad evidence needs torch code (semantic/torch_code.h): plain Python with a `loss` is not a
  // training script, and MXNet's `loss.backward()` is not torch's.
  bool has_torch() const { return torch_code_; }

  const Fact& fact(const Expr& expr) const { return facts_[expr.id]; }
  const FunctionSummary& summary(const Function& function) const;
  const FunctionSummary& summary(const Callee& callee) const;
  // The kind every call of `function` in the file gives its parameter `param` by what it passes
  // (a module, a loss function, an optimizer, a loader: semantic/caller_kinds.cpp), or Unknown.
  ValueKind caller_param_kind(const Function& function, size_t param) const;
  // The class of the file that every call passing `param` built its argument from, or nullptr.
  const ClassDef* caller_param_class(const Function& function, size_t param) const;
  // Decorated with no_grad/inference_mode, or every call site in the file runs without grad.
  bool runs_without_grad(const Function& function) const;
  // The loop runs training or evaluation steps: it calls backward or an optimizer step (also
  // through functions of the file), iterates a data loader, or computes a loss with autograd on
  // in its body outside a module's own methods (a loop over batches whatever they are called),
  // or runs a model on its items there (`for item in items: kept.append(net(item))`).
  bool is_iteration_loop(const Stmt& loop) const;
  // The loop is a pass over data only because a model runs on its items: no loader, no loss,
  // no training in it. Summing or collecting its runs into a value the function returns may be
  // one pass's computation over its inputs, for the caller's backward.
  bool repeats_only_model_runs(const Stmt& loop) const;
  // The loop iterates a data loader (directly, or through enumerate/tqdm/zip/iter) or advances
  // one by hand with `next(it)`.
  bool iterates_data(const Stmt& loop) const;
  // The loop calls backward or an optimizer step (also through functions of the file).
  bool loop_trains(const Stmt& loop) const;
  // The call is a backward, an optimizer's step or zero_grad, `torch.autograd.grad`, or a
  // function or method of the file that trains.
  bool call_trains(const Expr& call) const;
  // Places whose graph a backward consumes in `function` (`loss.backward()`, `acc.backward()`,
  // `torch.stack(losses).sum().backward()`), and the places they were computed from.
  bool consumed_by_backward(const Function& function, std::string_view key) const;
  // The one resolver of calls to the file's own code (semantic/resolve.cpp). Every rule and
  // semantic fact that follows a call asks these, so that "which function runs" has one answer.
  //
  // The in-file method a call on `receiver` reaches, or nullptr.
  const Function* resolve_method(const Fact& receiver, std::string_view name) const;
  // The in-file function a call expression reaches (a top-level function, a method through the
  // receiver's class; a class constructor's __init__ is not followed), or nullptr.
  const Function* resolve_callee(const Function& caller, const Expr& call) const;
  // resolve_callee, or for `agent.act(state)` on a receiver nothing is known of, the one method
  // of that name among the file's classes (none when two classes define it).
  const Function* resolve_callee_or_unique_method(const Function& caller, const Expr& call) const;
  // `draw(it)`, `feed.pull()`: a call, in `caller`, of a function of the file that hands out the
  // next item of an iterator (semantic::returns_next_item), from syntax alone.
  bool draws_next_item(const Function& caller, const Expr& call) const;
  // resolve_callee, or an imported function (`compute_loss(...)`, `utils.step(...)`) or a method
  // of an imported class's instance that another file of the project defines.
  Callee resolve_callee_anywhere(const Function& caller, const Expr& call) const;
  // resolve_method, or the method of a class another file of the project defines.
  Callee resolve_method_anywhere(const Fact& receiver, std::string_view name) const;
  // The class or function another file of the project defines that `expr` (a name or a dotted
  // chain through the file's imports: `AverageMeter`, `meters.AverageMeter`) names.
  const ForeignClass* imported_class(const Expr* expr) const;
  const ForeignFunction* imported_function(const Expr* expr) const;
  // What calling an imported class makes: an instance, a module, or a loss module.
  Fact instance_of_imported(const ForeignClass& cls) const;
  // The method `name` an instance of `cls` runs: its own, or the nearest same-file base's.
  const Function* method_of(const ClassDef& cls, std::string_view name) const;
  // The class of the file `cls` derives from first (its first base naming one), or nullptr.
  const ClassDef* base_in_file(const ClassDef& cls) const;
  // Methods named `name` in the file's classes that derive (directly or not) from `cls`: what
  // `self.name()` written in `cls` runs instead on an instance of such a subclass.
  std::vector<const Function*> overrides_of(const ClassDef& cls, std::string_view name) const;
  // What `self.name(...)` written in a method of `cls` may run when a same-file subclass
  // overrides `name`: the method the class chain defines, unless it only marks the method
  // abstract (`raise NotImplementedError`, `pass`, `@abstractmethod`), and each override that is
  // not. Empty when no subclass overrides it (then `method_of` says what runs) or none is known.
  std::vector<const Function*> self_call_targets(const ClassDef& cls, std::string_view name) const;
  // The same for the call `self.name(...)` itself, by what its receiver is an instance of (an
  // instance's receiver, not a class's); empty for any other call.
  std::vector<const Function*> self_call_targets(const Expr& call) const;

  // Per class, each receiver attribute (`val_loss` of `self.val_loss`) that a method of the class
  // chain reads whole and then empties, with that method: computed once per class by
  // semantic/accumulators.cpp through `compute`, then answered from memory.
  using DrainedAttributes = std::unordered_map<std::string, const Function*>;
  const DrainedAttributes& drained_attributes(
      const ClassDef& cls, const std::function<DrainedAttributes()>& compute) const;

  // The kinds `function`'s own body gives its parameters (semantic/kinds_from_use.h, with what it
  // and its callers hand to a backward). Computed once per function, without walking it.
  const std::vector<ValueKind>& param_kinds_by_use(const Function& function) const;
  // The kinds the file's functions that `function` hands its parameters to give them by their
  // use (`fit(net, ...)` where fit runs `net(x)` into a backward): Unknown where none tells, or
  // two disagree.
  // Followed through the helpers it hands them on to, three deep.
  std::vector<ValueKind> callee_param_kinds(const Function& function) const;

  // The parts of what `function` returns that a caller in the file hands to a backward
  // (`value, _ = step(net, x, y); value.backward()`), and those it hands first to a loss
  // function as a prediction (`out, = run(net, x); F.l1_loss(out, y)`): -1 for the whole value,
  // else the tuple position. Computed for the whole file on first use; each sorted.
  struct ReturnedUse {
    std::vector<int> losses;
    std::vector<int> predictions;
  };
  const ReturnedUse& returned_use(const Function& function) const;
  // Part of returned_use: what a function returns from a callee of the file, the callee returns.
  void hand_returned_use_to_callees() const;

  // Where each name is bound in `function`, indexed on first use (binding_index.h).
  const BindingIndex& bindings(const Function& function) const;

  // What walking one function produced.
  struct FunctionState {
    FunctionSummary summary;
    bool walked = false;
    bool in_progress = false;
    std::vector<std::string>
        backward_places;  // places a backward consumes, and their sources, sorted
    std::vector<std::string> backward_graphs;  // places whose graph a backward is handed, sorted
    PlaceFacts final_state;
  };

 private:
  friend class GradWalker;
  void compute_no_grad_functions();
  void compute_caller_param_kinds();
  std::vector<ValueKind> handed_kinds(const Function& function, int depth) const;
  // resolve_callee from syntax alone (a function's name, `self.m()`), before facts exist.
  const Function* resolve_by_name(const Function& caller, const Expr& call) const;
  // The method a call `obj.m()` reaches when only one class of the file defines `m`, from syntax
  // alone; not for `self.m()` or a module's function (`np.m()`).
  const Function* unique_method_by_name(const Expr& call) const;
  FunctionState& ensure_walked(const Function& function) const;

  // The import path `expr` stands for, when its root name is an import; empty otherwise.
  std::string imported_path(const Expr* expr) const;

  const Module& module_;
  const ProjectScope* project_ = nullptr;
  mutable bool used_project_ = false;
  bool torch_code_ = false;
  mutable std::vector<Fact> facts_;
  mutable std::unordered_map<const Function*, std::unique_ptr<FunctionState>> functions_;
  mutable std::unordered_map<const Stmt*, bool> iteration_loops_;
  mutable std::unordered_map<const Stmt*, bool> training_loops_;
  // Loops whose body computes a loss with autograd on, outside the methods of a module class.
  mutable std::unordered_map<const Stmt*, bool> model_run_loops_;
  // Loops whose body runs a model on the loop's items with autograd on, in the same places.
  mutable std::unordered_map<const Stmt*, bool> item_run_loops_;
  mutable std::unordered_map<const ClassDef*, DrainedAttributes> drained_attributes_;
  mutable std::optional<std::unordered_map<const Function*, ReturnedUse>> returned_uses_;
  mutable std::unordered_map<const Function*, std::vector<ValueKind>> use_kinds_;
  // callee_param_kinds: complete answers, and the functions being asked (a cycle of calls).
  mutable std::unordered_map<const Function*, std::vector<ValueKind>> handed_kinds_;
  mutable std::unordered_set<const Function*> handing_;
  mutable std::unordered_map<const Function*, bool> returns_next_item_;
  mutable std::unordered_map<const Function*, std::unique_ptr<BindingIndex>> binding_indexes_;
  std::unordered_map<const Function*, bool> no_grad_functions_;
  std::unordered_map<std::string_view, const Function*> functions_by_name_;
  std::unordered_map<std::string_view, const ClassDef*> classes_by_name_;
  // Each class's own methods by name (the first definition, as method_of always answered).
  std::unordered_map<const ClassDef*, std::unordered_map<std::string_view, const Function*>>
      methods_by_class_;
  // Every class's methods by name; null where two share the name.
  std::unordered_map<std::string_view, const Function*> unique_methods_;
  std::unordered_map<const ClassDef*, bool> module_classes_;
  std::unordered_map<const ClassDef*, std::unordered_map<std::string, Fact>> class_attrs_;
  std::unordered_map<std::string, Fact> globals_;
  std::unordered_map<const Function*, std::vector<ValueKind>> caller_param_kinds_;
  std::unordered_map<const Function*, std::vector<const ClassDef*>> caller_param_classes_;

 public:
  // Used by the walker: an instance of the class a parameter's annotation names (of the file,
  // or imported from the project); Unknown when it names none.
  Fact annotated_class(const Expr& annotation) const;
  // Used by the walker: what a constructor-like call or literal makes, from syntax alone.
  Fact classify_value(const Expr* value) const;
  bool is_module_class(const ClassDef* cls) const;
  const ClassDef* class_named(std::string_view name) const;
  const Function* function_named(std::string_view name) const;
  Fact class_attr(const ClassDef* cls, std::string_view attr) const;
  Fact global(std::string_view name) const;
  // Some assignment of the top level binds `name` (`model = torch.load(f)` after `import model`).
  bool binds_global(std::string_view name) const;
  bool is_import_alias(std::string_view name) const;
};

}  // namespace sealint::ir
