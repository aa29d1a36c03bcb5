#include "analyzer/python/lowering.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/ir/facts.h"
#include "analyzer/python/frontend.h"
#include "analyzer/python/indentation.h"
#include "analyzer/python/ts.h"
#include "analyzer/semantic/guards.h"

namespace sealint::python {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

}  // namespace

struct Child {
  TSNode node;
  TSFieldId field;
  NodeKind kind;
  bool named;
};

class Lowerer {
 public:
  Lowerer(const PythonGrammar& grammar, TSNode root, ir::Module& module,
          std::vector<InputError>& problems, size_t memory_bytes)
      : memory_bytes_(memory_bytes),
        g_(grammar),
        f_(grammar.fields()),
        module_(module),
        code_(module.file().code()),
        problems_(problems),
        cursor_(root) {}

  void run(TSNode root) {
    add(root);
    report_syntax_errors(root);
    finish(range(root));
  }

  // The top-level statements of one tree: the whole file's, or one piece's of it.
  void add(TSNode root) {
    if (function_ == nullptr) {
      ir::Function* top = module_.new_function();
      top->name = "<module>";
      top->is_module = true;
      function_ = top;
    }
    lower_block(root, module_.top_level().body);
  }

  // Once every statement is in: `whole` is the range of the file's code.
  // The IR's nodes, and the facts the analysis keeps per expression, past the memory budget:
  // lowering stopped, and the file is not analysed (ParseBudget::memory_bytes).
  [[nodiscard]] bool over_budget() const {
    return statements_ * sizeof(Stmt) + module_.expr_count() * (sizeof(Expr) + sizeof(ir::Fact)) >
           memory_bytes_;
  }

  void finish(ir::SourceRange whole) {
    module_.top_level().range = whole;
    module_.index_imports();
    std::sort(module_.comments.begin(), module_.comments.end(),
              [](const ir::SourceRange& a, const ir::SourceRange& b) { return a.begin < b.begin; });
    module_.comments.erase(std::unique(module_.comments.begin(), module_.comments.end()),
                           module_.comments.end());
    for (Stmt* guard : guards_) classify_with(*guard);
  }

 private:
  // Bounds recursion on user-controlled depth; see kMaxNestingDepth.
  class DepthScope {
   public:
    explicit DepthScope(int& depth) : depth_(depth) { ++depth_; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;
    ~DepthScope() { --depth_; }

   private:
    int& depth_;
  };

  bool too_deep(TSNode node) {
    if (depth_ <= kMaxNestingDepth) return false;
    if (!nesting_reported_) {
      nesting_reported_ = true;
      problems_.push_back(
          {std::string(module_.file().path()), module_.file().position(ts_node_start_byte(node)),
           fmt::format("code nested deeper than {} levels is not analysed", kMaxNestingDepth)});
    }
    return true;
  }

  // One cursor, reset per node: ts_tree_cursor_new allocates its stack on every call.
  // Without `with_fields`, every Child's field is 0: the field lookup walks the grammar's field
  // map, and blocks, argument lists and collections do not need it.
  std::vector<Child> children(TSNode node, bool with_fields = true) {
    std::vector<Child> out;
    cursor_.reset(node);
    if (!cursor_.goto_first_child()) return out;
    out.reserve(ts_node_child_count(node));
    do {
      const TSNode child = cursor_.node();
      const NodeKind kind = g_.kind(child);
      if (kind == NodeKind::k_comment) {
        module_.comments.push_back(range(child));  // for suppressions; deduplicated in run()
        continue;
      }
      out.push_back(
          {child, with_fields ? cursor_.field_id() : TSFieldId{0}, kind, ts_node_is_named(child)});
    } while (cursor_.goto_next_sibling());
    return out;
  }

  static const Child* field(const std::vector<Child>& kids, TSFieldId id) {
    for (const Child& kid : kids) {
      if (kid.field == id) return &kid;
    }
    return nullptr;
  }

  ir::SourceRange range(TSNode node) const {
    return {ts_node_start_byte(node), ts_node_end_byte(node)};
  }
  std::string_view text(TSNode node) const {
    const uint32_t begin = ts_node_start_byte(node);
    return code_.substr(begin, ts_node_end_byte(node) - begin);
  }

  // ---- statements -------------------------------------------------------------------------

  void lower_block(TSNode block, std::vector<Stmt*>& out) {
    for (const Child& kid : children(block, false)) {
      if (over_budget()) return;
      if (kid.named || ts::is_error(kid.node)) lower_stmt(kid, out);
    }
  }

  void lower_body_field(const std::vector<Child>& kids, TSFieldId id, std::vector<Stmt*>& out) {
    if (const Child* body = field(kids, id)) lower_block(body->node, out);
  }

  Stmt* new_stmt(StmtKind kind, ir::SourceRange at) {
    ++statements_;
    return module_.new_stmt(kind, at);
  }
  Stmt* other(TSNode node) { return new_stmt(StmtKind::Other, range(node)); }

