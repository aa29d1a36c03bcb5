#pragma once
// What sealint knows of the PyTorch API's effect on autograd: which methods, attributes and
// `torch.*` functions give values without a graph, which reduce to a 0-d tensor, which make a
// new leaf, which are losses. The grad-flow analysis reads these; tables_test.cpp checks every
// name against Debian's python3-torch.
#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

// Tensor methods whose result carries no graph whatever the receiver (`.item()`, `.argmax()`,
// comparisons, integer casts, sampling).
inline constexpr auto kTensorMethodsWithoutGraph = sorted_names(
    "__float__", "__len__", "argmax", "argmin", "argsort", "bernoulli", "bool", "byte", "char",
    "data_ptr", "dim", "element_size", "eq", "equal", "ge", "get_device", "gt", "int",
    "is_contiguous", "isfinite", "isinf", "isnan", "item", "le", "long", "lt", "multinomial", "ne",
    "nelement", "nonzero", "numel", "numpy", "short", "size", "stride", "tolist");

// Of those, the methods whose result is a tensor on the receiver's device (`out.argmax(1)` of a
// CUDA output is a CUDA tensor): no graph, but device memory all the same.
inline constexpr auto kTensorMethodsKeepingDevice = sorted_names(
    "argmax", "argmin", "argsort", "bernoulli", "bool", "byte", "char", "eq", "ge", "gt", "int",
    "isfinite", "isinf", "isnan", "le", "long", "lt", "multinomial", "ne", "nonzero", "short");

// Tensor attributes that carry no graph (`x.shape`, `x.grad`: a leaf's gradient has none).
inline constexpr auto kTensorAttributesWithoutGraph =
    sorted_names("device", "dtype", "grad", "grad_fn", "is_cuda", "is_leaf", "is_sparse", "layout",
                 "names", "ndim", "requires_grad", "shape");

// Reductions: called without a dim, the result is a 0-d tensor.
inline constexpr auto kTensorReductions = sorted_names(
    "dot", "logsumexp", "max", "mean", "min", "norm", "prod", "std", "sum", "trace", "var");

// `torch.*` functions whose result carries no graph.
inline constexpr auto kTorchFunctionsWithoutGraph =
    sorted_names("allclose", "argmax", "argmin", "argsort", "bucketize", "count_nonzero", "device",
                 "eq", "equal", "ge", "gt", "histc", "is_floating_point", "is_grad_enabled",
                 "is_tensor", "isclose", "isfinite", "isinf", "isnan", "le", "lt", "manual_seed",
                 "ne", "no_grad", "nonzero", "numel", "searchsorted", "unique");

// `torch.*` factories: a new leaf tensor, with a graph only when asked (`requires_grad=True`).
inline constexpr auto kTorchFactories = sorted_names(
    "FloatTensor", "Tensor", "arange", "as_tensor", "empty", "empty_like", "eye", "from_numpy",
    "full", "full_like", "linspace", "logspace", "ones", "ones_like", "rand", "rand_like",
    "randint", "randint_like", "randn", "randn_like", "randperm", "tensor", "zeros", "zeros_like");

// `torch.autograd.*` functions that run a backward over the graph of their first argument, like
// `Tensor.backward()`: a loop calling one needs autograd (test-time adaptation, influence
// functions, gradient penalties), and the graph they consume is not kept.
inline constexpr auto kAutogradBackwards = sorted_names("backward", "grad");

// `torch.*` switches of autograd's mode, as context managers, decorators or calls: a function
// that names one decides about grad itself (`with torch.set_grad_enabled(phase == "train"):`).
inline constexpr auto kGradModeSwitches =
    sorted_names("enable_grad", "inference_mode", "no_grad", "set_grad_enabled");

// torch functions that join tensors along a dimension: `xs = torch.cat((xs, out))` in a loop
// keeps every iteration's `out` (and its graph) in `xs`, as an append does.
inline constexpr auto kConcatenations = sorted_names("cat", "column_stack", "concat", "concatenate",
                                                     "dstack", "hstack", "row_stack", "vstack");

// In-place tensor updates that make the receiver's history reach their arguments' graphs:
// `avg.mul_(m).add_(v)` chains every call's graph into `avg`.
inline constexpr auto kInPlaceUpdates =
    sorted_names("add_", "addcdiv_", "addcmul_", "copy_", "div_", "lerp_", "mul_", "sub_");

// `torch.nn.functional` losses (and, by the same name, `torch.*` ones): a 0-d tensor with the
// graph of its inputs. Any other function named `*_loss` is taken as a loss too (see naming.h).
inline constexpr auto kLossFunctions = sorted_names(
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss",
    "cross_entropy", "ctc_loss", "gaussian_nll_loss", "hinge_embedding_loss", "huber_loss",
    "kl_div", "l1_loss", "margin_ranking_loss", "mse_loss", "multi_margin_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "nll_loss", "poisson_nll_loss",
    "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss");

// Tensor methods and attributes through which code reads a model's prediction (`f(x).argmax(1)`,
// `out.softmax(-1)`, `out.detach()`, `out.data`), and not the 0-d number a metric or loss gives:
// a callable run on the items of an iterable whose result is read so is a model
// (semantic/kinds_from_use).
inline constexpr auto kPredictionReads = sorted_names("argmax", "argsort", "data", "detach",
                                                      "log_softmax", "sigmoid", "softmax", "topk");

// `nn.Module` methods that neither tensors nor optimizers have: a value nothing else tells about
// (a parameter called `net_g`, an instance of another file's class) that answers one is a module
// (`net_g.eval()`). Not `load_state_dict`: optimizers and schedulers have it too.
// torch functions and tensor methods that, given a dimension (always, for `topk`, `sort` and
// `kthvalue`), return a (values, indices) pair: the indices are integers with no graph.
inline constexpr auto kValuesAndIndicesFunctions = sorted_names(
    "cummax", "cummin", "kthvalue", "max", "median", "min", "mode", "nanmedian", "sort", "topk");

inline constexpr auto kModuleOnlyMethods =
    sorted_names("eval", "named_modules", "named_parameters", "train");

// torch.distributions: the log-probability of a sampled action, which policy-gradient code keeps
// for the backward of its update (REINFORCE, actor-critic rollouts).
inline constexpr std::string_view kDistributionLogProb = "log_prob";

}  // namespace sealint::knowledge
