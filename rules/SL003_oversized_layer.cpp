// Flags an nn.Linear/Embedding/convolution/recurrent layer whose constant sizes need more memory
// for weights, grads and Adam state than a budget. docs: docs/rules/SL003.md
#include "rules/SL003_oversized_layer.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_layers.h"
#include "rules/SL003/parameters.h"
#include "rules/SL003/placement.h"
#include "rules/support/quote.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL003",
    .name = "oversized-layer",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a layer whose constant sizes need more memory for its weights, gradients "
        "and Adam state than a budget.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus yet
    .brief =
        "a layer whose constant sizes need more than a budget for weights, grads and Adam state",
    // A test that builds a layer too large to allocate fails or takes the machine down too.
    .reports_in_tests = true,
};

using ir::Expr;
using ir::ExprKind;
using ir::FoldedInt;
using ir::Stmt;
using ir::StmtKind;

using sl003::BoundArgs;
using sl003::Conversion;
using sl003::LayerCall;
using sl003::Walk;

// ---- the diagnostic ------------------------------------------------------------------------

// `4295032832` -> "4,295,032,832".
std::string grouped(int64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string quote_layer(const ir::Module& module, const LayerCall& layer) {
  constexpr size_t kMaxLayerQuote = 60;
  const QuotedExpr whole = quote_range(module, layer.quote, kMaxLayerQuote);
  if (whole.complete) return whole.text;
  if (module.language() == ir::Language::Cpp) {
    // The IR's callee spans the whole construction: `torch::nn::Linear fc(...)`.
    std::string head = quote_cpp_construction(module, layer.quote, kMaxLayerQuote);
    if (!head.empty()) return head;
  }
  return fmt::format("{}(...)", quote_range(module, layer.call->callee()->range).text);
}

std::string format_gib(double gib) {
  return std::floor(gib) == gib ? fmt::format("{:.1f}", gib) : fmt::format("{}", gib);
}

constexpr long double kGiB = 1024.0L * 1024.0L * 1024.0L;
constexpr int kCopies = 4;  // weights, grads, Adam's exp_avg and exp_avg_sq

std::optional<std::string> check_budget(std::string_view value) {
  auto parsed = OversizedLayerOptions::parse({{"budget-gib", std::string(value)}});
  if (parsed) return std::nullopt;
  return parsed.error();
}

constexpr std::array<RuleOption, 1> kOptions = {{{"budget-gib", "2.0", check_budget}}};

class OversizedLayer final : public Rule {
 public:
  explicit OversizedLayer(const OversizedLayerOptions& options)
      : budget_gib_(options.budget_gib),
        budget_bytes_(static_cast<long double>(options.budget_gib) * kGiB) {
    assert(std::isfinite(options.budget_gib) && options.budget_gib > 0 &&
           "OversizedLayerOptions::parse accepts positive budgets only");
  }

  const RuleInfo& info() const override { return kInfo; }

  std::span<const RuleOption> options() const override { return kOptions; }

  std::unique_ptr<const Rule> with_options(const OptionTable& table) const override {
    auto options = OversizedLayerOptions::parse(table);
    assert(options && "the registry checks each option against kOptions first");
    return std::make_unique<OversizedLayer>(*options);
  }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    // A file that does not import torch builds no torch layers.
    if (!context.analysis.has_torch()) return;
    const Walk walk = sl003::walk_module(module);
    // No layer construction in the file: nothing to estimate.
    if (walk.layers.empty()) return;
    // `torch.set_default_device("meta")`: layers get no memory.
    if (walk.default_device_meta) return;
    const ir::ModuleConstants constants(module);
    const auto locals = sl003::cpp_locals(module, walk, constants);
    for (const LayerCall& layer : walk.layers)
      check_layer(module, walk, constants, locals[layer.scope].get(), layer, sink);
  }

 private:
  // `locals`: the C++ declarations of the layer's function, or nullptr (Python, a class body).
  void check_layer(const ir::Module& module, const Walk& walk, const ir::ModuleConstants& constants,
                   const ir::LocalConstants* locals, const LayerCall& layer,
                   DiagnosticSink& sink) const {
    // Built on the meta device, partitioned as it is built, or expected to fail: no memory of
    // its own here.
    if (layer.elsewhere) return;
    const bool cpp = module.language() == ir::Language::Cpp;
    const std::optional<BoundArgs> bound = cpp ? BoundArgs::bind_cpp(*layer.call, *layer.spec)
                                               : BoundArgs::bind(*layer.call, *layer.spec);
    // `*args`, `**kwargs` or a call PyTorch rejects: the sizes are not known.
    if (!bound) return;
    if (sl003::mentions_meta(module, bound->get("device"))) return;  // nothing allocated
    // Embedding options that change what is kept: frozen weights have no grads or Adam state,
    // sparse gradients are not a dense copy.
    for (std::string_view flag : {"sparse", "_freeze"}) {
      if (bound->get(flag) != nullptr &&
          (bound->get(flag)->kind != ExprKind::Const || bound->get(flag)->text != "False"))
        return;
    }
    int bytes = 4;
    if (const Expr* dtype = bound->get("dtype")) {
      const std::optional<int> known = knowledge::dtype_bytes(ir::qualified_name(module, dtype));
      // A dtype from a variable, or not floating point: the size per element is not known.
      if (!known) return;
      bytes = *known;
    } else if (walk.default_dtype_changed) {
      return;  // the file changes the default dtype: float32 is not known to hold
    }
    if (const auto chain = walk.chains.find(layer.call); chain != walk.chains.end()) {
      const Conversion conversion = sl003::apply_chain(module, chain->second);
      // Moved to the meta device, frozen, or cast to a dtype we cannot read.
      if (conversion.meta || conversion.frozen || conversion.unknown_dtype) return;
      if (conversion.bytes) bytes = *conversion.bytes;
    }

    std::vector<const ir::ModuleConstant*> used;
    const ir::NameLookup lookup = [&](const Expr& name) -> std::optional<FoldedInt> {
      if (locals != nullptr) {
        // C++: the declaration in scope there (`constexpr int64_t kHidden = 1 << 15;`, a
        // parameter, a variable), else the namespace-scope constant.
        if (const auto* local = locals->visible(name.text, name.range.begin)) {
          if (!local->constant) return std::nullopt;
          if (std::find(used.begin(), used.end(), &*local->constant) == used.end())
            used.push_back(&*local->constant);
          return local->constant->value;
        }
      } else if (walk.scopes[layer.scope].contains(name.text)) {
        // A name the function (or one around it) binds is not the module constant.
        return std::nullopt;
      }
      const ir::ModuleConstant* constant = constants.find(name.text);
      if (constant == nullptr) return std::nullopt;
      if (std::find(used.begin(), used.end(), constant) == used.end()) used.push_back(constant);
      return constant->value;
    };
    const std::optional<FoldedInt> params =
        sl003::count_parameters(*layer.spec, *bound, lookup, module.language());
    // A size that is a parameter, an attribute, a config value: not known here.
    if (!params) return;
    const long double needed =
        params->huge ? static_cast<long double>(FoldedInt::kMaxExact) * bytes * kCopies
                     : static_cast<long double>(params->value) * bytes * kCopies;
    // Fits the budget: an ordinary layer.
    if (needed <= budget_bytes_) return;
    report(module, layer, *params, bytes, needed, used, sink);
  }

  void report(const ir::Module& module, const LayerCall& layer, FoldedInt params, int bytes,
              long double needed, const std::vector<const ir::ModuleConstant*>& used,
              DiagnosticSink& sink) const {
    const double gib = static_cast<double>(needed / kGiB);
    const std::string call = quote_layer(module, layer);
    std::string message =
        fmt::format("`{}` needs {} {:.1f} GiB for weights, grads and Adam state (budget {} GiB)",
                    call, params.huge ? "more than" : "about", gib, format_gib(budget_gib_));
    std::string help = fmt::format(
        "shrink or factorize the layer, or {}; the estimate is {} parameters x {} bytes x {} "
        "copies (weights, grads, Adam's two moments)",
        module.language() == ir::Language::Cpp ? "split it across devices"
                                               : "shard it across devices (FSDP, ZeRO-3)",
        params.huge ? "over " + grouped(FoldedInt::kMaxExact) : grouped(params.value), bytes,
        kCopies);
    std::vector<const ir::ModuleConstant*> sorted = used;
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
      return a->target->range.begin < b->target->range.begin;
    });
    std::vector<Related> related;
    for (const ir::ModuleConstant* constant : sorted) {
      related.push_back({constant->target->range,
                         constant->value.huge
                             ? fmt::format("`{}` is defined here", constant->target->text)
                             : fmt::format("`{}` is defined here as {}", constant->target->text,
                                           constant->value.value)});
    }
    sink.report(kInfo, layer.quote, std::move(message), std::move(help), std::move(related));
  }

  const double budget_gib_;
  const long double budget_bytes_;
};

}  // namespace

Result<OversizedLayerOptions> OversizedLayerOptions::parse(
    const std::map<std::string, std::string, std::less<>>& table) {
  OversizedLayerOptions options;
  for (const auto& [name, value] : table) {
    if (name != "budget-gib") return make_error(fmt::format("unknown option '{}' for SL003", name));
    double budget = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), budget);
    if (error != std::errc() || end != value.data() + value.size() || !std::isfinite(budget) ||
        budget <= 0) {
      return make_error(
          fmt::format("SL003 option 'budget-gib' must be a positive number, not '{}'", value));
    }
    options.budget_gib = budget;
  }
  return options;
}

std::unique_ptr<const Rule> make_sl003_oversized_layer() {
  return make_sl003_oversized_layer(OversizedLayerOptions{});
}

std::unique_ptr<const Rule> make_sl003_oversized_layer(const OversizedLayerOptions& options) {
  return std::make_unique<OversizedLayer>(options);
}

std::unique_ptr<const Rule> make_sl003_oversized_layer(double budget_gib) {
  return make_sl003_oversized_layer(OversizedLayerOptions{budget_gib});
}

}  // namespace sealint::rules
