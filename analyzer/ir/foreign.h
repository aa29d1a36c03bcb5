#pragma once
// What one file knows of the other files of its project (SEMANTIC.md "Project scope"): the
// functions and classes an import names, as summaries that point into no IR. The project index
// (analyzer/project/) makes them from each imported file analysed on its own; a file's
// FileAnalysis asks for them through ProjectScope when a call reaches an imported name.
//
// A summary carries no pointer into the other file's IR: that IR is freed once its summaries are
// made, and a rule must never quote or locate another file's expression against its own source.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/facts.h"

namespace sealint::ir {

struct ForeignFunction {
  std::string name;
  std::string file;                 // the path it was read from, as the project index names it
  std::vector<std::string> params;  // names, in order (a method's first is its receiver)
  // Its summary in its own file, with every Stmt, Expr, Function and ClassDef pointer null, and
  // only the effects a parameter feeds (a graph made inside another file is that file's finding).
  FunctionSummary summary;
  // Decorated with no_grad / inference_mode, or every call in its own file runs without grad.
  bool runs_without_grad = false;
  // It runs a model with autograd on (itself, in a loop of its own, or through a function of its
  // file) and does not train: a caller with autograd on records that model's graph for nothing
  // (`encoder.forward_pass(batch)`, `forward_model(...)`), whatever the function is called.
  bool runs_model = false;
  // A method's `self.NAME(...)` calls made once per iteration of one of its loops with autograd
  // on (semantic/base_loops.h): a subclass's NAME runs once per batch of this method's loop.
  std::vector<std::string> self_calls_in_loops;
  // TF1 (semantic/tf_call_effects.h): it runs a session (`self.sess.run(...)`), and the op it
  // adds to the graph on every call, as its API path (`summary.scalar`) and 1-based line in its
  // own file; an empty path when it adds none.
  bool runs_tf_session = false;
  std::string tf_op_per_call;
  int tf_op_line = 0;
  // The parameter the op stands in for when the call passes none (`train_op=None`, then
  // `if train_op is None: train_op = tf.no_op()`); empty when built whatever the call passes.
  std::string tf_op_unless_passed;
  // The parameter the op is built from only when the call passes it (the `else` of `if
  // train_op is None:`); empty when built whatever the call passes.
  std::string tf_op_if_passed;

  // The parameter named `param`, or -1.
  [[nodiscard]] int param_index(std::string_view param) const {
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i] == param) return static_cast<int>(i);
    }
    return -1;
  }
};

struct ForeignClass {
  std::string name;
  std::string file;        // the path it was read from, as the project index names it
  bool is_module = false;  // an nn.Module (or defines forward) in its own file's analysis
  bool is_loss = false;    // a module named ...Loss
  // It (or a same-file base) builds parameters (semantic::Constructions::has_parameters).
  bool holds_parameters = false;
  // Its methods and those of its same-file bases, by name (the nearest definition wins).
  std::map<std::string, ForeignFunction, std::less<>> methods;
  // Its bases that its file imports (`BaseTrainer` from `.base`), as dotted paths through that
  // file's imports: ProjectScope follows them for a method or a module base not found here.
  std::vector<std::string> imported_bases;

  [[nodiscard]] const ForeignFunction* method(std::string_view method_name) const {
    auto it = methods.find(method_name);
    return it == methods.end() ? nullptr : &it->second;
  }
};

// A method of a class another file defines, with that class (the nearest that defines it).
struct ForeignMethod {
  const ForeignClass* cls = nullptr;
  const ForeignFunction* function = nullptr;
  explicit operator bool() const { return function != nullptr; }
};

// The other files of one file's project, by the dotted names its imports give.
class ProjectScope {
 public:
  virtual ~ProjectScope() = default;
  // The function or class a dotted path through the file's imports names (`meters.AverageMeter`,
  // `.utils.compute_loss`, with the leading dots of a relative import), when a file of the
  // project defines it at its top level; nullptr otherwise. Pointers stay valid for the run.
  [[nodiscard]] virtual const ForeignFunction* function(std::string_view dotted) const = 0;
  [[nodiscard]] virtual const ForeignClass* class_named(std::string_view dotted) const = 0;
  // The method an instance of `cls` runs: its own, a same-file base's, or one of an imported
  // base's (a few files deep); nullptr when none defines it.
  [[nodiscard]] virtual const ForeignFunction* method(const ForeignClass& cls,
                                                      std::string_view name) const = 0;
  // A method of `cls` or of an imported base whose loop calls `self.name(...)` once per
  // iteration with autograd on (ForeignFunction::self_calls_in_loops); none when no class
  // up the bases has one.
  [[nodiscard]] virtual ForeignMethod loop_caller(const ForeignClass& cls,
                                                  std::string_view name) const = 0;
  // `cls` is an nn.Module: in its own file's analysis, or through an imported base.
  [[nodiscard]] virtual bool is_module(const ForeignClass& cls) const = 0;
  // `cls`, or an imported base, builds parameters.
  [[nodiscard]] virtual bool holds_parameters(const ForeignClass& cls) const = 0;
};

}  // namespace sealint::ir