  void lower_stmt(const Child& kid, std::vector<Stmt*>& out) {
    const TSNode node = kid.node;
    DepthScope scope(depth_);
    if (too_deep(node) || ts::is_error(node)) {
      out.push_back(other(node));
      return;
    }
    switch (kid.kind) {
      case NodeKind::k_function_definition:
        out.push_back(lower_function(node, {}));
        return;
      case NodeKind::k_class_definition:
        out.push_back(lower_class(node, {}));
        return;
      case NodeKind::k_decorated_definition:
        out.push_back(lower_decorated(node));
        return;
      case NodeKind::k_for_statement:
      case NodeKind::k_while_statement:
        out.push_back(lower_loop(node, kid.kind));
        return;
      case NodeKind::k_if_statement:
        out.push_back(lower_if(node));
        return;
      case NodeKind::k_with_statement:
        out.push_back(lower_with(node));
        return;
      case NodeKind::k_try_statement:
        out.push_back(lower_try(node));
        return;
      case NodeKind::k_match_statement:
        out.push_back(lower_match(node));
        return;
      default:
        break;
    }
    // Simple statements: no rule reasons about half-parsed code.
    if (ts_node_has_error(node)) {
      out.push_back(other(node));
      return;
    }
    switch (kid.kind) {
      case NodeKind::k_expression_statement:
        out.push_back(lower_expression_statement(node));
        return;
      case NodeKind::k_return_statement:
      case NodeKind::k_raise_statement: {
        Stmt* stmt =
            new_stmt(kid.kind == NodeKind::k_return_statement ? StmtKind::Return : StmtKind::Raise,
                     range(node));
        for (const Child& c : children(node)) {
          if (c.named) {
            stmt->value = lower_expr(c.node);
            break;
          }
        }
        out.push_back(stmt);
        return;
      }
      case NodeKind::k_delete_statement: {
        Stmt* stmt = new_stmt(StmtKind::Del, range(node));
        for (const Child& c : children(node)) {
          if (c.named) append_flattened(c.node, stmt->targets);
        }
        out.push_back(stmt);
        return;
      }
      case NodeKind::k_global_statement:
      case NodeKind::k_nonlocal_statement: {
        Stmt* stmt = new_stmt(StmtKind::Global, range(node));
        for (const Child& c : children(node)) {
          if (c.kind == NodeKind::k_identifier) stmt->targets.push_back(lower_expr(c.node));
        }
        out.push_back(stmt);
        return;
      }
      case NodeKind::k_import_statement:
      case NodeKind::k_import_from_statement:
        out.push_back(lower_import(node, kid.kind));
        return;
      case NodeKind::k_break_statement: {
        // Kept apart from `pass` and `continue`: a loop whose body breaks on every pass runs once.
        Stmt* stmt = other(node);
        stmt->text = "break";
        out.push_back(stmt);
        return;
      }
      default:
        out.push_back(other(node));
        return;
    }
  }

  Stmt* lower_expression_statement(TSNode node) {
    std::vector<Child> named;
    for (const Child& c : children(node, false)) {
      if (c.named) named.push_back(c);
    }
    if (named.size() == 1 && named[0].kind == NodeKind::k_assignment)
      return lower_assignment(node, named[0].node);
    if (named.size() == 1 && named[0].kind == NodeKind::k_augmented_assignment) {
      const auto kids = children(named[0].node);
      Stmt* stmt = new_stmt(StmtKind::AugAssign, range(node));
      if (const Child* left = field(kids, f_.left)) stmt->targets.push_back(lower_expr(left->node));
      if (const Child* op = field(kids, f_.operator_)) stmt->text = text(op->node);
      if (const Child* right = field(kids, f_.right)) stmt->value = lower_expr(right->node);
      return stmt;
    }
    Stmt* stmt = new_stmt(StmtKind::ExprStmt, range(node));
    if (named.size() == 1) {
      stmt->value = lower_expr(named[0].node);
      // `torch.set_grad_enabled(False)`, `torch.no_grad().__enter__()` and
      // `stack.enter_context(torch.no_grad())` as statements: classified once imports are known.
      const Expr* value = stmt->value;
      if (value->kind == ExprKind::Call && value->callee()->kind != ExprKind::Other) {
        const std::string_view callee = value->callee()->text;
        if (callee == "set_grad_enabled" || callee == "__enter__" || callee == "enter_context")
          guards_.push_back(stmt);
      }
    } else {
      Expr* tuple = module_.new_expr(ExprKind::Collection, range(node));
      tuple->collection_kind = ir::CollectionKind::Tuple;
      for (const Child& c : named) tuple->items.push_back(lower_expr(c.node));
      stmt->value = tuple;
    }
    return stmt;
  }

  // `a = b = value` lowers to one Assign with two targets; `x: T` alone to an AnnAssign.
  Stmt* lower_assignment(TSNode statement, TSNode assignment) {
    Stmt* stmt = new_stmt(StmtKind::Assign, range(statement));
    TSNode current = assignment;
    for (;;) {
      const auto kids = children(current);
      if (const Child* left = field(kids, f_.left)) stmt->targets.push_back(lower_expr(left->node));
      const Child* right = field(kids, f_.right);
      if (right == nullptr) {
        if (field(kids, f_.type) != nullptr) stmt->kind = StmtKind::AnnAssign;
        return stmt;
      }
      if (right->kind != NodeKind::k_assignment) {
        stmt->value = lower_expr(right->node);
        if (field(kids, f_.type) != nullptr) stmt->kind = StmtKind::AnnAssign;
        return stmt;
      }
      current = right->node;
    }
  }

