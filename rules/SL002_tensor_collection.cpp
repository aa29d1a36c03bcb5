// Flags tensors that carry an autograd graph appended or stored into a container that outlives the
// loop iteration. docs: docs/rules/SL002.md
#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/container_bounds.h"
#include "analyzer/semantic/effect_calls.h"
#include "rules/SL002/kept_outputs.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL002",
    .name = "tensor-collection",
    .severity = Severity::Error,
    .python = true,
    .cpp = true,
    .summary =
        "Flags tensors that carry an autograd graph appended or stored into a container that "
        "outlives the "
        "loop iteration.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // 5 of 5 on bench/corpus, too few to say high
    .brief =
        "tensors with an autograd graph kept in a list, dict or deque that outlives the iteration",
};

using ir::Expr;
using ir::ExprKind;
using ir::Grad;
using ir::Stmt;
using ir::StmtKind;
using ir::ValueKind;

// One value put into a container: `losses.append(loss)`, `history += [loss]`, `d[i] = out`.
struct Store {
  const Expr* container = nullptr;
  const Expr* value = nullptr;
  const Expr* primary = nullptr;  // what the diagnostic underlines
  std::string_view verb;          // "appended to"
};

constexpr std::string_view kConcatenated = "concatenated onto";

bool maybe_container(const ir::Fact& fact) {
  return fact.kind == ValueKind::Container || fact.kind == ValueKind::Unknown;
}

// `xs = torch.cat((xs, out), 0)`: the tensor rebound from itself keeps every iteration's `out`,
// as an append to a list would.
void find_concatenation(const ir::FileAnalysis& analysis, const Expr& target, const Expr& value,
                        std::vector<Store>& out) {
  if (value.kind != ExprKind::Call || value.arg_count() == 0 ||
      value.arg(0)->kind != ExprKind::Collection)
    return;
  const std::string function = ir::qualified_name(analysis.module(), value.callee());
  if (!function.starts_with("torch.") ||
      !knowledge::kConcatenations.contains(std::string_view(function).substr(6)))
    return;
  const std::string key = ir::place_key(&target);
  if (key.empty()) return;
  bool reads_itself = false;
  const Expr* joined = nullptr;
  for (const Expr* item : value.arg(0)->items) {
    if (ir::place_key(item) == key)
      reads_itself = true;
    else if (joined == nullptr)
      joined = item;
  }
  if (reads_itself && joined != nullptr) out.push_back({&target, joined, &value, kConcatenated});
}

void find_stores(const ir::FileAnalysis& analysis, const Stmt& stmt, std::vector<Store>& out) {
  ir::for_each_expr(stmt, [&](const Expr& call) {
    if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr ||
        call.arg_count() == 0)
      return;
    const std::string_view method = call.callee()->text;
    const Expr* receiver = call.callee()->base();
    const ir::Fact& fact = analysis.fact(*receiver);
    const knowledge::ContainerStore* store = knowledge::container_store(method);
    if (store == nullptr || call.arg_count() <= store->value_arg) return;
    // `t.add(x)` is arithmetic on a tensor: an ambiguous method needs a known container.
    if (store->ambiguous ? fact.kind != ValueKind::Container : !maybe_container(fact)) return;
    out.push_back({receiver, call.arg(store->value_arg), &call, store->verb});
  });
  if (stmt.targets.size() != 1 || stmt.value == nullptr) return;
  const Expr* target = stmt.targets[0];
  if (stmt.kind == StmtKind::AugAssign && stmt.text == "+=" &&
      stmt.value->kind == ExprKind::Collection &&
      stmt.value->collection_kind == ir::CollectionKind::List) {
    for (const Expr* item : stmt.value->items)
      out.push_back({target, item, &stmt.value[0], "added to"});
  }
  if (stmt.kind == StmtKind::Assign) find_concatenation(analysis, *target, *stmt.value, out);
  if (stmt.kind == StmtKind::Assign && target->kind == ExprKind::Subscript &&
      target->items.size() == 2 && target->items[1]->kind != ExprKind::Const &&
      target->items[1]->kind != ExprKind::Slice &&
      analysis.fact(*target->base()).kind == ValueKind::Container) {
    // `d[i] = out` with a key that changes: the dict keeps every iteration's value.
    out.push_back({target->base(), stmt.value, target, "stored in"});
  }
}

