// Flags a module or optimizer constructed on every step of a training loop, or a submodule
// constructed in `forward()`. docs: docs/rules/SL007.md
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <span>
#include <unordered_map>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/facts.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torchvision.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL007",
    .name = "module-in-loop",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a module or optimizer constructed on every step of a training loop, or a "
        "submodule constructed in `forward()`.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus (its one false one was fixed)
    .brief =
        "a module or optimizer built on every training step, or a submodule built in `forward()`",
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// torch.nn classes whose instances hold no parameters and no buffers: constructing one allocates
// nothing on the device.
constexpr auto kParameterFree = std::to_array<std::string_view>(
    {// activations
     "CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh",
     "LeakyReLU", "LogSigmoid", "LogSoftmax", "Mish", "RReLU", "ReLU", "ReLU6", "SELU", "SiLU",
     "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
     "Tanhshrink", "Threshold",
     // dropout
     "AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "FeatureAlphaDropout",
     // pooling
     "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
     "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d",
     "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d",
     "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d",
     // padding
     "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
     "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d",
     "ZeroPad2d", "ZeroPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
     // shape and resampling
     "Flatten", "Unflatten", "Fold", "Unfold", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle",
     "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "Identity",
     // distances and parameter-free normalisations
     "CosineSimilarity", "PairwiseDistance", "LocalResponseNorm", "CrossMapLRN2d",
     // quantization helpers: observers of the ops they wrap
     "FloatFunctional", "FXFloatFunctional", "QFunctional",
     // LibTorch's `torch::nn::Functional(torch::relu)`: a function as a module
     "Functional"});

// torch.nn classes that hold or wrap modules built elsewhere: they allocate parameters only
// through the modules passed to them, which are judged on their own.
constexpr auto kContainers = std::to_array<std::string_view>(
    {"Module", "Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
     "ParameterDict", "DataParallel", "DistributedDataParallel", "Parameter", "Buffer",
     "UninitializedParameter", "UninitializedBuffer",
     // LibTorch's type-erased holders of a module built elsewhere
     "AnyModule", "NamedAnyModule", "ModuleHolder"});

// torch.nn submodules whose capitalized names are not modules (`torch.nn.utils.rnn.PackedSequence`,
// `torch.nn.attention.SDPBackend`).
constexpr auto kNonModuleNamespaces = std::to_array<std::string_view>(
    {"torch.nn.functional.", "torch.nn.utils.", "torch.nn.init.", "torch.nn.parameter.",
     "torch.nn.attention.", "torch.nn.grad.", "torch.nn.parallel.", "torch.nn.common_types.",
     "torch.nn.detail."});

// Methods run once per step by a training framework: building a submodule there is like building
// it in `forward()`.
constexpr auto kPerStepMethods = std::to_array<std::string_view>(
    {"forward", "training_step", "validation_step", "test_step", "predict_step"});

bool is_one_of(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

using knowledge::last_component;

bool is_class_name(std::string_view name) {
  // `Linear`, `LSTM`, `SGD`; not `linear` or `resnet18`.
  return !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
}

bool is_literal(const Expr* expr, std::string_view text) {
  return expr != nullptr && expr->kind == ExprKind::Const && expr->text == text;
}

// LibTorch sets options by name on an options object: `torch::nn::BatchNorm2dOptions(64)
// .affine(false)`, `torch::optim::SGDOptions(0.1).momentum(0.9)`. The value the outermost
// setter `name` gives in a chain of setters, or nullptr.
const Expr* setter_value(const Expr* options, std::string_view name) {
  while (options != nullptr && options->kind == ExprKind::Call &&
         options->callee()->kind == ExprKind::Attr && options->arg_count() == 1) {
    if (options->callee()->text == name) return options->arg(0);
    options = options->callee()->base();
  }
  return nullptr;
}

// The value of a constructor argument given by keyword or at a position (in C++, by a setter on
// an options argument), or nullptr.
const Expr* argument(ir::Language language, const Expr& call, std::string_view keyword,
                     size_t position) {
  if (language == ir::Language::Cpp) {
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (const Expr* value = setter_value(call.arg(i), keyword)) return value;
    }
    return nullptr;
  }
  if (const Expr* value = call.keyword(keyword)) return value;
  return call.arg(position);
}