  Stmt* lower_loop(TSNode node, NodeKind kind) {
    const auto kids = children(node);
    Stmt* stmt = new_stmt(StmtKind::Loop, range(node));
    stmt->loop_kind = kind == NodeKind::k_for_statement ? ir::LoopKind::For : ir::LoopKind::While;
    for (const Child& c : kids) {
      if (!c.named && text(c.node) == "async") stmt->is_async = true;
    }
    if (stmt->loop_kind == ir::LoopKind::For) {
      if (const Child* left = field(kids, f_.left))
        stmt->targets.push_back(lower_header_expr(left->node));
      if (const Child* right = field(kids, f_.right)) stmt->value = lower_header_expr(right->node);
    } else if (const Child* cond = field(kids, f_.condition)) {
      stmt->value = lower_header_expr(cond->node);
    }
    lower_body_field(kids, f_.body, stmt->body);
    if (const Child* alt = field(kids, f_.alternative))
      lower_body_field(children(alt->node), f_.body, stmt->orelse);
    return stmt;
  }

  // A compound statement's header with a syntax error lowers to Other; its body still lowers.
  Expr* lower_header_expr(TSNode node) {
    if (ts_node_has_error(node)) return module_.new_expr(ExprKind::Other, range(node));
    return lower_expr(node);
  }

  Stmt* lower_if(TSNode node) {
    const auto kids = children(node);
    Stmt* stmt = new_stmt(StmtKind::If, range(node));
    if (const Child* cond = field(kids, f_.condition)) stmt->value = lower_header_expr(cond->node);
    lower_body_field(kids, f_.consequence, stmt->body);
    // elif/else clauses chain as nested Ifs in orelse.
    std::vector<Stmt*>* tail = &stmt->orelse;
    for (const Child& c : kids) {
      if (c.field != f_.alternative) continue;
      const auto alt = children(c.node);
      if (c.kind == NodeKind::k_elif_clause) {
        Stmt* elif = new_stmt(StmtKind::If, range(c.node));
        if (const Child* cond = field(alt, f_.condition))
          elif->value = lower_header_expr(cond->node);
        lower_body_field(alt, f_.consequence, elif->body);
        tail->push_back(elif);
        tail = &elif->orelse;
      } else {
        lower_body_field(alt, f_.body, *tail);
      }
    }
    return stmt;
  }

  Stmt* lower_with(TSNode node) {
    const auto kids = children(node);
    Stmt* stmt = new_stmt(StmtKind::Guard, range(node));
    for (const Child& c : kids) {
      if (!c.named && text(c.node) == "async") stmt->is_async = true;
      if (c.kind != NodeKind::k_with_clause) continue;
      for (const Child& item : children(c.node)) {
        if (item.kind != NodeKind::k_with_item) continue;
        const auto item_kids = children(item.node);
        const Child* value = field(item_kids, f_.value);
        if (value == nullptr) continue;
        if (value->kind == NodeKind::k_as_pattern) {
          for (const Child& a : children(value->node)) {
            if (!a.named) continue;
            if (a.field != f_.alias) {
              stmt->items.push_back(lower_header_expr(a.node));
            } else if (a.kind == NodeKind::k_identifier) {
              stmt->targets.push_back(lower_header_expr(a.node));
            } else {
              for (const Child& target : children(a.node)) {
                if (target.named) stmt->targets.push_back(lower_header_expr(target.node));
              }
            }
          }
        } else {
          stmt->items.push_back(lower_header_expr(value->node));
        }
      }
    }
    lower_body_field(kids, f_.body, stmt->body);
    guards_.push_back(stmt);
    return stmt;
  }

  void classify_with(Stmt& stmt) {
    if (stmt.kind == StmtKind::ExprStmt) {
      // A context entered by hand switches grad for the rest of the block, as
      // `torch.set_grad_enabled(False)` does: `torch.no_grad().__enter__()`, and
      // `stack.enter_context(torch.no_grad())` in a `with ExitStack() as stack:` block.
      // A bare `torch.no_grad()` statement enters nothing: it switches nothing.
      const Expr* value = stmt.value;
      if (value == nullptr || value->kind != ExprKind::Call) return;
      const Expr* callee = value->callee();
      if (callee->kind == ExprKind::Attr && callee->text == "__enter__" &&
          value->arg_count() == 0) {
        value = callee->base();
      } else if (callee->kind == ExprKind::Attr && callee->text == "enter_context" &&
                 value->arg_count() == 1) {
        value = value->arg(0);
      } else if (!ir::qualified_name(module_, callee).ends_with("set_grad_enabled")) {
        return;
      }
      stmt.guard_kind = ir::classify_guard(module_, value);
      return;
    }
    for (const Expr* item : stmt.items) {
      const ir::GuardKind kind = ir::classify_guard(module_, item);
      if (kind != ir::GuardKind::Other) {
        stmt.guard_kind = kind;
        return;
      }
    }
  }

