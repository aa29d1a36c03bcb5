#include "analyzer/cpp/options_chain.h"

#include <clang/AST/ExprCXX.h>

namespace sealint::cpp {

namespace {

// A setter of an options class: one argument, named for the field, returning a reference to
// the object (`auto bias(const bool&) -> decltype(*this)`), on a class named `...Options`.
const clang::CXXMethodDecl* options_setter(const clang::CXXMemberCallExpr* call) {
  if (call == nullptr || call->getNumArgs() != 1) return nullptr;
  const clang::CXXMethodDecl* method = call->getMethodDecl();
  const clang::CXXRecordDecl* record = call->getRecordDecl();
  if (method == nullptr || record == nullptr || !record->getName().ends_with("Options"))
    return nullptr;
  const clang::QualType returned = method->getReturnType();
  if (!returned->isLValueReferenceType()) return nullptr;
  const clang::CXXRecordDecl* returned_record = returned->getPointeeType()->getAsCXXRecordDecl();
  if (returned_record == nullptr ||
      returned_record->getCanonicalDecl() != record->getCanonicalDecl())
    return nullptr;
  return method;
}

// Is `e` an options object made right here: a constructor call, or a chained setter on one?
bool builds_options(const clang::Expr* e) {
  e = e->IgnoreImplicit();
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
    e = temporary->getSubExpr()->IgnoreImplicit();
  if (const auto* cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e))
    e = cast->getSubExpr()->IgnoreImplicit();
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e))
    return !construct->getConstructor()->isCopyOrMoveConstructor();
  return chained_options_setter(llvm::dyn_cast<clang::CallExpr>(e)) != nullptr;
}

}  // namespace

const clang::CXXMethodDecl* chained_options_setter(const clang::CallExpr* call) {
  const auto* member = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(call);
  const clang::CXXMethodDecl* setter = options_setter(member);
  if (setter == nullptr || !builds_options(member->getImplicitObjectArgument())) return nullptr;
  return setter;
}

}  // namespace sealint::cpp