// `0`, `0.0` (C++ spells it `0.0E+0` in the IR).
bool is_zero_literal(const Expr* expr) {
  if (expr == nullptr || expr->kind != ExprKind::Const ||
      (expr->const_kind != ir::ConstKind::Int && expr->const_kind != ir::ConstKind::Float))
    return false;
  std::string_view digits = expr->text;
  if (expr->const_kind == ir::ConstKind::Float)
    digits = digits.substr(0, digits.find_first_of("eE"));
  return digits.find_first_of("123456789abcdefABCDEF") == std::string_view::npos;
}

// What a torch.nn class, constructed with these arguments, allocates.
enum class NnKind { None, Parameters, Container };

NnKind classify_nn_class(ir::Language language, std::string_view name, const Expr* call) {
  const auto option = [&](std::string_view keyword, size_t position) {
    return argument(language, *call, keyword, position);
  };
  if (is_one_of(name, kContainers)) return NnKind::Container;
  if (is_one_of(name, kParameterFree)) return NnKind::None;
  // Loss objects hold no parameters (AdaptiveLogSoftmaxWithLoss holds a classifier).
  if (name.ends_with("Loss") && name != "AdaptiveLogSoftmaxWithLoss") return NnKind::None;
  if (call == nullptr) return NnKind::Parameters;
  // Normalisations without affine parameters (InstanceNorm's default, `elementwise_affine=False`).
  if (name.find("InstanceNorm") != std::string_view::npos) {
    const bool affine = is_literal(option("affine", 3), "True");
    const bool stats = is_literal(option("track_running_stats", 4), "True");
    return affine || stats ? NnKind::Parameters : NnKind::None;
  }
  if (name == "LayerNorm" || name == "RMSNorm") {
    return is_literal(option("elementwise_affine", 2), "False") ? NnKind::None : NnKind::Parameters;
  }
  if (name == "GroupNorm") {
    return is_literal(option("affine", 3), "False") ? NnKind::None : NnKind::Parameters;
  }
  if (name.find("BatchNorm") != std::string_view::npos) {
    const bool no_affine = is_literal(option("affine", 3), "False");
    const bool no_stats = is_literal(option("track_running_stats", 4), "False");
    return no_affine && no_stats ? NnKind::None : NnKind::Parameters;
  }
  return NnKind::Parameters;
}

// The torch.nn class a qualified name stands for (`torch.nn.Linear`,
// `torch.nn.modules.linear.Linear`), or empty.
std::string_view torch_nn_class(std::string_view q) {
  if (!q.starts_with("torch.nn.")) return {};
  for (std::string_view ns : kNonModuleNamespaces) {
    if (q.starts_with(ns)) return {};
  }
  const std::string_view last = last_component(q);
  // LibTorch: `torch::nn::LinearOptions(4, 2)` is an options object, not a module.
  if (last.ends_with("Options")) return {};
  return is_class_name(last) ? last : std::string_view{};
}

// `torch.optim.Adam(...)`: an optimizer that keeps per-parameter state. Schedulers
// (`torch.optim.lr_scheduler.*`, LibTorch's `torch::optim::StepLR`), LibTorch's options and
// state objects (`torch::optim::AdamOptions`) and plain SGD (no momentum: no state) are left out.
bool is_stateful_optimizer(ir::Language language, std::string_view q, const Expr& call) {
  if (!q.starts_with("torch.optim.")) return false;
  const std::string_view last = q.substr(std::string_view("torch.optim.").size());
  if (last.find('.') != std::string_view::npos || !is_class_name(last) || last == "Optimizer")
    return false;
  for (std::string_view suffix : {"Options", "ParamState", "ParamGroup", "LR", "Scheduler"}) {
    if (last.ends_with(suffix)) return false;
  }
  if (last == "SGD") {
    const Expr* momentum = argument(language, call, "momentum", 2);
    return momentum != nullptr && !is_zero_literal(momentum);
  }
  return true;
}

