#include "analyzer/cpp/lowering.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <string>

#include "analyzer/cpp/options_chain.h"

namespace sealint::cpp {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;
using ir::TypeHint;

// The same bound as the Python frontend's: deeper code becomes ir::Other.
constexpr int kMaxDepth = 256;

bool has_base_named(const clang::CXXRecordDecl* record, std::string_view name, int depth = 0) {
  if (record == nullptr || depth > 16 || !record->hasDefinition()) return false;
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* decl = base.getType()->getAsCXXRecordDecl();
    if (decl == nullptr) continue;
    if (decl->getQualifiedNameAsString() == name) return true;
    if (has_base_named(decl, name, depth + 1)) return true;
  }
  return false;
}

TypeHint classify(clang::QualType type) {
  if (type.isNull()) return TypeHint::Unknown;
  type = type.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (type->isArithmeticType()) return TypeHint::Number;
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  if (record == nullptr) return TypeHint::Unknown;
  const std::string name = record->getQualifiedNameAsString();
  if (name == "at::Tensor" || name == "torch::Tensor" || name == "torch::autograd::Variable")
    return TypeHint::Tensor;
  // LibTorch's guards live in c10 and are re-exported by at:: and torch::.
  for (std::string_view ns : {"c10::", "at::", "torch::"}) {
    if (!name.starts_with(ns)) continue;
    const std::string_view rest = std::string_view(name).substr(ns.size());
    if (rest == "NoGradGuard" || rest == "AutoGradMode" || rest == "InferenceMode")
      return TypeHint::Guard;
  }
  if (name == "std::vector" || name == "std::deque" || name == "std::list") {
    if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record)) {
      const auto& args = spec->getTemplateArgs();
      if (args.size() > 0 && args[0].getKind() == clang::TemplateArgument::Type &&
          classify(args[0].getAsType()) == TypeHint::Tensor) {
        return TypeHint::TensorContainer;
      }
    }
    return TypeHint::Unknown;
  }
  if (name == "torch::nn::Module" || name.starts_with("torch::nn::ModuleHolder") ||
      has_base_named(record, "torch::nn::Module") ||
      has_base_named(record, "torch::nn::ModuleHolder")) {
    return TypeHint::Module;
  }
  if (name == "torch::optim::Optimizer" || has_base_named(record, "torch::optim::Optimizer")) {
    return TypeHint::Optimizer;
  }
  return TypeHint::Unknown;
}

class Lowerer {
 public:
  Lowerer(clang::ASTContext& context, ir::Module& module)
      : context_(context), sm_(context.getSourceManager()), module_(module) {}

  void run(std::span<clang::Decl* const> top_level) {
    ir::Function* top = module_.new_function();
    top->name = "<module>";
    top->is_module = true;
    function_ = top;
    for (const clang::Decl* decl : top_level) {
      // Clang also hands over the function templates it instantiated; the template itself is
      // lowered once, as written.
      const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
      if (function != nullptr && function->isTemplateInstantiation()) continue;
      lower_decl(decl, top->body);
    }
    // Library names are lowered resolved (torch.zeros, torch.nn.Linear): `torch` reads as an
    // import of torch, as `import torch` does in Python, so the analyses know its functions.
    module_.imports.push_back({"torch", "torch"});
    module_.index_imports();
  }

 private:
  // ---- positions --------------------------------------------------------------------------

  bool in_main_file(clang::SourceLocation loc) const {
    return loc.isValid() && sm_.isInMainFile(sm_.getExpansionLoc(loc));
  }

  ir::SourceRange range(clang::SourceRange r) const {
    const clang::SourceLocation begin = sm_.getExpansionLoc(r.getBegin());
    clang::SourceLocation end = sm_.getExpansionLoc(r.getEnd());
    if (!sm_.isInMainFile(begin)) return {};
    end = clang::Lexer::getLocForEndOfToken(end, 0, sm_, context_.getLangOpts());
    const uint32_t b = sm_.getFileOffset(begin);
    const uint32_t e = end.isValid() && sm_.isInMainFile(end) ? sm_.getFileOffset(end) : b;
    return {b, std::max(b, e)};
  }

  // ---- declarations -----------------------------------------------------------------------

