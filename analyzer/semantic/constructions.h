#pragma once
// What a call constructs, as far as device memory goes: a module with parameters (a torch.nn
// layer, a torchvision model, a module class of the file that holds parameters), a container of
// modules, a stateful optimizer, or an `nn.Parameter`. SL007 reports one built on every step.
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

enum class Built {
  Nothing,
  Module,     // allocates parameters
  Container,  // `nn.Sequential(...)`: allocates through what it holds
  Optimizer,  // keeps per-parameter state
  Parameter,  // `nn.Parameter(torch.randn(d))`: a new leaf
};

struct Construction {
  const ir::Expr* call = nullptr;
  Built built = Built::Nothing;
};

// The constructions of one file; which module classes of the file hold parameters is computed
// on first use.
class Constructions {
 public:
  explicit Constructions(const ir::FileAnalysis& analysis)
      : analysis_(analysis), module_(analysis.module()) {}

  // What `call` builds.
  [[nodiscard]] Built built_by(const ir::Expr& call);

  // The constructions in one statement's own expressions, outermost only: `nn.Sequential(
  // nn.Linear(...), ...)` is one construction; a container counts only when it holds one that
  // allocates.
  [[nodiscard]] std::vector<Construction> in_statement(const ir::Stmt& stmt);

  // An in-file module class holds parameters when it (or an in-file base) constructs a
  // parameterized module or an `nn.Parameter`, or derives from a parameterized torch.nn class.
  [[nodiscard]] bool has_parameters(const ir::ClassDef* cls);

 private:
  const ir::FileAnalysis& analysis_;
  const ir::Module& module_;
  std::unordered_map<const ir::ClassDef*, bool> classes_;
};

// A constructor argument given by keyword or at a position; in C++, by a setter on an options
// argument (`torch::nn::BatchNorm2dOptions(64).affine(false)`, which lowering writes as the
// options call's keyword). nullptr when not given.
[[nodiscard]] const ir::Expr* constructor_argument(ir::Language language, const ir::Expr& call,
                                                   std::string_view keyword, size_t position);

}  // namespace sealint::semantic
