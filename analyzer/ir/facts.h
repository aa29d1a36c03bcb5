#pragma once
// What the grad-flow analysis knows about a value: does it carry an autograd graph, what kind
// of object is it, and which of the enclosing function's parameters flow into it (the bits
// that make per-function summaries: "update(val) accumulates val into self.sum").
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

struct ForeignClass;  // foreign.h: a class another file of the project defines

// Unknown is the default and never makes a rule fire: only Yes is evidence.
enum class Grad : uint8_t { Unknown, No, Yes };

enum class ValueKind : uint8_t {
  Unknown,
  Tensor,
  Number,
  Container,  // list, tuple, dict, set, deque: `grad` says whether it holds grad values
  Module,     // an nn.Module (or a subclass defined in the file)
  LossFn,     // an nn.*Loss instance
  Optimizer,
  Loader,    // a DataLoader: its batches carry no graph
  Instance,  // an instance of a non-module class defined in the file (`instance_of`)
  Class,     // a class defined in the file (`instance_of` is the class)
  Function,  // a function defined in the file (`function`)
};

struct Fact {
  Grad grad = Grad::Unknown;
  ValueKind kind = ValueKind::Unknown;
  bool scalar = false;    // a loss or a reduction: a 0-d tensor
  bool detached = false;  // `.detach()`/`.data` of a grad tensor: no graph, still on its device
  // A leaf that requires grad (a new `nn.Parameter`): `grad` is Yes because what is computed
  // from it records a graph, but it holds none itself, so keeping it keeps nothing else alive.
  bool leaf = false;
  uint32_t params = 0;  // bit i: the enclosing function's parameter i flows into this value
  const ClassDef* instance_of = nullptr;
  const Function* function = nullptr;
  // An instance (or the class itself, kind Class) of a class another file of the project
  // defines: what its methods do comes from that file's summaries (foreign.h).
  const ForeignClass* foreign = nullptr;
  bool operator==(const Fact&) const = default;
};

// The value keeps an autograd graph alive: grad, and not a bare leaf.
[[nodiscard]] inline bool holds_graph(const Fact& fact) {
  return fact.grad == Grad::Yes && !fact.leaf;
}

[[nodiscard]] inline Fact grad_fact(bool scalar = false) {
  Fact fact;
  fact.grad = Grad::Yes;
  fact.kind = ValueKind::Tensor;
  fact.scalar = scalar;
  return fact;
}

[[nodiscard]] inline Fact no_grad_fact(ValueKind kind = ValueKind::Unknown) {
  Fact fact;
  fact.grad = Grad::No;
  fact.kind = kind;
  return fact;
}

// Join at control-flow merges: Yes on any path is evidence (the leak happens on that path).
[[nodiscard]] inline Grad join(Grad a, Grad b) {
  if (a == Grad::Yes || b == Grad::Yes) return Grad::Yes;
  if (a == Grad::No && b == Grad::No) return Grad::No;
  return Grad::Unknown;
}

[[nodiscard]] inline Fact join(const Fact& a, const Fact& b) {
  Fact out;
  out.grad = join(a.grad, b.grad);
  // One path's kind when the other knows none; two different kinds (a `prepare(*objs)` that
  // returns a module on one path and an optimizer on another) tell nothing.
  out.kind = a.kind == b.kind               ? a.kind
             : a.kind == ValueKind::Unknown ? b.kind
             : b.kind == ValueKind::Unknown ? a.kind
                                            : ValueKind::Unknown;
  // A 0-d tensor on one path and a number on the other (`avg = 0` before a loop that adds a
  // loss's value) is one value either way.
  const bool a_num = a.kind == ValueKind::Number;
  const bool b_num = b.kind == ValueKind::Number;
  // A path that knows nothing (a name bound on the other path only) says nothing of the shape.
  const bool a_blank = a.grad == Grad::Unknown && a.kind == ValueKind::Unknown && !a.detached;
  const bool b_blank = b.grad == Grad::Unknown && b.kind == ValueKind::Unknown && !b.detached;
  out.scalar = a_blank          ? b.scalar
               : b_blank        ? a.scalar
               : a_num && b_num ? a.scalar && b.scalar
                                : (a.scalar || a_num) && (b.scalar || b_num);
  out.detached = a.detached || b.detached;
  out.leaf = a.leaf && b.leaf;
  out.params = a.params | b.params;
  out.instance_of = a.instance_of ? a.instance_of : b.instance_of;
  out.function = a.function ? a.function : b.function;
  out.foreign = a.foreign ? a.foreign : b.foreign;
  return out;
}

// A method's effect on its object that outlives the call: `self.sum += val` (Accumulate) or
// `self.history.append(val)` (Append), with the parameters that flow into the stored value.
struct SelfEffect {
  enum class Kind { Accumulate, Append };
  Kind kind = Kind::Accumulate;
  std::string attr;  // "sum" for self.sum
  uint32_t params = 0;
  // The stored value carries a graph made inside the method (`self.total += loss` in `step()`).
  bool local_grad = false;
  const Stmt* stmt = nullptr;
  const Expr* value = nullptr;  // what is stored: `loss` in `self.losses.append(loss)`
};

struct FunctionSummary {
  Fact returns;  // joined over `return` statements; params bits = what flows out
  // When every return is a tuple of one size: each element's fact (`return out, loss.item()`).
  std::vector<Fact> return_elements;
  bool trains = false;  // runs backward or an optimizer step (itself or through a callee)
  std::vector<SelfEffect> self_effects;
  std::vector<std::string> resets;  // attributes it rebinds without reading (`self.sum = 0`)
};

}  // namespace sealint::ir