// Parameter: `nn.Parameter(torch.randn(d))`, a new leaf the optimizer never sees when built in
// `forward()`; in a loop it is reported nowhere (meta-learning builds fast weights per task).
enum class Built { Nothing, Module, Container, Optimizer, Parameter };

struct Construction {
  const Expr* call = nullptr;
  Built built = Built::Nothing;
};

// Which loops of a function run one training step per iteration, and which in-file module
// classes hold parameters; computed on demand for one file.
class FileFacts {
 public:
  explicit FileFacts(const ir::FileAnalysis& analysis)
      : analysis_(analysis), module_(analysis.module()) {}

  Built classify_call(const Expr& call) {
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Name) {
      if (const ir::ClassDef* cls = analysis_.class_named(callee->text)) {
        // LibTorch's `TORCH_MODULE(Net)`: `Net` holds a `NetImpl`, whose parameters it builds.
        if (module_.language() == ir::Language::Cpp) {
          if (const ir::ClassDef* impl = analysis_.class_named(std::string(callee->text) + "Impl"))
            cls = impl;
        }
        return analysis_.is_module_class(cls) && has_parameters(cls) ? Built::Module
                                                                     : Built::Nothing;
      }
    }
    const std::string q = ir::qualified_name(module_, callee);
    if (q.empty()) return Built::Nothing;
    const std::string_view nn_class = torch_nn_class(q);
    if (!nn_class.empty()) {
      switch (classify_nn_class(module_.language(), nn_class, &call)) {
        case NnKind::None:
          return Built::Nothing;
        case NnKind::Parameters:
          return Built::Module;
        case NnKind::Container:
          return nn_class == "Parameter" ? Built::Parameter : Built::Container;
      }
    }
    if (knowledge::is_torchvision_model(q)) return Built::Module;
    if (is_stateful_optimizer(module_.language(), q, call)) return Built::Optimizer;
    return Built::Nothing;
  }

  // The constructions in one statement's own expressions, outermost only: `nn.Sequential(
  // nn.Linear(...), ...)` is one construction; a container counts only when it holds one.
  std::vector<Construction> constructions(const Stmt& stmt) {
    std::vector<Construction> all;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind != ExprKind::Call) return;
      const Built built = classify_call(expr);
      if (built != Built::Nothing) all.push_back({&expr, built});
    });
    std::sort(all.begin(), all.end(), [](const Construction& a, const Construction& b) {
      return a.call->range.begin != b.call->range.begin ? a.call->range.begin < b.call->range.begin
                                                        : a.call->range.end > b.call->range.end;
    });
    auto inside = [](const Construction& inner, const Construction& outer) {
      return inner.call != outer.call && outer.call->range.begin <= inner.call->range.begin &&
             inner.call->range.end <= outer.call->range.end;
    };
    std::vector<Construction> out;
    for (const Construction& c : all) {
      if (c.built == Built::Container) {
        // A container counts when it holds a construction that allocates.
        const bool holds = std::any_of(all.begin(), all.end(), [&](const Construction& other) {
          return other.built != Built::Container && inside(other, c);
        });
        if (!holds) continue;
      }
      const bool nested = std::any_of(out.begin(), out.end(),
                                      [&](const Construction& kept) { return inside(c, kept); });
      if (!nested) out.push_back(c);
    }
    return out;
  }

  // A loop that runs one training step per iteration: it trains through its own statements (a
  // backward, an optimizer step, or a call of a function of the file that does one step) or
  // iterates the batches of a data loader, and no loop nested in it trains (then it is an epoch,
  // fold or trial loop around the step loop).
  bool is_step_loop(const ir::Function& function, const Stmt& loop) {
    if (auto it = step_loops_.find(&loop); it != step_loops_.end()) return it->second;
    bool result = false;
    bool nested_trains = false;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (stmt.kind == StmtKind::Loop && analysis_.loop_trains(stmt)) nested_trains = true;
    });
    // `for device in ["cpu", "cuda"]:` sweeps a few written-out settings, one run each.
    if (!nested_trains && !iterates_literal(loop)) {
      const Steps steps = body_steps(function, loop.body, 0);
      result = steps == Steps::One || (steps == Steps::None && iterates_batches(loop));
      // An iteration that builds its own model and optimizer and uses nothing that outlives it
      // is an independent run (a seed sweep, a test), not a step of one training.
      result = result && uses_outer_model(function, loop);
    }
    step_loops_[&loop] = result;
    return result;
  }

 private:
  enum class Steps { None, One, Many };

  static Steps combine(Steps a, Steps b) {
    if (a == Steps::Many || b == Steps::Many) return Steps::Many;
    if (a == Steps::One || b == Steps::One) return Steps::One;
    return Steps::None;
  }

  // How many training steps one run of `body` takes, not counting its nested loops: One for a
  // backward or an optimizer step, Many when it calls a function of the file that loops over
  // training steps itself.
  Steps body_steps(const ir::Function& function, const std::vector<Stmt*>& body, int depth) {
    Steps steps = Steps::None;
    visit_outside_loops(body, [&](const Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const Expr& call) {
        if (call.kind != ExprKind::Call) return;
        steps = combine(steps, call_steps(function, call, depth));
      });
    });
    return steps;
  }

  Steps call_steps(const ir::Function& function, const Expr& call, int depth) {
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Attr) {
      const std::string_view method = callee->text;
      if (method == "backward" || method == "manual_backward") return Steps::One;
      if (method == "step" || method == "zero_grad") {
        const Expr* receiver = callee->base();
        if (analysis_.fact(*receiver).kind == ir::ValueKind::Optimizer ||
            knowledge::is_optimizer_like_name(ir::dotted_name(receiver))) {
          return Steps::One;
        }
      }
    }
    const ir::Function* target = analysis_.resolve_callee(function, call);
    if (target == nullptr || target == &function || !analysis_.summary(*target).trains)
      return Steps::None;
    return function_steps(*target, depth + 1);
  }

  // A function of the file that trains: Many when a loop of its own (or of a callee) trains.
  Steps function_steps(const ir::Function& function, int depth) {
    constexpr int kMaxDepth = 4;
    if (auto it = functions_.find(&function); it != functions_.end()) return it->second;
    functions_[&function] = Steps::One;  // a recursive call adds no evidence
    bool loops = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (stmt.kind == StmtKind::Loop && analysis_.loop_trains(stmt)) loops = true;
    });
    Steps steps = Steps::Many;
    if (!loops) {
      steps = depth >= kMaxDepth ? Steps::None : body_steps(function, function.body, depth);
      // It trains (its summary says so) without a loop of its own: one step per call.
      if (steps == Steps::None) steps = Steps::One;
    }
    functions_[&function] = steps;
    return steps;
  }

  // Statements of `body`, entering branches but not nested loops, functions or classes.
  static void visit_outside_loops(const std::vector<Stmt*>& body,
                                  const std::function<void(const Stmt&)>& visit) {
    for (const Stmt* stmt : body) {
      visit(*stmt);
      switch (stmt->kind) {
        case StmtKind::Loop:
        case StmtKind::FunctionDef:
        case StmtKind::ClassDef:
          break;
        case StmtKind::Try:
          visit_outside_loops(stmt->body, visit);
          for (const ir::Handler& handler : stmt->handlers)
            visit_outside_loops(handler.body, visit);
          visit_outside_loops(stmt->orelse, visit);
          visit_outside_loops(stmt->finalbody, visit);
          break;
        case StmtKind::Guard:
        case StmtKind::If:
        case StmtKind::Other:
          visit_outside_loops(stmt->body, visit);
          visit_outside_loops(stmt->orelse, visit);
          break;
        case StmtKind::Assign:
        case StmtKind::AugAssign:
        case StmtKind::AnnAssign:
        case StmtKind::ExprStmt:
        case StmtKind::Del:
        case StmtKind::Return:
        case StmtKind::Import:
        case StmtKind::Global:
        case StmtKind::Raise:
          break;
      }
    }
  }

  // Does the loop use a model or optimizer that lives across its iterations: a parameter,
  // `self.*`, or a name bound before the loop and not rebound in it?
  bool uses_outer_model(const ir::Function& function, const Stmt& loop) const {
    std::vector<std::string> rebound;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      for (const Expr* target : stmt.targets) {
        ir::for_each_subexpr(*target, [&](const Expr& sub) {
          std::string key = ir::place_key(&sub);
          if (!key.empty()) rebound.push_back(std::move(key));
        });
      }
    });
    bool uses = false;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const Expr& expr) {
        if (uses || (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr)) return;
        const ir::ValueKind kind = analysis_.fact(expr).kind;
        const bool model = kind == ir::ValueKind::Module || kind == ir::ValueKind::Optimizer ||
                           knowledge::is_model_like_name(expr.text) ||
                           knowledge::is_optimizer_like_name(expr.text);
        if (!model) return;
        const std::string key = ir::place_key(&expr);
        if (key.empty() || ir::root_name(&expr) == nullptr) return;
        if (std::find(rebound.begin(), rebound.end(), key) != rebound.end()) return;
        if (std::find(rebound.begin(), rebound.end(), std::string(ir::place_root(key))) !=
            rebound.end())
          return;
        if (ir::defined_outside(function, loop, key)) uses = true;
      });
    });
    return uses;
  }

  // `for mode in ["a", "b"]:`, `for lr, wd in itertools.product([...], [...]):`: the loop runs
  // one configuration per iteration (a test or a sweep), not a training step.
  static bool iterates_literal(const Stmt& loop) {
    if (loop.loop_kind != ir::LoopKind::For || loop.value == nullptr) return false;
    auto literal = [](const Expr* e) {
      return e->kind == ExprKind::Collection && e->collection_kind != ir::CollectionKind::Dict;
    };
    if (literal(loop.value)) return true;
    if (loop.value->kind != ExprKind::Call || loop.value->arg_count() == 0) return false;
    for (size_t i = 0; i < loop.value->arg_count(); ++i) {
      if (!literal(loop.value->arg(i))) return false;
    }
    return true;
  }

  // `for x, y in loader:`: iterates a data loader's batches (not `for loader in loaders:`).
  bool iterates_batches(const Stmt& loop) const {
    if (loop.loop_kind != ir::LoopKind::For || loop.value == nullptr) return false;
    bool loader = false;
    ir::for_each_subexpr(*loop.value, [&](const Expr& sub) {
      if ((sub.kind == ExprKind::Name || sub.kind == ExprKind::Attr) &&
          knowledge::is_loader_like_name(sub.text))
        loader = true;
      if (analysis_.fact(sub).kind == ir::ValueKind::Loader) loader = true;
    });
    bool target_is_loader = false;
    for (const Expr* target : loop.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& sub) {
        if (sub.kind == ExprKind::Name && knowledge::is_loader_like_name(sub.text))
          target_is_loader = true;
      });
    }
    return loader && !target_is_loader;
  }

  // An in-file module class holds parameters when it (or an in-file base) constructs a
  // parameterized module or an `nn.Parameter`, or derives from a parameterized torch.nn class.
  bool has_parameters(const ir::ClassDef* cls) {
    if (auto it = classes_.find(cls); it != classes_.end()) return it->second;
    classes_[cls] = false;  // a cycle through this class adds no evidence
    bool found = false;
    for (const Expr* base : cls->bases) {
      if (base->kind == ExprKind::Name) {
        if (const ir::ClassDef* local = analysis_.class_named(base->text)) {
          found = found || (local != cls && has_parameters(local));
          continue;
        }
      }
      const std::string q = ir::qualified_name(module_, base);
      const std::string_view nn_class = torch_nn_class(q);
      if (!nn_class.empty() &&
          classify_nn_class(module_.language(), nn_class, nullptr) == NnKind::Parameters)
        found = true;
      if (knowledge::is_torchvision_model(q)) found = true;
    }
    for (const ir::Function* method : cls->methods) {
      if (found) break;
      ir::for_each_nested(method->body, [&](const Stmt& stmt) {
        ir::for_each_expr(stmt, [&](const Expr& call) {
          if (found || call.kind != ExprKind::Call) return;
          const Expr* callee = call.callee();
          if (callee->kind == ExprKind::Attr && callee->text == "register_parameter") found = true;
          const std::string q = ir::qualified_name(module_, callee);
          if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") found = true;
          if (!found && classify_call(call) == Built::Module) found = true;
        });
      });
    }
    classes_[cls] = found;
    return found;
  }

  const ir::FileAnalysis& analysis_;
  const ir::Module& module_;
  std::unordered_map<const Stmt*, bool> step_loops_;
  std::unordered_map<const ir::Function*, Steps> functions_;
  std::unordered_map<const ir::ClassDef*, bool> classes_;
};

