#include "analyzer/project/summarize.h"

#include "analyzer/semantic/base_loops.h"
#include "analyzer/semantic/constructions.h"
#include "analyzer/semantic/model_runs.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "analyzer/semantic/tf_call_effects.h"

namespace sealint::project {

namespace {

// The fact with every pointer into the file's IR dropped; an instance of one of the file's own
// top-level classes points at that class's summary instead.
ir::Fact portable(const ir::Fact& fact, const ModuleSummary& summary) {
  ir::Fact out = fact;
  // A graph claimed for a value of no known kind is a join over paths the caller cannot see
  // (accelerate's `prepare(*objs)` returns a module, an optimizer or a loader): only a tensor or
  // a container of them carries the claim to another file. A grad argument still flows in.
  if (out.grad == ir::Grad::Yes && out.kind != ir::ValueKind::Tensor &&
      out.kind != ir::ValueKind::Container) {
    out.grad = ir::Grad::Unknown;
  }
  out.function = nullptr;
  out.foreign = nullptr;
  out.instance_of = nullptr;
  if (fact.instance_of != nullptr && fact.kind != ir::ValueKind::Class) {
    if (auto it = summary.classes.find(fact.instance_of->name); it != summary.classes.end())
      out.foreign = &it->second;
  }
  return out;
}

ir::ForeignFunction portable(const ir::FileAnalysis& analysis, const ir::Function& function,
                             const ModuleSummary& summary, const std::string& file) {
  ir::ForeignFunction out;
  out.name = std::string(function.name);
  out.file = file;
  for (const ir::Param& param : function.params) out.params.emplace_back(param.name);
  const ir::FunctionSummary& own = analysis.summary(function);
  out.summary.returns = portable(own.returns, summary);
  for (const ir::Fact& element : own.return_elements)
    out.summary.return_elements.push_back(portable(element, summary));
  out.summary.trains = own.trains;
  for (const ir::SelfEffect& effect : own.self_effects) {
    // A graph made inside the method is that file's own finding; what a caller hands in is the
    // caller's.
    if (effect.params == 0) continue;
    ir::SelfEffect kept;
    kept.kind = effect.kind;
    kept.attr = effect.attr;
    kept.params = effect.params;
    out.summary.self_effects.push_back(std::move(kept));
  }
  out.summary.resets = own.resets;
  out.runs_without_grad = analysis.runs_without_grad(function);
  // A function that trains runs its model for its own backward: not a run a caller wastes.
  out.runs_model =
      !out.runs_without_grad && !own.trains && semantic::runs_model_anywhere(analysis, function);
  out.self_calls_in_loops = semantic::self_calls_in_loops(analysis, function);
  const semantic::TfCallEffects tf = semantic::tf_call_effects(analysis.module(), function);
  out.runs_tf_session = tf.runs_session;
  if (tf.op_per_call != nullptr) {
    out.tf_op_per_call = semantic::tf_callee_api(analysis.module(), *tf.op_per_call).path;
    out.tf_op_unless_passed = std::string(tf.unless_passed);
    out.tf_op_if_passed = std::string(tf.if_passed);
    out.tf_op_line =
        static_cast<int>(analysis.module().file().position(tf.op_per_call->range.begin).line);
  }
  return out;
}

bool top_level(const ir::Function* parent) {
  return parent == nullptr || parent->is_module;
}

}  // namespace

ModuleSummary summarize(const ir::FileAnalysis& analysis, const std::string& file) {
  const ir::Module& module = analysis.module();
  semantic::Constructions constructions(analysis);
  ModuleSummary summary;
  // Classes first, so that a returned instance can point at its class's summary.
  for (const ir::ClassDef& cls : module.classes()) {
    if (!top_level(cls.parent_function)) continue;
    ir::ForeignClass& out = summary.classes[std::string(cls.name)];
    out.name = std::string(cls.name);
    out.file = file;
    out.is_module = analysis.is_module_class(&cls) || analysis.method_of(cls, "forward") != nullptr;
    out.is_loss = cls.name.ends_with("Loss");
    out.holds_parameters = constructions.has_parameters(&cls);
    for (const ir::Expr* base : cls.bases) {
      const ir::Expr* root = ir::root_name(base);
      if (root == nullptr || root->kind != ir::ExprKind::Name ||
          !module.is_import_alias(root->text)) {
        continue;
      }
      out.imported_bases.push_back(ir::qualified_name(module, base));
    }
  }
  for (const ir::ClassDef& cls : module.classes()) {
    if (!top_level(cls.parent_function)) continue;
    ir::ForeignClass& out = summary.classes[std::string(cls.name)];
    // Its own methods, then each same-file base's that it does not override.
    const size_t limit = module.classes().size();
    size_t hops = 0;
    for (const ir::ClassDef* owner = &cls; owner != nullptr && hops <= limit;
         owner = analysis.base_in_file(*owner), ++hops) {
      for (const ir::Function* method : owner->methods) {
        if (!out.methods.contains(method->name))
          out.methods.emplace(std::string(method->name),
                              portable(analysis, *method, summary, file));
      }
    }
  }
  for (const ir::Function& function : module.functions()) {
    if (function.is_module || function.parent_class != nullptr ||
        !top_level(function.parent_function)) {
      continue;
    }
    summary.functions.emplace(std::string(function.name),
                              portable(analysis, function, summary, file));
  }
  for (const ir::ImportAlias& alias : module.imports) {
    const std::string local(alias.local);
    if (summary.classes.contains(local) || summary.functions.contains(local)) continue;
    summary.reexports[local] = alias.dotted;
  }
  return summary;
}

}  // namespace sealint::project