  Stmt* lower_try(TSNode node) {
    const auto kids = children(node);
    Stmt* stmt = new_stmt(StmtKind::Try, range(node));
    lower_body_field(kids, f_.body, stmt->body);
    for (const Child& c : kids) {
      switch (c.kind) {
        case NodeKind::k_except_clause:
        case NodeKind::k_except_group_clause:
          stmt->handlers.push_back(lower_handler(c.node));
          break;
        case NodeKind::k_else_clause:
          lower_body_field(children(c.node), f_.body, stmt->orelse);
          break;
        case NodeKind::k_finally_clause:
          for (const Child& b : children(c.node)) {
            if (b.kind == NodeKind::k_block) lower_block(b.node, stmt->finalbody);
          }
          break;
        default:
          break;
      }
    }
    return stmt;
  }

  ir::Handler lower_handler(TSNode node) {
    ir::Handler handler;
    handler.range = range(node);
    constexpr uint32_t kExcept = 6;  // `except`
    uint32_t header_end = handler.range.begin + kExcept;
    for (const Child& c : children(node)) {
      if (c.kind == NodeKind::k_block) {
        lower_block(c.node, handler.body);
      } else if (c.field == f_.alias) {
        handler.name = text(c.node);
        header_end = std::max(header_end, range(c.node).end);
      } else if (c.named && c.kind == NodeKind::k_as_pattern) {
        // Older grammars: `except E as e` is one as_pattern.
        for (const Child& a : children(c.node)) {
          if (a.field == f_.alias) {
            handler.name = text(a.node);
            header_end = std::max(header_end, range(a.node).end);
          } else if (a.named) {
            append_flattened(a.node, handler.types);
          }
        }
      } else if (c.named) {
        append_flattened(c.node, handler.types);
      }
    }
    if (!handler.types.empty()) header_end = std::max(header_end, handler.types.back()->range.end);
    handler.header = {handler.range.begin, std::min(header_end, handler.range.end)};
    return handler;
  }

  Stmt* lower_match(TSNode node) {
    // Rules do not reason about patterns; case bodies still lower so loops inside are seen.
    Stmt* stmt = other(node);
    for (const Child& c : children(node)) {
      if (c.kind != NodeKind::k_block) continue;
      for (const Child& clause : children(c.node)) {
        if (clause.kind != NodeKind::k_case_clause) continue;
        for (const Child& b : children(clause.node)) {
          if (b.kind == NodeKind::k_block) lower_block(b.node, stmt->body);
        }
      }
    }
    return stmt;
  }

  Stmt* lower_decorated(TSNode node) {
    std::vector<Expr*> decorators;
    TSNode definition{};
    bool found = false;
    for (const Child& c : children(node)) {
      if (c.kind == NodeKind::k_decorator) {
        for (const Child& d : children(c.node)) {
          if (d.named) decorators.push_back(lower_header_expr(d.node));
        }
      } else if (c.field == f_.definition) {
        definition = c.node;
        found = true;
      }
    }
    if (!found) return other(node);
    if (g_.kind(definition) == NodeKind::k_class_definition)
      return lower_class(definition, std::move(decorators));
    return lower_function(definition, std::move(decorators));
  }

  Stmt* lower_function(TSNode node, std::vector<Expr*> decorators) {
    const auto kids = children(node);
    ir::Function* fn = module_.new_function();
    fn->range = range(node);
    fn->decorators = std::move(decorators);
    fn->parent_function = function_;
    // A method's parent class is the class whose body holds it directly.
    fn->parent_class = class_body_depth_ == function_depth_ ? class_ : nullptr;
    for (const Child& c : kids) {
      if (!c.named && text(c.node) == "async") fn->is_async = true;
    }
    if (const Child* name = field(kids, f_.name)) {
      fn->name = text(name->node);
      fn->name_range = range(name->node);
    }
    if (const Child* params = field(kids, f_.parameters)) lower_params(params->node, fn->params);
    if (fn->parent_class != nullptr) fn->parent_class->methods.push_back(fn);

    Stmt* stmt = new_stmt(StmtKind::FunctionDef, range(node));
    stmt->function = fn;
    ir::Function* saved = function_;
    const std::string_view saved_receiver = receiver_;
    bind_receiver(*fn);
    function_ = fn;
    ++function_depth_;
    lower_body_field(kids, f_.body, fn->body);
    --function_depth_;
    function_ = saved;
    receiver_ = saved_receiver;
    return stmt;
  }

  // The IR names a method's receiver `self` whatever the source calls it (`def step(this, x)`),
  // as the C++ frontend names `this`: summaries, place keys and resolution then have one answer
  // for "the object the method runs on". A nested function sees its method's receiver unless a
  // parameter of its own shadows it; a staticmethod has none.
  void bind_receiver(ir::Function& fn) {
    if (fn.parent_class != nullptr) {
      const bool is_static =
          std::any_of(fn.decorators.begin(), fn.decorators.end(),
                      [](const Expr* d) { return ir::dotted_name(d) == "staticmethod"; });
      receiver_ = is_static || fn.params.empty() ? std::string_view() : fn.params[0].name;
      if (!receiver_.empty()) fn.params[0].name = ir::kReceiver;
      return;
    }
    for (const ir::Param& param : fn.params) {
      if (param.name == receiver_) receiver_ = {};
    }
  }

