#pragma once
// LibTorch sets an options object's fields by name, each setter returning the object itself
// (torch/arg.h's TORCH_ARG): `torch::nn::LinearOptions(in, out).bias(false)`. Lowering writes
// such a chain as the options constructor called with keywords, as Python writes
// `nn.Linear(in, out, bias=False)`, so that rules read a setting by its name and never walk the
// chain themselves.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>

namespace sealint::cpp {

// The setter `call` runs when it sets one field of an options object built in the same
// expression (a constructor call, or another such setter on one): nullptr for any other call,
// and for a setter on a variable (`options.bias(false);`, a statement of its own).
[[nodiscard]] const clang::CXXMethodDecl* chained_options_setter(const clang::CallExpr* call);

}  // namespace sealint::cpp
