#include "analyzer/cpp/parse_diagnostics.h"

#include <clang/Basic/DiagnosticFrontend.h>
#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>
#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>

#include <algorithm>

#include "analyzer/core/display_path.h"
#include "analyzer/cpp/model_gap.h"

namespace sealint::cpp {

ParseDiagnostics::ParseDiagnostics(std::string shown_path, bool semantic_counts,
                                   std::string model_root)
    : shown_path_(std::move(shown_path)),
      semantic_counts_(semantic_counts),
      model_root_(std::move(model_root)) {}

void ParseDiagnostics::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                        const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level < clang::DiagnosticsEngine::Error) return;
  const unsigned category = clang::DiagnosticIDs::getCategoryNumberForDiag(info.getID());
  const std::string_view name = clang::DiagnosticIDs::getCategoryNameFromID(category);
  // A stale, corrupt or mismatched PCH: Clang reads nothing of it, and says so only here.
  if (name == "AST Deserialization Issue" || info.getID() == clang::diag::err_fe_unable_to_load_pch)
    pch_refused_ = true;
  record_place(info);
  if (!model_root_.empty() && !gap_) {
    if (auto missing = model_gap_name(info, model_root_)) {
      gap_ = ModelGap{std::move(*missing), std::nullopt};
      const clang::SourceManager& sm = info.getSourceManager();
      const clang::SourceLocation loc = sm.getExpansionLoc(info.getLocation());
      const clang::PresumedLoc at = sm.getPresumedLoc(loc);
      if (at.isValid() && sm.isInMainFile(loc))
        gap_->at = Position{at.getLine(), at.getColumn(), at.getColumn(), 0};
    }
  }
  if (first_) return;
  const bool semantic = name != "Parse Issue" && name != "Lexical or Preprocessor Issue";
  if (semantic && !semantic_counts_) return;
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  InputError error{shown_path_, std::nullopt,
                   fmt::format("C++: {}", std::string_view(message.str()))};
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const clang::SourceManager& sm = info.getSourceManager();
    const clang::PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
    if (at.isValid()) {
      if (sm.isInMainFile(sm.getExpansionLoc(info.getLocation()))) {
        error.at = Position{at.getLine(), at.getColumn(), at.getColumn(), 0};
      } else {
        // In a header: the problem is the analysed file's (it goes first, as every problem's
        // path does), and the header is named as findings name files.
        error.message = fmt::format("C++: in {}:{}: {}", display_path(at.getFilename()),
                                    at.getLine(), std::string_view(message.str()));
      }
    }
  }
  first_ = std::move(error);
}

void ParseDiagnostics::record_place(const clang::Diagnostic& info) {
  if (!info.hasSourceManager() || !info.getLocation().isValid()) return;
  const clang::SourceManager& sm = info.getSourceManager();
  const clang::SourceLocation loc = sm.getExpansionLoc(info.getLocation());
  if (sm.isInMainFile(loc)) {
    error_offsets_.push_back(sm.getFileOffset(loc));
    return;
  }
  const clang::PresumedLoc at = sm.getPresumedLoc(loc);
  if (!at.isValid()) return;
  const std::string_view file = at.getFilename();
  // The model's and LibTorch's own headers are not the user's code.
  if (!model_root_.empty() && file.starts_with(model_root_)) return;
  std::string shown = display_path(std::string(file));
  if (std::find(headers_with_errors_.begin(), headers_with_errors_.end(), shown) ==
      headers_with_errors_.end())
    headers_with_errors_.push_back(std::move(shown));
}

}  // namespace sealint::cpp