  void lower_params(TSNode node, std::vector<ir::Param>& out) {
    for (const Child& c : children(node)) {
      ir::Param param;
      param.range = range(c.node);
      switch (c.kind) {
        case NodeKind::k_identifier:
          param.name = text(c.node);
          break;
        case NodeKind::k_default_parameter:
        case NodeKind::k_typed_default_parameter: {
          const auto kids = children(c.node);
          if (const Child* name = field(kids, f_.name)) param.name = text(name->node);
          if (const Child* value = field(kids, f_.value))
            param.default_value = lower_header_expr(value->node);
          break;
        }
        case NodeKind::k_typed_parameter:
        case NodeKind::k_list_splat_pattern:
        case NodeKind::k_dictionary_splat_pattern:
          for (const Child& k : children(c.node)) {
            if (k.kind == NodeKind::k_identifier && k.field != f_.type) {
              param.name = text(k.node);
              break;
            }
            if (k.kind == NodeKind::k_list_splat_pattern ||
                k.kind == NodeKind::k_dictionary_splat_pattern) {
              for (const Child& inner : children(k.node)) {
                if (inner.kind == NodeKind::k_identifier) param.name = text(inner.node);
              }
              break;
            }
          }
          break;
        default:
          continue;
      }
      if (c.kind == NodeKind::k_typed_parameter || c.kind == NodeKind::k_typed_default_parameter) {
        // `count: int`: a number, whatever a framework's table says the parameter holds.
        const auto kids = children(c.node);
        if (const Child* type = field(kids, f_.type)) {
          const std::string_view hint = text(type->node);
          if (hint == "int" || hint == "float" || hint == "bool")
            param.type_hint = ir::TypeHint::Number;
          // `inputs: DataLoader[AudioInput]`, `Optional[torch.utils.data.DataLoader]`: what a
          // loop over it iterates is batches, whatever the parameter is called.
          if (hint.find("DataLoader") != std::string_view::npos)
            param.type_hint = ir::TypeHint::Loader;
          // The class an annotation names, for what its methods and attributes are.
          if (ts_node_named_child_count(type->node) == 1) {
            const TSNode named = ts_node_named_child(type->node, 0);
            const NodeKind named_kind = g_.kind(named);
            if (named_kind == NodeKind::k_identifier || named_kind == NodeKind::k_attribute)
              param.annotation = lower_expr(named);
          }
        }
      }
      if (!param.name.empty()) out.push_back(param);
    }
  }

  Stmt* lower_class(TSNode node, std::vector<Expr*> decorators) {
    const auto kids = children(node);
    ir::ClassDef* cls = module_.new_class();
    cls->range = range(node);
    cls->decorators = std::move(decorators);
    cls->parent_function = function_;
    if (const Child* name = field(kids, f_.name)) cls->name = text(name->node);
    if (const Child* bases = field(kids, f_.superclasses)) {
      for (const Child& b : children(bases->node)) {
        if (b.named && b.kind != NodeKind::k_keyword_argument)
          cls->bases.push_back(lower_header_expr(b.node));
      }
    }
    Stmt* stmt = new_stmt(StmtKind::ClassDef, range(node));
    stmt->class_def = cls;
    ir::ClassDef* saved_class = class_;
    const int saved_depth = class_body_depth_;
    const std::string_view saved_receiver = receiver_;
    receiver_ = {};  // a class body runs once, on no object
    class_ = cls;
    class_body_depth_ = function_depth_;
    lower_body_field(kids, f_.body, cls->body);
    class_ = saved_class;
    class_body_depth_ = saved_depth;
    receiver_ = saved_receiver;
    return stmt;
  }

  Stmt* lower_import(TSNode node, NodeKind kind) {
    Stmt* stmt = new_stmt(StmtKind::Import, range(node));
    const auto kids = children(node);
    std::string from;
    if (kind == NodeKind::k_import_from_statement) {
      if (const Child* module_name = field(kids, f_.module_name))
        from = std::string(text(module_name->node));
    }
    auto add = [&](std::string_view local, std::string dotted) {
      if (dotted == "torch" || dotted.starts_with("torch.")) module_.imports_torch = true;
      stmt->imports.push_back({local, dotted});
      module_.imports.push_back({local, std::move(dotted)});
    };
    for (const Child& c : kids) {
      if (kind == NodeKind::k_import_from_statement && c.field == f_.module_name) continue;
      if (c.kind == NodeKind::k_wildcard_import) {
        if (from == "torch" || from.starts_with("torch.")) module_.imports_torch = true;
        continue;
      }
      std::string_view name;
      std::string_view alias;
      if (c.kind == NodeKind::k_dotted_name) {
        name = text(c.node);
      } else if (c.kind == NodeKind::k_aliased_import) {
        const auto a = children(c.node);
        if (const Child* n = field(a, f_.name)) name = text(n->node);
        if (const Child* al = field(a, f_.alias)) alias = text(al->node);
      } else {
        continue;
      }
      if (name.empty()) continue;
      if (kind == NodeKind::k_import_statement) {
        // `import a.b` binds `a`; `import a.b as c` binds c to a.b.
        if (alias.empty()) {
          const std::string_view first = name.substr(0, name.find('.'));
          add(first, std::string(first));
          if (first != name && (name.starts_with("torch.") || name == "torch"))
            module_.imports_torch = true;
        } else {
          add(alias, std::string(name));
        }
      } else {
        const std::string_view local = alias.empty() ? name : alias;
        add(local, from.ends_with('.') ? from + std::string(name) : from + "." + std::string(name));
      }
    }
    return stmt;
  }