// Does `condition` hold on every run (a configuration flag: `args.aux_head`, `self.training`), as
// opposed to a one-time or occasional guard (`step == 0`, `self.proj is None`, `not hasattr(...)`,
// a call, a flag that the loop itself rebinds)?
bool every_time_condition(const Expr* condition, const std::vector<Stmt*>& scope) {
  if (condition == nullptr) return false;
  if (condition->kind == ExprKind::BoolOp) {
    return every_time_condition(condition->items[0], scope) &&
           every_time_condition(condition->items[1], scope);
  }
  if (condition->kind != ExprKind::Name && condition->kind != ExprKind::Attr) return false;
  const std::string key = ir::place_key(condition);
  if (key.empty()) return false;
  bool rebound = false;
  ir::for_each_nested(scope, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AugAssign &&
        stmt.kind != StmtKind::AnnAssign)
      return;
    for (const Expr* target : stmt.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& sub) {
        if (ir::place_key(&sub) == key) rebound = true;
      });
    }
  });
  return !rebound;
}

// Does `body` store something on `self` (`self.proj = ...`, `setattr(self, ...)`,
// `self.add_module(...)`)?
bool stores_on_self(const std::vector<Stmt*>& body) {
  bool stores = false;
  ir::for_each_nested(body, [&](const Stmt& stmt) {
    for (const Expr* target : stmt.targets) {
      if (stmt.kind != StmtKind::Del && ir::place_key(target).starts_with("self.")) stores = true;
    }
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      const Expr* callee = call.callee();
      if (callee->kind == ExprKind::Name && callee->text == "setattr") stores = true;
      if (callee->kind == ExprKind::Attr &&
          (callee->text == "add_module" || callee->text == "register_module") &&
          ir::dotted_name(callee->base()) == "self") {
        stores = true;
      }
    });
  });
  return stores;
}