// Some grad value the stored expression reads is made inside `loop`: a call or operation there,
// or a name the loop binds. Only names bound before the loop and not rebound in it (and calls
// on nothing but those) make no new graph per iteration.
bool makes_graph_in(const ir::FileAnalysis& analysis, const Expr& value, const Stmt& loop) {
  bool reads_outer_graph = false;
  bool reads_inner_graph = false;
  ir::for_each_subexpr(value, [&](const Expr& sub) {
    if (is_model_call(analysis, sub)) reads_inner_graph = true;
    if (sub.kind != ExprKind::Name || analysis.fact(sub).grad != Grad::Yes) return;
    (ir::bound_in(loop, sub.text) ? reads_inner_graph : reads_outer_graph) = true;
  });
  // A model call or a grad value with no named source (`model(x)` directly) is new each time.
  return reads_inner_graph || !reads_outer_graph;
}

// What makes a detached CPU copy of `value`: `.detach().cpu()`, or `.detach()` where the value
// is already moved to the CPU (`y_pred.cpu()`).
std::string_view cpu_copy(const Expr& value) {
  const bool on_cpu = value.kind == ExprKind::Call && value.callee()->kind == ExprKind::Attr &&
                      value.callee()->text == "cpu";
  return on_cpu ? "detach()" : "detach().cpu()";
}

