#include "analyzer/cpp/model_gap.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclBase.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>

#include <array>

namespace sealint::cpp {

namespace {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A class the model declares, named by a `no member named 'x' in 'at::Tensor'` error: the
// member is missing from the model's class, not from LibTorch's. A namespace is not enough:
// Clang corrects an unknown `c10d::` to `c10::` in its message.
std::optional<std::string> model_class_of(const clang::Diagnostic& info,
                                          std::string_view model_root) {
  if (!info.hasSourceManager()) return std::nullopt;
  const clang::SourceManager& sm = info.getSourceManager();
  for (unsigned i = 0; i < info.getNumArgs(); ++i) {
    if (info.getArgKind(i) != clang::DiagnosticsEngine::ak_declcontext) continue;
    const auto* context = reinterpret_cast<const clang::DeclContext*>(info.getRawArg(i));
    const auto* record = llvm::dyn_cast_or_null<clang::CXXRecordDecl>(context);
    if (record == nullptr) continue;
    const clang::PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(record->getLocation()));
    if (at.isValid() && std::string_view(at.getFilename()).starts_with(model_root))
      return record->getQualifiedNameAsString();
  }
  return std::nullopt;
}

}  // namespace

std::string written_qualified_name(std::string_view text, size_t offset) {
  if (offset >= text.size()) return {};
  size_t end = offset;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  std::string name(text.substr(offset, end - offset));
  size_t at = offset;
  for (;;) {
    size_t i = at;
    while (i > 0 && is_space(text[i - 1])) --i;
    if (i < 2 || text[i - 1] != ':' || text[i - 2] != ':') break;
    i -= 2;
    while (i > 0 && is_space(text[i - 1])) --i;
    size_t begin = i;
    while (begin > 0 && is_identifier_char(text[begin - 1])) --begin;
    if (begin == i) break;  // `::x`: the global namespace
    name = std::string(text.substr(begin, i - begin)) + "::" + name;
    at = begin;
  }
  return name;
}

bool is_torch_qualified(std::string_view qualified) {
  static constexpr std::array<std::string_view, 3> kNamespaces = {"torch::", "at::", "c10::"};
  for (std::string_view ns : kNamespaces) {
    if (qualified.starts_with(ns)) return true;
  }
  return false;
}

std::optional<std::string> model_gap_name(const clang::Diagnostic& info,
                                          std::string_view model_root) {
  if (!info.hasSourceManager() || !info.getLocation().isValid()) return std::nullopt;
  const clang::SourceManager& sm = info.getSourceManager();
  const clang::SourceLocation at = sm.getExpansionLoc(info.getLocation());
  const clang::FileID file = sm.getFileID(at);
  bool invalid = false;
  const llvm::StringRef text = sm.getBufferData(file, &invalid);
  if (invalid) return std::nullopt;
  const std::string written =
      written_qualified_name({text.data(), text.size()}, sm.getFileOffset(at));
  if (written.empty()) return std::nullopt;
  if (is_torch_qualified(written)) return written;
  if (auto record = model_class_of(info, model_root)) return *record + "::" + written;
  return std::nullopt;
}

}  // namespace sealint::cpp
