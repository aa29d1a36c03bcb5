#include "analyzer/cpp/include_recovery.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <array>
#include <memory>

#include "analyzer/core/display_path.h"

namespace sealint::cpp {

namespace {

// The folders LibTorch's headers live in, as user code includes them.
bool names_torch_header(std::string_view name) {
  static constexpr std::array<std::string_view, 4> kPrefixes = {"torch/", "ATen/", "c10/",
                                                                "caffe2/"};
  for (std::string_view prefix : kPrefixes) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

class SkipMissing : public clang::PPCallbacks {
 public:
  SkipMissing(const clang::SourceManager& sm, IncludeLog& log, std::string model_root)
      : sm_(sm), log_(log), model_root_(std::move(model_root)) {}

  // Clang asks before it reports the header missing: true skips the `#include` silently, and the
  // preprocessor goes on as though the header were empty.
  bool FileNotFound(llvm::StringRef name) override {
    log_.skipped.push_back({name.str(), std::nullopt, {}, 0});
    pending_ = true;
    return true;
  }

  // Called right after, for the same directive: where it is.
  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef name,
                          bool, clang::CharSourceRange, clang::OptionalFileEntryRef file,
                          llvm::StringRef, llvm::StringRef, const clang::Module*, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (!file) {
      if (pending_ && !log_.skipped.empty() && log_.skipped.back().name == name.str())
        locate(log_.skipped.back(), hash);
      pending_ = false;
      return;
    }
    if (model_root_.empty() || !names_torch_header(name.str())) return;
    const llvm::StringRef found = file->getName();
    if (!found.starts_with(model_root_)) log_.torch_headers_outside_model.push_back(name.str());
  }

 private:
  void locate(SkippedInclude& skipped, clang::SourceLocation hash) const {
    const clang::PresumedLoc at = sm_.getPresumedLoc(sm_.getExpansionLoc(hash));
    if (!at.isValid()) return;
    if (sm_.isInMainFile(sm_.getExpansionLoc(hash))) {
      skipped.at = Position{at.getLine(), at.getColumn(), at.getColumn(), 0};
    } else {
      skipped.in_header = display_path(at.getFilename());
      skipped.header_line = at.getLine();
    }
  }

  const clang::SourceManager& sm_;
  IncludeLog& log_;
  std::string model_root_;
  bool pending_ = false;
};

}  // namespace

void recover_missing_includes(clang::Preprocessor& preprocessor, IncludeLog& log,
                              std::string model_root) {
  preprocessor.addPPCallbacks(
      std::make_unique<SkipMissing>(preprocessor.getSourceManager(), log, std::move(model_root)));
}

}  // namespace sealint::cpp