  // ---- expressions ------------------------------------------------------------------------

  void append_flattened(TSNode node, std::vector<Expr*>& out) {
    const NodeKind kind = g_.kind(node);
    if (kind == NodeKind::k_expression_list || kind == NodeKind::k_pattern_list) {
      for (const Child& c : children(node)) {
        if (c.named) out.push_back(lower_expr(c.node));
      }
      return;
    }
    out.push_back(lower_expr(node));
  }

  Expr* make(ExprKind kind, TSNode node) { return module_.new_expr(kind, range(node)); }

  Expr* lower_expr(TSNode node) {
    DepthScope scope(depth_);
    if (too_deep(node) || ts_node_has_error(node)) return make(ExprKind::Other, node);
    const NodeKind kind = g_.kind(node);
    switch (kind) {
      case NodeKind::k_identifier: {
        Expr* e = make(ExprKind::Name, node);
        e->text = text(node);
        if (!receiver_.empty() && e->text == receiver_) e->text = ir::kReceiver;
        return e;
      }
      case NodeKind::k_attribute: {
        const auto kids = children(node);
        Expr* e = make(ExprKind::Attr, node);
        const Child* object = field(kids, f_.object);
        const Child* attribute = field(kids, f_.attribute);
        e->items.push_back(object ? lower_expr(object->node) : make(ExprKind::Other, node));
        if (attribute) e->text = text(attribute->node);
        return e;
      }
      case NodeKind::k_call:
        return lower_call(node);
      case NodeKind::k_binary_operator:
      case NodeKind::k_boolean_operator: {
        const auto kids = children(node);
        Expr* e =
            make(kind == NodeKind::k_binary_operator ? ExprKind::BinOp : ExprKind::BoolOp, node);
        const Child* left = field(kids, f_.left);
        const Child* right = field(kids, f_.right);
        const Child* op = field(kids, f_.operator_);
        e->items.push_back(left ? lower_expr(left->node) : make(ExprKind::Other, node));
        e->items.push_back(right ? lower_expr(right->node) : make(ExprKind::Other, node));
        if (op) e->text = text(op->node);
        return e;
      }
      case NodeKind::k_unary_operator:
      case NodeKind::k_not_operator: {
        const auto kids = children(node);
        Expr* e = make(ExprKind::UnaryOp, node);
        const Child* arg = field(kids, f_.argument);
        e->items.push_back(arg ? lower_expr(arg->node) : make(ExprKind::Other, node));
        if (kind == NodeKind::k_not_operator) {
          e->text = "not";
        } else if (const Child* op = field(kids, f_.operator_)) {
          e->text = text(op->node);
        }
        return e;
      }
      case NodeKind::k_comparison_operator: {
        Expr* e = make(ExprKind::Compare, node);
        for (const Child& c : children(node, false)) {
          if (c.named) {
            e->items.push_back(lower_expr(c.node));
          } else if (e->text.empty()) {
            e->text = text(c.node);  // the first operator: "is not", "<", "in" ...
          }
        }
        return e;
      }
      case NodeKind::k_subscript: {
        const auto kids = children(node);
        Expr* e = make(ExprKind::Subscript, node);
        const Child* value = field(kids, f_.value);
        e->items.push_back(value ? lower_expr(value->node) : make(ExprKind::Other, node));
        for (const Child& c : kids) {
          if (c.field == f_.subscript) e->items.push_back(lower_expr(c.node));
        }
        return e;
      }
      case NodeKind::k_slice: {
        Expr* e = make(ExprKind::Slice, node);
        for (const Child& c : children(node)) {
          if (c.named) e->items.push_back(lower_expr(c.node));
        }
        return e;
      }
      case NodeKind::k_integer:
        return make_const(node, ir::ConstKind::Int);
      case NodeKind::k_float:
        return make_const(node, ir::ConstKind::Float);
      case NodeKind::k_string:
      case NodeKind::k_concatenated_string:
        return make_const(node, ir::ConstKind::Str);
      case NodeKind::k_true:
      case NodeKind::k_false:
        return make_const(node, ir::ConstKind::Bool);
      case NodeKind::k_none:
        return make_const(node, ir::ConstKind::None);
      case NodeKind::k_ellipsis:
        return make_const(node, ir::ConstKind::Ellipsis);
      case NodeKind::k_list:
      case NodeKind::k_list_pattern:
        return make_collection(node, ir::CollectionKind::List);
      case NodeKind::k_tuple:
      case NodeKind::k_tuple_pattern:
      case NodeKind::k_expression_list:
      case NodeKind::k_pattern_list:
        return make_collection(node, ir::CollectionKind::Tuple);
      case NodeKind::k_set:
        return make_collection(node, ir::CollectionKind::Set);
      case NodeKind::k_dictionary: {
        Expr* e = make(ExprKind::Collection, node);
        e->collection_kind = ir::CollectionKind::Dict;
        for (const Child& c : children(node)) {
          if (c.kind == NodeKind::k_pair) {
            const auto kids = children(c.node);
            const Child* key = field(kids, f_.key);
            const Child* value = field(kids, f_.value);
            e->items.push_back(key ? lower_expr(key->node) : make(ExprKind::Other, c.node));
            e->items.push_back(value ? lower_expr(value->node) : make(ExprKind::Other, c.node));
          } else if (c.named) {
            Expr* splat = lower_expr(c.node);
            e->items.push_back(splat);
            e->items.push_back(splat);
          }
        }
        return e;
      }
      case NodeKind::k_list_splat:
      case NodeKind::k_dictionary_splat:
      case NodeKind::k_list_splat_pattern:
      case NodeKind::k_dictionary_splat_pattern:
        return make_wrapper(node, ExprKind::Starred);
      case NodeKind::k_await:
        return make_wrapper(node, ExprKind::Await);
      case NodeKind::k_yield: {
        // `yield value` (and `yield from gen`) evaluates its operand where it stands: a model
        // run in a generator's loop is a run of that loop. What `yield` returns (a value sent
        // in) is unknown.
        Expr* e = make(ExprKind::Other, node);
        e->text = "yield";
        for (const Child& c : children(node, false)) {
          if (c.named) e->items.push_back(lower_expr(c.node));
        }
        return e;
      }
      case NodeKind::k_parenthesized_expression: {
        for (const Child& c : children(node, false)) {
          if (c.named) return lower_expr(c.node);
        }
        return make(ExprKind::Other, node);
      }
      case NodeKind::k_list_comprehension:
        return make_comprehension(node, ir::CollectionKind::List);
      case NodeKind::k_set_comprehension:
        return make_comprehension(node, ir::CollectionKind::Set);
      case NodeKind::k_dictionary_comprehension:
        return make_comprehension(node, ir::CollectionKind::Dict);
      case NodeKind::k_generator_expression:
        return make_comprehension(node, ir::CollectionKind::Generator);
      case NodeKind::k_lambda: {
        Expr* e = make(ExprKind::Lambda, node);
        if (const Child* body = field(children(node), f_.body))
          e->items.push_back(lower_expr(body->node));
        return e;
      }
      case NodeKind::k_conditional_expression: {
        Expr* e = make(ExprKind::IfExp, node);
        for (const Child& c : children(node)) {
          if (c.named) e->items.push_back(lower_expr(c.node));
        }
        if (e->items.size() != 3) e->kind = ExprKind::Other;
        return e;
      }
      case NodeKind::k_named_expression: {
        const auto kids = children(node);
        Expr* e = make(ExprKind::NamedExpr, node);
        const Child* name = field(kids, f_.name);
        const Child* value = field(kids, f_.value);
        if (name == nullptr || value == nullptr) return make(ExprKind::Other, node);
        e->items = {lower_expr(name->node), lower_expr(value->node)};
        return e;
      }
      default:
        return make(ExprKind::Other, node);
    }
  }