  void lower_decl(const clang::Decl* decl, std::vector<Stmt*>& out) {
    if (!in_main_file(decl->getLocation())) return;
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(decl)) {
      for (const clang::Decl* inner : ns->decls()) lower_decl(inner, out);
      return;
    }
    if (const auto* alias = llvm::dyn_cast<clang::NamespaceAliasDecl>(decl)) {
      // `namespace F = torch::nn::functional;` binds F like a Python import alias.
      module_.imports.push_back({module_.intern(alias->getNameAsString()),
                                 dotted(alias->getNamespace()->getQualifiedNameAsString())});
    } else if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl)) {
      if (record->isThisDeclarationADefinition() && !record->isImplicit())
        out.push_back(lower_class(*record));
    } else if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
      if (function->doesThisDeclarationHaveABody())
        out.push_back(lower_function(*function, nullptr));
    } else if (const auto* tmpl = llvm::dyn_cast<clang::FunctionTemplateDecl>(decl)) {
      if (tmpl->getTemplatedDecl()->doesThisDeclarationHaveABody())
        out.push_back(lower_function(*tmpl->getTemplatedDecl(), nullptr));
    } else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) {
      if (Stmt* stmt = lower_var(*var)) out.push_back(stmt);
    }
  }

  static std::string dotted(std::string qualified) {
    std::string out;
    for (size_t i = 0; i < qualified.size(); ++i) {
      if (qualified[i] == ':' && i + 1 < qualified.size() && qualified[i + 1] == ':') {
        out += '.';
        ++i;
      } else {
        out += qualified[i];
      }
    }
    // The model and the real headers spell the tensor library at:: or torch::; rules see torch.
    if (out.starts_with("at.")) out = "torch." + out.substr(3);
    if (out.starts_with("c10.")) out = "torch." + out.substr(4);
    return out;
  }

  Stmt* lower_class(const clang::CXXRecordDecl& record) {
    ir::ClassDef* cls = module_.new_class();
    cls->name = module_.intern(record.getNameAsString());
    cls->range = range(record.getSourceRange());
    cls->parent_function = function_;
    for (const clang::CXXBaseSpecifier& base : record.bases()) {
      const clang::CXXRecordDecl* decl = base.getType()->getAsCXXRecordDecl();
      if (decl == nullptr) continue;
      // A base that derives from torch::nn::Module reads as one, like nn.Module in Python.
      std::string name = classify(base.getType()) == TypeHint::Module
                             ? "torch.nn.Module"
                             : dotted(decl->getQualifiedNameAsString());
      cls->bases.push_back(chain(name, range(base.getSourceRange())));
    }
    Stmt* stmt = module_.new_stmt(StmtKind::ClassDef, cls->range);
    stmt->class_def = cls;
    ir::ClassDef* saved = class_;
    class_ = cls;
    for (const clang::Decl* member : record.decls()) {
      if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(member)) {
        if (method->doesThisDeclarationHaveABody() && !method->isImplicit())
          cls->body.push_back(lower_function(*method, cls));
      } else if (const auto* tmpl = llvm::dyn_cast<clang::FunctionTemplateDecl>(member)) {
        if (tmpl->getTemplatedDecl()->doesThisDeclarationHaveABody()) {
          cls->body.push_back(lower_function(*tmpl->getTemplatedDecl(), cls));
        }
      } else if (const auto* field = llvm::dyn_cast<clang::FieldDecl>(member)) {
        // `torch::nn::Linear fc{nullptr};` / `torch::Tensor total = torch::zeros({});`
        if (const clang::Expr* init = field->getInClassInitializer()) {
          Stmt* assign = module_.new_stmt(StmtKind::Assign, range(field->getSourceRange()));
          assign->targets.push_back(self_attr(field->getNameAsString(), range(field->getLocation()),
                                              classify(field->getType())));
          assign->value = lower_expr(init);
          assign->declaration = field->getInClassInitStyle() == clang::ICIS_CopyInit
                                    ? ir::Declaration::Copy
                                    : ir::Declaration::Direct;
          cls->body.push_back(assign);
        }
      }
    }
    class_ = saved;
    return stmt;
  }

  Stmt* lower_function(const clang::FunctionDecl& decl, ir::ClassDef* cls) {
    ir::Function* fn = module_.new_function();
    const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(&decl);
    if (cls == nullptr && method != nullptr) cls = class_of(method->getParent());
    fn->name = module_.intern(decl.getNameAsString());
    fn->range = range(decl.getSourceRange());
    fn->name_range = range(decl.getLocation());
    fn->parent_function = function_;
    fn->parent_class = method != nullptr && !method->isStatic() ? cls : nullptr;
    if (fn->parent_class != nullptr) {
      // `this` is Python's `self`: parameter 0, so summaries read the same.
      fn->params.push_back({ir::kReceiver, fn->name_range, nullptr, TypeHint::Unknown});
      if (std::find(fn->parent_class->methods.begin(), fn->parent_class->methods.end(), fn) ==
          fn->parent_class->methods.end()) {
        fn->parent_class->methods.push_back(fn);
      }
    }
    for (const clang::ParmVarDecl* param : decl.parameters()) {
      fn->params.push_back({module_.intern(param->getNameAsString()),
                            range(param->getSourceRange()), nullptr, classify(param->getType())});
    }
    Stmt* stmt = module_.new_stmt(StmtKind::FunctionDef, fn->range);
    stmt->function = fn;
    ir::Function* saved = function_;
    function_ = fn;
    if (const clang::Stmt* body = decl.getBody()) lower_compound_or_stmt(body, fn->body);
    // Constructor initialisers: `Net() : fc(register_module("fc", torch::nn::Linear(4, 2)))`.
    if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(&decl)) {
      std::vector<Stmt*> inits;
      for (const clang::CXXCtorInitializer* init : ctor->inits()) {
        if (!init->isMemberInitializer() || !init->isWritten()) continue;
        const clang::FieldDecl* field = init->getMember();
        Stmt* assign = module_.new_stmt(StmtKind::Assign, range(init->getSourceRange()));
        assign->targets.push_back(self_attr(field->getNameAsString(),
                                            range(init->getSourceLocation()),
                                            classify(field->getType())));
        assign->value = lower_expr(init->getInit());
        inits.push_back(assign);
      }
      fn->body.insert(fn->body.begin(), inits.begin(), inits.end());
    }
    function_ = saved;
    return stmt;
  }

  ir::ClassDef* class_of(const clang::CXXRecordDecl* record) {
    const std::string name = record->getNameAsString();
    for (ir::ClassDef& cls : const_cast<std::deque<ir::ClassDef>&>(module_.classes())) {
      if (cls.name == name) return &cls;
    }
    return nullptr;
  }

  Expr* self_attr(const std::string& name, ir::SourceRange where, TypeHint hint) {
    Expr* self = module_.new_expr(ExprKind::Name, where);
    self->text = ir::kReceiver;
    Expr* attr = module_.new_expr(ExprKind::Attr, where);
    attr->text = module_.intern(name);
    attr->items.push_back(self);
    attr->type_hint = hint;
    return attr;
  }

  // `torch.nn.Linear` as Name(torch).nn.Linear, pointing at `where`.
  Expr* chain(const std::string& dotted_name, ir::SourceRange where) {
    Expr* current = nullptr;
    size_t start = 0;
    while (start <= dotted_name.size()) {
      const size_t dot = dotted_name.find('.', start);
      const std::string part =
          dotted_name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      Expr* next = module_.new_expr(current == nullptr ? ExprKind::Name : ExprKind::Attr, where);
      next->text = module_.intern(part);
      if (current != nullptr) next->items.push_back(current);
      current = next;
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return current;
  }

  // ---- statements -------------------------------------------------------------------------

  void lower_compound_or_stmt(const clang::Stmt* stmt, std::vector<Stmt*>& out) {
    if (const auto* compound = llvm::dyn_cast<clang::CompoundStmt>(stmt)) {
      lower_statements(compound->body_begin(), compound->body_end(), out);
    } else {
      lower_stmt(stmt, out);
    }
  }

  // A scope's statements; a guard declared in it (`torch::NoGradGuard no_grad;`) wraps the rest
  // of the scope, as a Python `with` would.
  template <class It>
  void lower_statements(It begin, It end, std::vector<Stmt*>& out) {
    for (It it = begin; it != end; ++it) {
      if (auto kind = guard_declared(*it)) {
        Stmt* guard = module_.new_stmt(StmtKind::Guard, range((*it)->getSourceRange()));
        guard->guard_kind = *kind;
        if (it + 1 != end) {
          const ir::SourceRange last = range((*(end - 1))->getSourceRange());
          guard->range.end = std::max(guard->range.end, last.end);
        }
        lower_statements(it + 1, end, guard->body);
        out.push_back(guard);
        return;
      }
      lower_stmt(*it, out);
    }
  }

  std::optional<ir::GuardKind> guard_declared(const clang::Stmt* stmt) const {
    const auto* decl_stmt = llvm::dyn_cast<clang::DeclStmt>(stmt);
    if (decl_stmt == nullptr || !decl_stmt->isSingleDecl()) return std::nullopt;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl_stmt->getSingleDecl());
    if (var == nullptr || classify(var->getType()) != TypeHint::Guard) return std::nullopt;
    const std::string type =
        var->getType().getCanonicalType()->getAsCXXRecordDecl()->getQualifiedNameAsString();
    if (type.ends_with("NoGradGuard")) return ir::GuardKind::NoGrad;
    if (type.ends_with("InferenceMode"))
      return is_false_arg(var->getInit()) ? ir::GuardKind::Other : ir::GuardKind::InferenceMode;
    if (type.ends_with("AutoGradMode"))
      return is_false_arg(var->getInit()) ? ir::GuardKind::SetGradEnabledFalse
                                          : ir::GuardKind::EnableGrad;
    return std::nullopt;
  }

  static bool is_false_arg(const clang::Expr* init) {
    if (init == nullptr) return false;
    init = init->IgnoreImplicit();
    const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(init);
    if (construct == nullptr || construct->getNumArgs() == 0) return false;
    const clang::Expr* arg = construct->getArg(0)->IgnoreImpCasts();
    if (const auto* b = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(arg)) return !b->getValue();
    if (const auto* i = llvm::dyn_cast<clang::IntegerLiteral>(arg)) return i->getValue() == 0;
    return false;
  }

  void lower_stmt(const clang::Stmt* stmt, std::vector<Stmt*>& out) {
    if (stmt == nullptr) return;
    Depth depth(depth_);
    if (depth_ > kMaxDepth) {
      out.push_back(module_.new_stmt(StmtKind::Other, range(stmt->getSourceRange())));
      return;
    }
    const ir::SourceRange where = range(stmt->getSourceRange());
    if (const auto* compound = llvm::dyn_cast<clang::CompoundStmt>(stmt)) {
      // A nested block: its own scope, lowered in place.
      Stmt* block = module_.new_stmt(StmtKind::Other, where);
      lower_statements(compound->body_begin(), compound->body_end(), block->body);
      out.push_back(block);
      return;
    }
    if (const auto* decl_stmt = llvm::dyn_cast<clang::DeclStmt>(stmt)) {
      for (const clang::Decl* decl : decl_stmt->decls()) {
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) {
          if (Stmt* s = lower_var(*var)) out.push_back(s);
        }
      }
      return;
    }
    if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(stmt)) {
      if (loop->getInit() != nullptr) lower_stmt(loop->getInit(), out);
      Stmt* s = module_.new_stmt(StmtKind::Loop, where);
      s->loop_kind = ir::LoopKind::While;
      s->value = loop->getCond() ? lower_expr(loop->getCond()) : nullptr;
      lower_compound_or_stmt(loop->getBody(), s->body);
      if (loop->getInc() != nullptr) lower_stmt(loop->getInc(), s->body);
      out.push_back(s);
      return;
    }
    if (const auto* loop = llvm::dyn_cast<clang::CXXForRangeStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::Loop, where);
      s->loop_kind = ir::LoopKind::For;
      const clang::VarDecl* var = loop->getLoopVariable();
      s->targets.push_back(
          name(var->getNameAsString(), range(var->getLocation()), classify(var->getType())));
      s->value = lower_expr(loop->getRangeInit());
      lower_compound_or_stmt(loop->getBody(), s->body);
      out.push_back(s);
      return;
    }
    if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::Loop, where);
      s->loop_kind = ir::LoopKind::While;
      s->value = lower_expr(loop->getCond());
      lower_compound_or_stmt(loop->getBody(), s->body);
      out.push_back(s);
      return;
    }
    if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::Loop, where);
      s->loop_kind = ir::LoopKind::While;
      s->value = lower_expr(loop->getCond());
      lower_compound_or_stmt(loop->getBody(), s->body);
      out.push_back(s);
      return;
    }
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::If, where);
      s->value = lower_expr(branch->getCond());
      lower_compound_or_stmt(branch->getThen(), s->body);
      if (branch->getElse() != nullptr) lower_compound_or_stmt(branch->getElse(), s->orelse);
      out.push_back(s);
      return;
    }
    if (const auto* ret = llvm::dyn_cast<clang::ReturnStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::Return, where);
      s->value = ret->getRetValue() ? lower_expr(ret->getRetValue()) : nullptr;
      out.push_back(s);
      return;
    }
    if (const auto* attempt = llvm::dyn_cast<clang::CXXTryStmt>(stmt)) {
      Stmt* s = module_.new_stmt(StmtKind::Try, where);
      lower_compound_or_stmt(attempt->getTryBlock(), s->body);
      for (unsigned i = 0; i < attempt->getNumHandlers(); ++i) {
        const clang::CXXCatchStmt* handler = attempt->getHandler(i);
        ir::Handler h;
        h.range = range(handler->getSourceRange());
        // `catch (const c10::Error& e)`: up to the handler's block.
        h.header = {
            h.range.begin,
            std::max(h.range.begin, range(handler->getHandlerBlock()->getSourceRange()).begin)};
        if (const clang::VarDecl* var = handler->getExceptionDecl()) {
          h.name = module_.intern(var->getNameAsString());
          if (const auto* record = var->getType().getNonReferenceType()->getAsCXXRecordDecl()) {
            h.types.push_back(
                chain(dotted(record->getQualifiedNameAsString()), range(var->getSourceRange())));
          }
        }
        lower_compound_or_stmt(handler->getHandlerBlock(), h.body);
        s->handlers.push_back(std::move(h));
      }
      out.push_back(s);
      return;
    }
    if (const auto* e = llvm::dyn_cast<clang::Expr>(stmt)) {
      out.push_back(lower_expr_stmt(e, where));
      return;
    }
    // switch, labels, ... : their bodies still lower.
    Stmt* other = module_.new_stmt(StmtKind::Other, where);
    for (const clang::Stmt* child : stmt->children()) {
      if (child != nullptr) lower_stmt(child, other->body);
    }
    out.push_back(other);
  }

  // `a = b`, `a += b` (built-in or overloaded on torch::Tensor), or any other expression.
  Stmt* lower_expr_stmt(const clang::Expr* e, ir::SourceRange where) {
    const clang::Expr* bare = e->IgnoreImplicit();
    if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(bare))
      bare = cleanups->getSubExpr()->IgnoreImplicit();
    const clang::Expr* lhs = nullptr;
    const clang::Expr* rhs = nullptr;
    std::string op;
    if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
      if (binary->isAssignmentOp()) {
        lhs = binary->getLHS();
        rhs = binary->getRHS();
        op = binary->getOpcodeStr().str();
      }
    } else if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(bare)) {
      if (call->isAssignmentOp() && call->getNumArgs() == 2) {
        lhs = call->getArg(0);
        rhs = call->getArg(1);
        op = clang::getOperatorSpelling(call->getOperator());
      }
    }
    if (lhs == nullptr) {
      Stmt* s = module_.new_stmt(StmtKind::ExprStmt, where);
      s->value = lower_expr(e);
      return s;
    }
    Stmt* s = module_.new_stmt(op == "=" ? StmtKind::Assign : StmtKind::AugAssign, where);
    s->targets.push_back(lower_target(lhs));
    s->value = lower_expr(rhs);
    s->text = module_.intern(op);
    return s;
  }

  // `std::tie(out, h) = ...` binds both names, like Python's tuple targets.
  Expr* lower_target(const clang::Expr* lhs) {
    const clang::Expr* bare = lhs->IgnoreImplicit();
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) {
      if (const clang::FunctionDecl* callee = call->getDirectCallee();
          callee && callee->getQualifiedNameAsString() == "std::tie") {
        Expr* tuple = module_.new_expr(ExprKind::Collection, range(call->getSourceRange()));
        tuple->collection_kind = ir::CollectionKind::Tuple;
        for (const clang::Expr* arg : call->arguments()) tuple->items.push_back(lower_expr(arg));
        return tuple;
      }
    }
    return lower_expr(lhs);
  }

  // A local declaration: `auto loss = criterion(out, y);` binds like an assignment; one
  // without an initializer binds too (a later `t = ...` in a loop is then a rebinding).
  Stmt* lower_var(const clang::VarDecl& var) {
    if (!in_main_file(var.getLocation())) return nullptr;
    const ir::SourceRange where = range(var.getSourceRange());
    Stmt* s = module_.new_stmt(StmtKind::Assign, where);
    s->declaration = var.getInitStyle() == clang::VarDecl::CInit ? ir::Declaration::Copy
                                                                 : ir::Declaration::Direct;
    if (const auto* decomposition = llvm::dyn_cast<clang::DecompositionDecl>(&var)) {
      Expr* tuple = module_.new_expr(ExprKind::Collection, where);
      tuple->collection_kind = ir::CollectionKind::Tuple;
      for (const clang::BindingDecl* binding : decomposition->bindings()) {
        tuple->items.push_back(name(binding->getNameAsString(), range(binding->getLocation()),
                                    classify(binding->getType())));
      }
      s->targets.push_back(tuple);
    } else {
      s->targets.push_back(
          name(var.getNameAsString(), range(var.getLocation()), classify(var.getType())));
    }
    const clang::Expr* init = var.getInit();
    if (init == nullptr || is_default_construction(init)) {
      s->kind = StmtKind::AnnAssign;  // declared, no value
      return s;
    }
    s->value = lower_expr(init);
    if (s->value->type_hint == TypeHint::Unknown) s->value->type_hint = classify(var.getType());
    return s;
  }

  static bool is_default_construction(const clang::Expr* init) {
    const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(init->IgnoreImplicit());
    return construct != nullptr && construct->getNumArgs() == 0 &&
           !llvm::isa<clang::CXXTemporaryObjectExpr>(construct);
  }

  // ---- expressions ------------------------------------------------------------------------

  Expr* name(const std::string& text, ir::SourceRange where, TypeHint hint) {
    Expr* e = module_.new_expr(ExprKind::Name, where);
    e->text = module_.intern(text);
    e->type_hint = hint;
    return e;
  }

  Expr* other(const clang::Expr* e) {
    return module_.new_expr(ExprKind::Other, range(e->getSourceRange()));
  }

  Expr* lower_expr(const clang::Expr* e) {
    if (e == nullptr) return module_.new_expr(ExprKind::Other, {});
    Depth depth(depth_);
    if (depth_ > kMaxDepth) return other(e);
    Expr* out = lower_expr_kind(e);
    if (out->type_hint == TypeHint::Unknown) out->type_hint = classify(e->getType());
    out->dependent = out->dependent || e->isTypeDependent();
    return out;
  }

  Expr* lower_expr_kind(const clang::Expr* e) {
    const ir::SourceRange where = range(e->getSourceRange());
    // Wrappers that change nothing the rules see.
    if (const auto* w = llvm::dyn_cast<clang::ExprWithCleanups>(e))
      return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e))
      return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::ImplicitCastExpr>(e))
      return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::ParenExpr>(e)) return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e)) {
      // `torch::nn::Linear(options)`: the user named the class, so it is a construction even
      // through a converting constructor.
      if (const auto* construct =
              llvm::dyn_cast<clang::CXXConstructExpr>(w->getSubExpr()->IgnoreImplicit())) {
        if (!construct->getConstructor()->isCopyOrMoveConstructor())
          return lower_construct(construct, where, true);
      }
      return lower_expr(w->getSubExpr());
    }
    if (const auto* w = llvm::dyn_cast<clang::CXXStaticCastExpr>(e))
      return lower_expr(w->getSubExpr());
    if (const auto* w = llvm::dyn_cast<clang::CStyleCastExpr>(e))
      return lower_expr(w->getSubExpr());

    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) return lower_decl_ref(ref, where);
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
      Expr* attr = module_.new_expr(ExprKind::Attr, where);
      attr->text = module_.intern(member->getMemberDecl()->getNameAsString());
      const clang::Expr* base = member->getBase()->IgnoreImplicit();
      if (llvm::isa<clang::CXXThisExpr>(base)) {
        attr->items.push_back(name(std::string(ir::kReceiver), where, TypeHint::Unknown));
      } else {
        attr->items.push_back(lower_expr(unwrap_arrow(base)));
      }
      return attr;
    }
    if (llvm::isa<clang::CXXThisExpr>(e))
      return name(std::string(ir::kReceiver), where, TypeHint::Unknown);
    if (Expr* dependent = lower_dependent(e, where)) return dependent;
    if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e))
      return lower_operator_call(call, where);
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) return lower_call(call, where);
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e))
      return lower_construct(construct, where);
    if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (binary->isComparisonOp()) {
        Expr* cmp = module_.new_expr(ExprKind::Compare, where);
        cmp->text = module_.intern(binary->getOpcodeStr().str());
        cmp->items = {lower_expr(binary->getLHS()), lower_expr(binary->getRHS())};
        return cmp;
      }
      if (binary->isLogicalOp()) {
        Expr* op = module_.new_expr(ExprKind::BoolOp, where);
        op->text = binary->getOpcode() == clang::BO_LAnd ? "and" : "or";
        op->items = {lower_expr(binary->getLHS()), lower_expr(binary->getRHS())};
        return op;
      }
      if (binary->isAssignmentOp() || binary->isCommaOp()) return other(e);
      Expr* op = module_.new_expr(ExprKind::BinOp, where);
      op->text = module_.intern(binary->getOpcodeStr().str());
      op->items = {lower_expr(binary->getLHS()), lower_expr(binary->getRHS())};
      return op;
    }
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (unary->getOpcode() == clang::UO_Deref || unary->getOpcode() == clang::UO_AddrOf)
        return lower_expr(unary->getSubExpr());
      Expr* op = module_.new_expr(ExprKind::UnaryOp, where);
      op->text = unary->getOpcode() == clang::UO_LNot
                     ? "not"
                     : module_.intern(clang::UnaryOperator::getOpcodeStr(unary->getOpcode()).str());
      op->items.push_back(lower_expr(unary->getSubExpr()));
      return op;
    }
    if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      Expr* ifexp = module_.new_expr(ExprKind::IfExp, where);
      ifexp->items = {lower_expr(conditional->getTrueExpr()), lower_expr(conditional->getCond()),
                      lower_expr(conditional->getFalseExpr())};
      return ifexp;
    }
    if (const auto* literal = llvm::dyn_cast<clang::IntegerLiteral>(e))
      return constant(ir::ConstKind::Int, std::to_string(literal->getValue().getLimitedValue()),
                      where);
    if (const auto* literal = llvm::dyn_cast<clang::FloatingLiteral>(e)) {
      llvm::SmallString<32> text;
      literal->getValue().toString(text);
      return constant(ir::ConstKind::Float, std::string(text.str()), where);
    }
    if (const auto* literal = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(e))
      return constant(ir::ConstKind::Bool, literal->getValue() ? "True" : "False", where);
    if (const auto* literal = llvm::dyn_cast<clang::StringLiteral>(e)) {
      // Quoted, as Python's string constants are: rules read what a message says
      // (`what.find("out of memory")`). Wide and UTF-16/32 literals stay empty.
      return constant(ir::ConstKind::Str,
                      literal->getCharByteWidth() == 1 ? "\"" + literal->getString().str() + "\""
                                                       : std::string("\"\""),
                      where);
    }
    if (llvm::isa<clang::CXXNullPtrLiteralExpr>(e))
      return constant(ir::ConstKind::None, "None", where);
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e)) {
      Expr* collection = module_.new_expr(ExprKind::Collection, where);
      collection->collection_kind = ir::CollectionKind::List;
      for (const clang::Expr* item : list->inits()) collection->items.push_back(lower_expr(item));
      return collection;
    }
    if (const auto* list = llvm::dyn_cast<clang::CXXStdInitializerListExpr>(e))
      return lower_expr(list->getSubExpr());
    if (llvm::isa<clang::LambdaExpr>(e)) return module_.new_expr(ExprKind::Lambda, where);
    if (const auto* array = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      Expr* sub = module_.new_expr(ExprKind::Subscript, where);
      sub->items = {lower_expr(array->getBase()), lower_expr(array->getIdx())};
      return sub;
    }
    return other(e);
  }

  // In a template, what depends on a template parameter is not resolved until instantiation:
  // `batch.target`, `loss.backward()`, `history.push_back(loss)` with `auto loss` from a
  // dependent call. They lower as written (an attribute of the base, a library function by its
  // qualified name), as Python's are: the rules then see the template once, as the user wrote it.
  Expr* lower_dependent(const clang::Expr* e, ir::SourceRange where) {
    const clang::Expr* base = nullptr;
    std::string member;
    if (const auto* m = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(e)) {
      base = m->isImplicitAccess() ? nullptr : m->getBase();
      member = m->getMember().getAsString();
    } else if (const auto* u = llvm::dyn_cast<clang::UnresolvedMemberExpr>(e)) {
      base = u->isImplicitAccess() ? nullptr : u->getBase();
      member = u->getMemberName().getAsString();
    } else if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(e)) {
      // `torch::nll_loss(out, batch.target)`: every candidate is the same library function.
      if (lookup->getNumDecls() == 0) return nullptr;
      const clang::NamedDecl* candidate = (*lookup->decls_begin())->getUnderlyingDecl();
      if (in_main_file(candidate->getLocation()))
        return name(candidate->getNameAsString(), where, TypeHint::Unknown);
      return chain(dotted(candidate->getQualifiedNameAsString()), where);
    } else {
      return nullptr;
    }
    Expr* attr = module_.new_expr(ExprKind::Attr, where);
    attr->text = module_.intern(member);
    attr->items.push_back(base == nullptr || llvm::isa<clang::CXXThisExpr>(base->IgnoreImplicit())
                              ? name(std::string(ir::kReceiver), where, TypeHint::Unknown)
                              : lower_expr(unwrap_arrow(base->IgnoreImplicit())));
    return attr;
  }

  Expr* constant(ir::ConstKind kind, std::string text, ir::SourceRange where) {
    Expr* c = module_.new_expr(ExprKind::Const, where);
    c->const_kind = kind;
    c->text = module_.intern(std::move(text));
    return c;
  }

  // `model->forward(x)`: ModuleHolder's operator-> is a call in the AST; the rules see `model`.
  static const clang::Expr* unwrap_arrow(const clang::Expr* e) {
    e = e->IgnoreImplicit();
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) {
      if (op->getOperator() == clang::OO_Arrow && op->getNumArgs() >= 1) return op->getArg(0);
    }
    return e;
  }

  Expr* lower_decl_ref(const clang::DeclRefExpr* ref, ir::SourceRange where) {
    const clang::ValueDecl* decl = ref->getDecl();
    // Locals, parameters and this file's functions by name; library entities by their resolved
    // qualified name (`torch::zeros` -> torch.zeros), whatever `using` or alias the code used.
    const bool local =
        llvm::isa<clang::VarDecl>(decl) && llvm::cast<clang::VarDecl>(decl)->isLocalVarDeclOrParm();
    if (local || in_main_file(decl->getLocation()) || llvm::isa<clang::BindingDecl>(decl)) {
      return name(decl->getNameAsString(), where, classify(decl->getType()));
    }
    return chain(dotted(decl->getQualifiedNameAsString()), where);
  }

  Expr* lower_call(const clang::CallExpr* call, ir::SourceRange where) {
    if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
      const std::string qualified = callee->getQualifiedNameAsString();
      // `std::get<1>(out)` is `out[1]`; `std::move(x)` is `x`.
      if (qualified == "std::get" && call->getNumArgs() == 1) {
        Expr* sub = module_.new_expr(ExprKind::Subscript, where);
        sub->items.push_back(lower_expr(call->getArg(0)));
        std::string index = "0";
        if (const auto* args = callee->getTemplateSpecializationArgs();
            args && args->size() > 0 &&
            args->get(0).getKind() == clang::TemplateArgument::Integral) {
          index = std::to_string(args->get(0).getAsIntegral().getExtValue());
        }
        sub->items.push_back(constant(ir::ConstKind::Int, index, where));
        return sub;
      }
      if ((qualified == "std::move" || qualified == "std::forward") && call->getNumArgs() == 1) {
        Expr* operand = lower_expr(call->getArg(0));
        if (operand != nullptr && qualified == "std::move") operand->moved = true;
        return operand;
      }
    }
    if (const clang::CXXMethodDecl* setter = chained_options_setter(call))
      return lower_options_setter(llvm::cast<clang::CXXMemberCallExpr>(call), *setter, where);
    Expr* out = module_.new_expr(ExprKind::Call, where);
    const clang::Expr* callee = call->getCallee()->IgnoreImplicit();
    out->items.push_back(lower_expr(callee));
    const bool backward = call->getDirectCallee() != nullptr &&
                          call->getDirectCallee()->getNameAsString() == "backward";
    for (const clang::Expr* arg : call->arguments()) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(arg)) continue;
      // `x.backward({}, true)`: the empty gradient is no value, and retain_graph/create_graph
      // become keywords below (as Python writes them), so the receiver's graph is what is consumed.
      if (backward && (arg != call->getArg(0) || is_empty_value(arg))) continue;
      out->items.push_back(lower_expr(arg));
    }
    // `x.backward({}, true)`: the real signature's retain_graph is the 2nd argument.
    name_backward_arguments(call, out);
    return out;
  }

  // `torch::nn::LinearOptions(in, out).bias(false)` as `LinearOptions(in, out, bias=False)`
  // (options_chain.h): the options call the chain starts from, with one keyword per field set; a
  // later setter of the same field overrides an earlier one.
  Expr* lower_options_setter(const clang::CXXMemberCallExpr* call,
                             const clang::CXXMethodDecl& setter, ir::SourceRange where) {
    Expr* options = lower_expr(call->getImplicitObjectArgument());
    Expr* value = lower_expr(call->getArg(0));
    const std::string_view field = module_.intern(setter.getNameAsString());
    if (options == nullptr || options->kind != ExprKind::Call) {
      // Not lowered to a call: keep the setter as the method call it is.
      Expr* method = module_.new_expr(ExprKind::Attr, where);
      method->text = field;
      method->items.push_back(options);
      Expr* out = module_.new_expr(ExprKind::Call, where);
      out->items = {method, value};
      return out;
    }
    std::erase_if(options->keywords,
                  [&](const ir::Keyword& keyword) { return keyword.name == field; });
    options->keywords.push_back({field, value});
    options->range = where;
    return options;
  }

  // `{}` / `torch::Tensor()`: a default-constructed argument.
  static bool is_empty_value(const clang::Expr* arg) {
    const clang::Expr* bare = arg->IgnoreImplicit();
    if (const auto* temp = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(bare))
      bare = temp->getSubExpr()->IgnoreImplicit();
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(bare))
      return list->getNumInits() == 0;
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(bare))
      return construct->getNumArgs() == 0;
    return false;
  }

  void name_backward_arguments(const clang::CallExpr* call, Expr* out) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return;
    const std::string name = callee->getNameAsString();
    if (name != "backward" && name != "grad") return;
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const std::string param = callee->getParamDecl(i)->getNameAsString();
      if ((param == "retain_graph" || param == "create_graph") &&
          !llvm::isa<clang::CXXDefaultArgExpr>(call->getArg(i))) {
        out->keywords.push_back({module_.intern(param), truthy(call->getArg(i))});
      }
    }
  }

  // `true` / `c10::optional<bool>(true)` as Python's True, for the rules that read the flag.
  Expr* truthy(const clang::Expr* e) {
    bool value = false;
    const clang::Expr* bare = e->IgnoreImplicit();
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(bare);
        construct && construct->getNumArgs() > 0) {
      bare = construct->getArg(0)->IgnoreImplicit();
    }
    if (const auto* b = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(bare)) value = b->getValue();
    return constant(ir::ConstKind::Bool, value ? "True" : "False", range(e->getSourceRange()));
  }

  Expr* lower_operator_call(const clang::CXXOperatorCallExpr* call, ir::SourceRange where) {
    const clang::OverloadedOperatorKind op = call->getOperator();
    if (op == clang::OO_Call) {
      // `model(x)` on a ModuleHolder, `criterion(out, y)`: a call of the object.
      Expr* out = module_.new_expr(ExprKind::Call, where);
      out->items.push_back(lower_expr(call->getArg(0)));
      for (unsigned i = 1; i < call->getNumArgs(); ++i)
        out->items.push_back(lower_expr(call->getArg(i)));
      return out;
    }
    if (op == clang::OO_Arrow || (op == clang::OO_Star && call->getNumArgs() == 1))
      return lower_expr(call->getArg(0));
    if (op == clang::OO_Subscript && call->getNumArgs() == 2) {
      Expr* sub = module_.new_expr(ExprKind::Subscript, where);
      sub->items = {lower_expr(call->getArg(0)), lower_expr(call->getArg(1))};
      return sub;
    }
    const std::string spelling = clang::getOperatorSpelling(op);
    if (call->getNumArgs() == 2 && (spelling == "==" || spelling == "!=" || spelling == "<" ||
                                    spelling == ">" || spelling == "<=" || spelling == ">=")) {
      Expr* cmp = module_.new_expr(ExprKind::Compare, where);
      cmp->text = module_.intern(spelling);
      cmp->items = {lower_expr(call->getArg(0)), lower_expr(call->getArg(1))};
      return cmp;
    }
    if (call->getNumArgs() == 2 && !call->isAssignmentOp()) {
      Expr* bin = module_.new_expr(ExprKind::BinOp, where);
      bin->text = module_.intern(spelling);
      bin->items = {lower_expr(call->getArg(0)), lower_expr(call->getArg(1))};
      return bin;
    }
    if (call->getNumArgs() == 1 && spelling == "-") {
      Expr* neg = module_.new_expr(ExprKind::UnaryOp, where);
      neg->text = "-";
      neg->items.push_back(lower_expr(call->getArg(0)));
      return neg;
    }
    return other(call);
  }

  // `torch::nn::Linear(4, 2)`, `torch::optim::SGD(params, options)`: a call of the class's
  // qualified name, as Python's `nn.Linear(4, 2)`. Copies and moves are the value itself.
  Expr* lower_construct(const clang::CXXConstructExpr* construct, ir::SourceRange where,
                        bool named = false) {
    const clang::CXXConstructorDecl* ctor = construct->getConstructor();
    if (!named && (ctor->isCopyOrMoveConstructor() || ctor->isConvertingConstructor(false)) &&
        construct->getNumArgs() == 1 && !llvm::isa<clang::CXXTemporaryObjectExpr>(construct)) {
      return lower_expr(construct->getArg(0));
    }
    const clang::CXXRecordDecl* record = ctor->getParent();
    Expr* out = module_.new_expr(ExprKind::Call, where);
    const std::string qualified = in_main_file(record->getLocation())
                                      ? record->getNameAsString()
                                      : dotted(record->getQualifiedNameAsString());
    out->items.push_back(chain(qualified, where));
    for (const clang::Expr* arg : construct->arguments()) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(arg)) continue;
      out->items.push_back(lower_expr(arg));
    }
    return out;
  }

  struct Depth {
    explicit Depth(int& depth) : depth_(depth) { ++depth_; }
    ~Depth() { --depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    int& depth_;
  };

  clang::ASTContext& context_;
  const clang::SourceManager& sm_;
  ir::Module& module_;
  ir::Function* function_ = nullptr;
  ir::ClassDef* class_ = nullptr;
  int depth_ = 0;
};

}  // namespace

void lower_translation_unit(clang::ASTContext& context, std::span<clang::Decl* const> top_level,
                            ir::Module& module) {
  Lowerer(context, module).run(top_level);
}

}  // namespace sealint::cpp