class ModuleInLoop final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Without torch in the file, `nn.Linear` and `optim.Adam` are some other library's.
    if (!analysis.has_torch()) return;
    FileFacts facts(analysis);
    for (const ir::Function& function : module.functions()) {
      // `__init__` (a C++ constructor) builds a module's submodules once, loops included (a
      // ModuleList).
      if (function.name == "__init__") continue;
      if (module.language() == ir::Language::Cpp && function.parent_class != nullptr &&
          function.name == function.parent_class->name)
        continue;
      const bool per_step_method = function.parent_class != nullptr &&
                                   is_one_of(function.name, kPerStepMethods) &&
                                   analysis.is_module_class(function.parent_class);
      ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
        const std::vector<Construction> built = facts.constructions(stmt);
        if (built.empty()) return;
        const int guard_depth = one_time_guard_depth(where, per_step_method);
        for (const Construction& c : built) {
          if (per_step_method && c.built != Built::Optimizer && guard_depth < 0) {
            report_in_method(module, function, stmt, c, sink);
            continue;
          }
          if (c.built == Built::Parameter) continue;
          if (const Stmt* loop = step_loop(facts, function, where.loops, guard_depth))
            report_in_loop(module, *loop, stmt, c, sink);
        }
      });
    }
  }

 private:
  // How many loops had been entered at the innermost one-time branch around a statement (-1:
  // none). An `except` handler is a recovery path, not every step; an `if` is one unless its
  // condition holds every time. In `forward()` only an `if` that caches on `self` (`if
  // self.proj is None: self.proj = ...`) runs once: a local built under `if x.size(1) != d:` is
  // rebuilt on every such call.
  static int one_time_guard_depth(const ir::StmtContext& where, bool per_step_method) {
    int depth = -1;
    for (const ir::Branch& branch : where.branches) {
      const Stmt& stmt = *branch.stmt;
      // The body that may rebind the condition's flag: the innermost loop's, or the function's.
      const std::vector<Stmt*>& scope =
          branch.loop_depth == 0 ? where.function->body : where.loops[branch.loop_depth - 1]->body;
      const bool once =
          branch.handler ||
          (!every_time_condition(stmt.value, scope) &&
           (!per_step_method || stores_on_self(stmt.body) || stores_on_self(stmt.orelse)));
      if (once) depth = std::max(depth, static_cast<int>(branch.loop_depth));
    }
    return depth;
  }

  // The innermost of `loops` that runs one training step per iteration, with no one-time guard
  // between it and the statement; nullptr when none.
  static const Stmt* step_loop(FileFacts& facts, const ir::Function& function,
                               const std::vector<const Stmt*>& loops, int guard_depth) {
    for (size_t i = loops.size(); i-- > 0;) {
      if (!facts.is_step_loop(function, *loops[i])) continue;
      // A guard entered inside this loop (`if step == 0:`) runs the construction once.
      if (guard_depth > static_cast<int>(i)) return nullptr;
      return loops[i];
    }
    return nullptr;
  }

  // `nn.Linear(512, 10)` as the message names it; `nn.Linear(...)` when the call is long. In
  // C++ a declaration that constructs in place reads `torch::nn::Linear head(512, 10)`.
  static std::string constructor_text(const ir::Module& module, const Stmt& stmt,
                                      const Expr& call) {
    if (module.language() == ir::Language::Cpp) return cpp_constructor_text(module, stmt, call);
    const QuotedExpr quoted = quote(module, call);
    if (quoted.complete) return quoted.text;
    const std::string callee = ir::dotted_name(call.callee());
    return callee.empty() ? quoted.text : callee + "(...)";
  }

  // Where the construction is written: the call, or in C++ the declaration that constructs in
  // place, `torch::nn::Linear head(512, 10)` (the IR's call is `head(512, 10)`, with no `=`
  // between the declared name and it).
  static ir::SourceRange construction_range(const ir::Module& module, const Stmt& stmt,
                                            const Expr& call) {
    if (module.language() != ir::Language::Cpp || stmt.kind != StmtKind::Assign ||
        stmt.text != "decl" || stmt.value != &call || stmt.targets.size() != 1)
      return call.range;
    const uint32_t name = stmt.targets[0]->range.begin;
    if (stmt.range.begin >= name || name > call.range.begin) return call.range;
    const std::string_view between = module.file().code().substr(name, call.range.begin - name);
    return between.find('=') == std::string_view::npos ? stmt.range : call.range;
  }

  static std::string cpp_constructor_text(const ir::Module& module, const Stmt& stmt,
                                          const Expr& call) {
    std::string text = quote_cpp_construction(module, construction_range(module, stmt, call));
    return text.empty() ? quote(module, call).text : text;
  }

  // `nn.Linear`, or LibTorch's `torch::nn::Linear`.
  static std::string constructor_name(const ir::Module& module, const Expr& call) {
    std::string callee = ir::dotted_name(call.callee());
    if (callee.empty()) return "the module";
    if (module.language() == ir::Language::Cpp) {
      for (size_t dot = callee.find('.'); dot != std::string::npos; dot = callee.find('.', dot))
        callee.replace(dot, 1, "::");
    }
    return fmt::format("`{}`", callee);
  }

  // What one construction allocates: a pretrained builder loads its weights as well.
  static std::string_view allocates(const Expr& call) {
    const Expr* pretrained = call.keyword("pretrained");
    const Expr* weights = call.keyword("weights");
    const bool loads = (pretrained != nullptr && !is_literal(pretrained, "False")) ||
                       (weights != nullptr && !is_literal(weights, "None"));
    return loads ? "allocates and loads a new copy of its parameters"
                 : "allocates new parameters with fresh random weights";
  }

  void report_in_loop(const ir::Module& module, const Stmt& loop, const Stmt& stmt,
                      const Construction& c, DiagnosticSink& sink) const {
    const bool cpp = module.language() == ir::Language::Cpp;
    const std::string text = constructor_text(module, stmt, *c.call);
    std::vector<Related> related = {{ir::loop_header(loop), "the training loop that repeats it"}};
    if (c.built == Built::Optimizer) {
      sink.report(kInfo, construction_range(module, stmt, *c.call),
                  fmt::format("`{}` is constructed on every iteration of the training loop: each "
                              "one allocates new optimizer state and discards the state the "
                              "previous one accumulated",
                              text),
                  cpp ? "create the optimizer once before the loop; to change the learning "
                        "rate, set `lr` on the options of each of its `param_groups()`, or use a "
                        "scheduler (`torch::optim::StepLR`)"
                      : "create the optimizer once before the loop; to change the learning rate, "
                        "set `param_group[\"lr\"]` or use a scheduler",
                  std::move(related));
      return;
    }
    sink.report(
        kInfo, construction_range(module, stmt, *c.call),
        fmt::format("`{}` is constructed on every iteration of the training loop: each one {}, "
                    "and the previous ones stay alive while the optimizer or the graph "
                    "references them",
                    text, allocates(*c.call)),
        fmt::format("construct {} once before the loop and reuse it",
                    constructor_name(module, *c.call)),
        std::move(related));
  }

  void report_in_method(const ir::Module& module, const ir::Function& function, const Stmt& stmt,
                        const Construction& c, DiagnosticSink& sink) const {
    const bool cpp = module.language() == ir::Language::Cpp;
    const std::string text = constructor_text(module, stmt, *c.call);
    std::vector<Related> related = {
        {function.name_range, function.name == "forward"
                                  ? std::string("`forward()` runs on every call of the module")
                                  : fmt::format("`{}()` runs on every step", function.name)}};
    // `self.bn = nn.BatchNorm2d(64).to(x.device)` in forward(): name the attribute to move.
    std::string attr;
    if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value != nullptr &&
        stmt.value->range.begin <= c.call->range.begin &&
        c.call->range.end <= stmt.value->range.end) {
      const std::string key = ir::place_key(stmt.targets[0]);
      // C++ names the member bare: `proj = register_module("proj", ...)`.
      if (key.starts_with("self.")) attr = cpp ? key.substr(5) : key;
    }
    const std::string_view what =
        c.built == Built::Parameter ? "makes a new parameter" : allocates(*c.call);
    const std::string message =
        attr.empty() ? fmt::format(
                           "`{}` is constructed in `{}()`: every call {} that the optimizer never "
                           "updates",
                           text, function.name, what)
                     : fmt::format(
                           "`{}` is rebuilt as `{}` in `{}()`: every call {} that the optimizer "
                           "never updates",
                           text, attr, function.name, what);
    std::string help;
    if (cpp) {
      help = attr.empty() ? fmt::format(
                                "construct {} once in the constructor, register it with "
                                "`register_module` and call it in `{}()`",
                                constructor_name(module, *c.call), function.name)
                          : fmt::format("move `{} = ...` to the constructor", attr);
    } else {
      help = attr.empty()
                 ? fmt::format(
                       "construct {} once in `__init__`, store it on `self` and {} it in `{}()`",
                       constructor_name(module, *c.call),
                       c.built == Built::Parameter ? "use" : "call", function.name)
                 : fmt::format("move `{} = ...` to `__init__`", attr);
    }
    sink.report(kInfo, construction_range(module, stmt, *c.call), message, help,
                std::move(related));
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl007_module_in_loop() {
  return std::make_unique<ModuleInLoop>();
}

}  // namespace sealint::rules