  Expr* make_const(TSNode node, ir::ConstKind kind) {
    Expr* e = make(ExprKind::Const, node);
    e->const_kind = kind;
    e->text = text(node);
    return e;
  }

  Expr* make_collection(TSNode node, ir::CollectionKind kind) {
    Expr* e = make(ExprKind::Collection, node);
    e->collection_kind = kind;
    for (const Child& c : children(node, false)) {
      if (c.named) e->items.push_back(lower_expr(c.node));
    }
    return e;
  }

  Expr* make_wrapper(TSNode node, ExprKind kind) {
    Expr* e = make(kind, node);
    for (const Child& c : children(node, false)) {
      if (c.named) {
        e->items.push_back(lower_expr(c.node));
        return e;
      }
    }
    e->kind = ExprKind::Other;
    return e;
  }

  Expr* make_comprehension(TSNode node, ir::CollectionKind kind) {
    Expr* e = make(ExprKind::Comprehension, node);
    e->collection_kind = kind;
    for (const Child& c : children(node)) {
      if (c.field == f_.body) {
        if (c.kind == NodeKind::k_pair) {
          const auto kids = children(c.node);
          const Child* key = field(kids, f_.key);
          const Child* value = field(kids, f_.value);
          e->items.push_back(key ? lower_expr(key->node) : make(ExprKind::Other, c.node));
          e->items.push_back(value ? lower_expr(value->node) : make(ExprKind::Other, c.node));
        } else {
          e->items.push_back(lower_expr(c.node));
        }
      } else if (c.kind == NodeKind::k_for_in_clause) {
        const auto kids = children(c.node);
        ir::ComprehensionFor gen;
        const Child* left = field(kids, f_.left);
        const Child* right = field(kids, f_.right);
        gen.target = left ? lower_expr(left->node) : make(ExprKind::Other, c.node);
        gen.iter = right ? lower_expr(right->node) : make(ExprKind::Other, c.node);
        e->generators.push_back(std::move(gen));
      } else if (c.kind == NodeKind::k_if_clause && !e->generators.empty()) {
        for (const Child& k : children(c.node)) {
          if (k.named) e->generators.back().conditions.push_back(lower_expr(k.node));
        }
      }
    }
    if (e->items.empty()) e->kind = ExprKind::Other;
    return e;
  }