class TensorCollection final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      // A framework calling the function once per batch repeats it as a loop does.
      const std::optional<semantic::RepeatedCall> repeated_call =
          semantic::repeated_by_framework(analysis, function);
      const bool repeated = repeated_call.has_value();
      if (repeated_call)
        sl002::check_kept_outputs(module, analysis, function, *repeated_call, kInfo, sink);
      ir::walk_statements(function, analysis.runs_without_grad(function),
                          [&](const Stmt& stmt, const ir::StmtContext& where) {
                            std::vector<Store> stores;
                            find_stores(analysis, stmt, stores);
                            for (const Store& store : stores) {
                              const std::string key = ir::place_key(store.container);
                              if (key.empty()) continue;
                              if (const std::optional<Region> region =
                                      growth_region(analysis, function, where.loops, key))
                                check_store(module, analysis, *region, store, key, sink);
                            }
                            if (!where.loops.empty() || repeated)
                              check_method_calls(module, analysis, function, where, stmt, sink);
                          });
    }
  }

 private:
  // The remedy for a value stored with its graph: a number or a detached CPU copy (a scalar), a
  // detached CPU copy (a batch), a detached copy to concatenate.
  static std::string graph_store_help(const ir::Module& module, const Store& store,
                                      const QuotedExpr& text, bool scalar) {
    if (store.verb == kConcatenated) {
      // The joined tensor stays where it is: a CPU copy would not concatenate onto it.
      return text.complete ? fmt::format("concatenate a detached copy: `{}`",
                                         method_on(*store.value, text.text, "detach()"))
                           : std::string("concatenate a detached copy (`.detach()`)");
    }
    if (!text.complete) {
      return fmt::format("store a number (`.{}`) or a detached CPU copy (`.detach().cpu()`)",
                         item_method(module, *store.value));
    }
    if (scalar) {
      return fmt::format("store a number (`{}`) or a detached CPU copy (`{}`)",
                         method_on(*store.value, text.text, item_method(module, *store.value)),
                         method_on(*store.value, text.text, cpu_copy(*store.value)));
    }
    return fmt::format("store a detached CPU copy: `{}`",
                       method_on(*store.value, text.text, cpu_copy(*store.value)));
  }

  // A store across whose region's runs the container `key` grows: a loop, or
  // `self.outputs.append(loss)` in Lightning's `training_step`, which the framework calls once
  // per batch while the list keeps every batch's graph until something clears it.
  static void check_store(const ir::Module& module, const ir::FileAnalysis& analysis,
                          const Region& region, const Store& store, const std::string& key,
                          DiagnosticSink& sink) {
    const ir::Fact& value = analysis.fact(*store.value);
    const bool graph = ir::holds_graph(value);
    // In forward() a list kept in self is most often a per-step cache that the step reads.
    if (region.is_forward()) return;
    // A detached batch of activations kept on the device: no graph, but device memory grows.
    // Only in loops that train: an evaluation loop collecting predictions does it on purpose.
    const ir::Stmt* loop = region.loop_stmt();
    // (A tensor concatenated onto lives on its own device: nothing to say about the copy's.)
    const bool device_batch =
        loop != nullptr && !graph && value.detached && !value.scalar && store.verb != kConcatenated;
    if (!graph && !device_batch) return;
    if (device_batch && !analysis.loop_trains(*loop)) return;
    // Made from a graph that no statement of the loop makes (`loss.repeat(n)` of the last
    // training loss, in an evaluation loop): the entries share that one graph, none is new.
    if (graph && loop != nullptr && !makes_graph_in(analysis, *store.value, *loop)) return;
    const QuotedExpr text = quote(module, *store.value);
    const std::string container = quote(module, *store.container).text;
    if (graph && loop != nullptr) {
      if (const Expr* kept =
              semantic::container_bound(module, analysis, region.function(), *loop, key)) {
        report_bounded(module, analysis, region, store, key, text, container, *kept, sink);
        return;
      }
    }
    if (graph) {
      std::string help = graph_store_help(module, store, text, value.scalar);
      sink.report(kInfo, store.primary->range,
                  fmt::format("`{}` is {} `{}` with its autograd graph{}, so every {}'s graph "
                              "stays alive",
                              text.text, store.verb, container,
                              !region.is_loop()             ? region.repeats_clause()
                              : store.verb == kConcatenated ? "; the tensor outlives the loop"
                                                            : "; the container outlives the loop",
                              region.unit()),
                  std::move(help), region.growth_evidence(analysis, key))
          .probe = region.probe(module, ProbeMeasure::Growth, {key});
      return;
    }
    sink.report(kInfo, store.primary->range,
                fmt::format("`{}` stays on its device in `{}` across iterations, so device memory "
                            "grows by one batch per iteration",
                            text.text, container),
                text.complete ? fmt::format("keep a CPU copy: `{}`",
                                            method_on(*store.value, text.text, "cpu()"))
                              : std::string("keep a CPU copy: call `.cpu()` on the stored value"),
                region.growth_evidence(analysis, key), std::nullopt, Severity::Note)
        .probe = region.probe(module, ProbeMeasure::Growth, {key});
  }

  // A graph appended to a bounded deque: the last `kept` iterations' graphs stay alive, which is
  // waste (that many graphs' activations) but not growth without end.
  static void report_bounded(const ir::Module& module, const ir::FileAnalysis& analysis,
                             const Region& region, const Store& store, const std::string& key,
                             const QuotedExpr& text, const std::string& container,
                             const Expr& bound, DiagnosticSink& sink) {
    std::string help = graph_store_help(module, store, text, analysis.fact(*store.value).scalar);
    // A literal as it is, anything else as code: "the last 100", "the last `window`".
    const std::string written = quote(module, bound).text;
    const std::string kept = bound.kind == ExprKind::Const ? written : fmt::format("`{}`", written);
    sink.report(kInfo, store.primary->range,
                fmt::format("`{}` is {} `{}` with its autograd graph; the deque keeps the last {} "
                            "entries, so the graphs of the last {} {}s stay alive",
                            text.text, store.verb, container, kept, kept, region.unit()),
                std::move(help), region.growth_evidence(analysis, key), std::nullopt,
                Severity::Warning)
        .probe = region.probe(module, ProbeMeasure::Growth, {key});
  }

  // `self.step(batch)` in a loop where the file's `step()` appends a loss it computes itself to
  // `self.losses`.
  static bool report_local_effect(const ir::Module& module, const ir::FileAnalysis& analysis,
                                  const ir::Function& function, const ir::StmtContext& where,
                                  const Expr& call, const ir::Function& method,
                                  const ir::Fact& receiver_fact, const ir::SelfEffect& effect,
                                  DiagnosticSink& sink) {
    if (!ir::holds_graph(analysis.fact(*effect.value))) return false;
    const std::string receiver_key = ir::place_key(call.callee()->base());
    if (receiver_key.empty()) return false;
    const std::string key = receiver_key + "." + effect.attr;
    const std::optional<Region> region =
        growth_region(analysis, function, where.loops, key,
                      reset_methods_for(analysis, receiver_fact, effect.attr));
    if (!region || region->is_forward()) return false;
    const QuotedExpr text = quote(module, *effect.value);
    std::vector<Related> related = region->growth_evidence(analysis, receiver_key);
    if (effect.stmt != nullptr) {
      related.insert(related.begin(),
                     {effect.stmt->range, fmt::format("`{}()` stores `{}` in `self.{}` here",
                                                      method.name, text.text, effect.attr)});
    }
    sink.report(
            kInfo, call.range,
            fmt::format("`{}()` stores `{}` in `{}` with its autograd graph on every call{}, so "
                        "every {}'s graph stays alive",
                        method.name, text.text, key, region->repeats_clause(), region->unit()),
            text.complete
                ? fmt::format("store a value without a graph in `{}()`: `{}`", method.name,
                              method_on(*effect.value, text.text, "detach()"))
                : fmt::format("store a value without a graph in `{}()` (`.detach()`)", method.name),
            std::move(related))
        .probe = region->probe(module, ProbeMeasure::Growth, {key});
    return true;
  }

  // `logger.log(loss)` where the file's `log(self, value)` does `self.history.append(value)`.
  void check_method_calls(const ir::Module& module, const ir::FileAnalysis& analysis,
                          const ir::Function& function, const ir::StmtContext& where,
                          const Stmt& stmt, DiagnosticSink& sink) const {
    // The file's own class, or one another file of the project defines.
    semantic::for_each_effect_call(
        analysis, stmt, ir::SelfEffect::Kind::Append, [&](const semantic::EffectCall& at) {
          const Expr& call = at.call;
          const ir::Callee& method = at.method;
          const ir::SelfEffect& effect = at.effect;
          if (effect.local_grad && effect.value != nullptr && method.local != nullptr &&
              !analysis.runs_without_grad(*method.local) &&
              !arguments_without_graph(analysis, call, method, effect.params) &&
              report_local_effect(module, analysis, function, where, call, *method.local,
                                  at.receiver, effect, sink)) {
            return true;
          }
          // The first graph argument the method keeps decides for the call.
          const Expr* kept = nullptr;
          ir::for_each_argument_in(call, method, 1, effect.params, [&](const Expr& arg) {
            if (ir::holds_graph(analysis.fact(arg))) kept = &arg;
            return kept != nullptr;
          });
          if (kept == nullptr) return false;
          const std::string receiver_key = ir::place_key(call.callee()->base());
          if (receiver_key.empty()) return true;
          const std::string key = receiver_key + "." + effect.attr;
          const std::optional<Region> region =
              growth_region(analysis, function, where.loops, key,
                            reset_methods_for(analysis, at.receiver, effect.attr));
          if (!region || region->is_forward()) return true;
          const QuotedExpr text = quote(module, *kept);
          std::vector<Related> related = region->growth_evidence(analysis, receiver_key);
          const bool one_tensor = text.complete && kept->kind != ExprKind::Collection;
          // A method of this file keeps a part of a tuple or list handed over
          // (`self._update((y_pred, y))`, which has no `.detach()`): the statement that keeps it
          // is the one to fix, so the finding goes there and the call is evidence.
          if (method.local != nullptr && effect.stmt != nullptr && effect.value != nullptr &&
              kept->kind == ExprKind::Collection) {
            const QuotedExpr stored = quote(module, *effect.value);
            related.insert(related.begin(),
                           {call.range, fmt::format("`{}` is handed to `{}()` here", text.text,
                                                    method.name())});
            sink.report(kInfo, effect.stmt->range,
                        fmt::format("`{}` is appended to `self.{}` in `{}.{}()` with its autograd "
                                    "graph, from `{}` that `{}()` hands over{}, so every {}'s "
                                    "graph stays alive",
                                    stored.text, effect.attr, at.owner(), method.name(), text.text,
                                    function.name,
                                    region->is_loop() ? " in a loop the list outlives"
                                                      : region->repeats_clause(),
                                    region->unit()),
                        stored.complete
                            ? fmt::format(
                                  "store a detached CPU copy: `{}`",
                                  method_on(*effect.value, stored.text, cpu_copy(*effect.value)))
                            : std::string("store a detached CPU copy (`.detach().cpu()`)"),
                        std::move(related))
                .probe = region->probe(module, ProbeMeasure::Growth, {key});
            return true;
          }
          // A method of this file: where it keeps the value.
          if (method.local != nullptr && effect.stmt != nullptr) {
            related.insert(related.begin(),
                           {effect.stmt->range, fmt::format("`{}()` appends it to `self.{}` here",
                                                            method.name(), effect.attr)});
          }
          sink.report(kInfo, call.range,
                      fmt::format("`{}` is appended to `{}` by `{}.{}()`{} with its autograd "
                                  "graph{}, so every {}'s graph stays alive",
                                  text.text, key, at.owner(), method.name(),
                                  defined_elsewhere(sink.file(), at.receiver),
                                  region->is_loop() ? "; the list outlives the loop"
                                                    : region->repeats_clause(),
                                  region->unit()),
                      one_tensor ? fmt::format("pass a number or a detached CPU copy: `{}`",
                                               method_on(*kept, text.text, cpu_copy(*kept)))
                      : kept->kind == ExprKind::Collection
                          ? fmt::format("detach what `{}()` keeps (`.detach().cpu()`), or pass "
                                        "detached copies",
                                        method.name())
                          : std::string("pass a number or a detached CPU copy (`.detach().cpu()`)"),
                      std::move(related))
              .probe = region->probe(module, ProbeMeasure::Growth, {key});
          return true;
        });
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl002_tensor_collection() {
  return std::make_unique<TensorCollection>();
}

}  // namespace sealint::rules