  Expr* lower_call(TSNode node) {
    const auto kids = children(node);
    Expr* e = make(ExprKind::Call, node);
    const Child* function = field(kids, f_.function);
    e->items.push_back(function ? lower_expr(function->node) : make(ExprKind::Other, node));
    const Child* arguments = field(kids, f_.arguments);
    if (arguments == nullptr) return e;
    if (arguments->kind == NodeKind::k_generator_expression) {
      e->items.push_back(lower_expr(arguments->node));
      return e;
    }
    for (const Child& c : children(arguments->node, false)) {
      if (!c.named) continue;
      if (c.kind == NodeKind::k_keyword_argument) {
        const auto kw = children(c.node);
        const Child* name = field(kw, f_.name);
        const Child* value = field(kw, f_.value);
        if (name && value) e->keywords.push_back({text(name->node), lower_expr(value->node)});
      } else if (c.kind == NodeKind::k_dictionary_splat) {
        e->keywords.push_back({{}, lower_expr(c.node)});
      } else {
        e->items.push_back(lower_expr(c.node));
      }
    }
    return e;
  }

  // ---- syntax errors ----------------------------------------------------------------------

  // Visits, in source order, the ERROR and MISSING nodes, descending only into children that
  // hold an error (an explicit stack, no recursion). Reports the first real syntax error and
  // each known grammar limitation before it.
  void report_syntax_errors(TSNode root) {
    if (!ts_node_has_error(root)) return;
    std::vector<TSNode> stack = {root};
    while (!stack.empty()) {
      const TSNode node = stack.back();
      stack.pop_back();
      if (ts::is_error(node) || ts_node_is_missing(node)) {
        if (report_error_node(node)) return;
        continue;
      }
      std::vector<TSNode> with_errors;
      ts::TreeCursor cursor(node);
      if (cursor.goto_first_child()) {
        do {
          const TSNode child = cursor.node();
          if (ts::is_error(child) || ts_node_is_missing(child) || ts_node_has_error(child))
            with_errors.push_back(child);
        } while (cursor.goto_next_sibling());
      }
      if (with_errors.empty() && node.id != root.id) {
        if (report_error_node(node)) return;
        continue;
      }
      stack.insert(stack.end(), with_errors.rbegin(), with_errors.rend());
    }
  }

  // Returns true once a real syntax error is reported (the search stops there).
  bool report_error_node(TSNode node) {
    std::string message;
    // tree-sitter-python 0.23.6 rejects a starred list display in a bare tuple (`a, *b = c, *[]`),
    // which is valid Python: say so, without calling the file broken.
    const Position at = module_.file().position(ts_node_start_byte(node));
    if (!ts_node_is_missing(node) &&
        module_.file().line_text(at.line).find("*[") != std::string_view::npos) {
      problems_.push_back(
          {std::string(module_.file().path()), module_.file().position(ts_node_start_byte(node)),
           "tree-sitter-python cannot read a starred list in a bare tuple (`x = a, *[...]`); "
           "this statement is not analysed",
           true});
      return false;
    }
    const std::optional<size_t> too_deep = first_line_indented_too_deep(code_);
    if (too_deep && *too_deep >= ts_node_start_byte(node)) {
      problems_.push_back({std::string(module_.file().path()),
                           module_.file().position(static_cast<uint32_t>(*too_deep)),
                           fmt::format("indented more than {} columns: tree-sitter-python cannot "
                                       "read this (valid Python); the statement holding it is not "
                                       "analysed",
                                       kMaxIndentColumns)});
      return true;
    }
    if (ts_node_is_missing(node)) {
      message = fmt::format("syntax error: expected `{}`", ts_node_type(node));
    } else {
      std::string_view found = text(node);
      found = found.substr(0, found.find_first_of("\r\n"));
      if (found.size() > 30) found = found.substr(0, 30);
      message = found.empty() ? std::string("syntax error")
                              : fmt::format("syntax error: unexpected `{}`", found);
    }
    problems_.push_back({std::string(module_.file().path()),
                         module_.file().position(ts_node_start_byte(node)), std::move(message)});
    return true;
  }

  size_t memory_bytes_;
  size_t statements_ = 0;
  const PythonGrammar& g_;
  const PythonFields& f_;
  ir::Module& module_;
  std::string_view code_;
  std::vector<InputError>& problems_;
  ts::TreeCursor cursor_;
  std::vector<Stmt*> guards_;
  ir::Function* function_ = nullptr;
  ir::ClassDef* class_ = nullptr;
  int class_body_depth_ = -1;
  int function_depth_ = 0;
  std::string_view receiver_;  // the source's name of the enclosing method's receiver
  int depth_ = 0;
  bool nesting_reported_ = false;
};

bool lower_tree(const PythonGrammar& grammar, TSNode root, ir::Module& module,
                std::vector<InputError>& problems, size_t memory_bytes) {
  Lowerer lowerer(grammar, root, module, problems, memory_bytes);
  lowerer.run(root);
  return !lowerer.over_budget();
}

PieceLowering::PieceLowering(const PythonGrammar& grammar, TSNode first_root, ir::Module& module,
                             std::vector<InputError>& problems, size_t memory_bytes)
    : lowerer_(std::make_unique<Lowerer>(grammar, first_root, module, problems, memory_bytes)) {}

PieceLowering::~PieceLowering() = default;

void PieceLowering::add(TSNode root) {
  lowerer_->add(root);
}

bool PieceLowering::over_budget() const {
  return lowerer_->over_budget();
}

void PieceLowering::finish(ir::SourceRange whole) {
  lowerer_->finish(whole);
}

}  // namespace sealint::python
