#include "analyzer/cpp/include_recovery.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/DirectoryLookup.h>
#include <clang/Lex/HeaderSearch.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <array>
#include <filesystem>
#include <memory>

#include "analyzer/core/display_path.h"
#include "analyzer/cpp/files_read.h"

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
  SkipMissing(const clang::Preprocessor& preprocessor, IncludeLog& log, std::string model_root)
      : sm_(preprocessor.getSourceManager()),
        search_(preprocessor.getHeaderSearchInfo()),
        log_(log),
        model_root_(std::move(model_root)) {}

  // Clang asks before it reports the header missing: true skips the `#include` silently, and the
  // preprocessor goes on as though the header were empty.
  bool FileNotFound(llvm::StringRef name) override {
    log_.skipped.push_back({name.str(), std::nullopt, {}, 0});
    pending_ = true;
    return true;
  }

  // Called right after, for the same directive: where it is.
  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef name,
                          bool angled, clang::CharSourceRange, clang::OptionalFileEntryRef file,
                          llvm::StringRef, llvm::StringRef, const clang::Module*, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (!file) {
      if (pending_ && !log_.skipped.empty() && log_.skipped.back().name == name.str()) {
        locate(log_.skipped.back(), hash);
        add_candidates(name, angled, hash);
      }
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

  // Clang's search order: the includer's folder for a quoted name, then the include folders.
  void add_candidates(llvm::StringRef name, bool angled, clang::SourceLocation hash) const {
    auto add = [&](const std::filesystem::path& path) {
      if (std::optional<std::string> found = real_path(path.string()))
        log_.absent_candidates.push_back(std::move(*found));
    };
    if (std::filesystem::path(name.str()).is_absolute()) {
      add(name.str());
      return;
    }
    if (!angled) {
      const clang::OptionalFileEntryRef includer =
          sm_.getFileEntryRefForID(sm_.getFileID(sm_.getExpansionLoc(hash)));
      if (includer)
        add(std::filesystem::path(includer->getName().str()).parent_path() / name.str());
    }
    for (const clang::DirectoryLookup& folder : search_.search_dir_range()) {
      if (folder.isNormalDir()) add(std::filesystem::path(folder.getName().str()) / name.str());
    }
  }

  const clang::SourceManager& sm_;
  const clang::HeaderSearch& search_;
  IncludeLog& log_;
  std::string model_root_;
  bool pending_ = false;
};

}  // namespace

void recover_missing_includes(clang::Preprocessor& preprocessor, IncludeLog& log,
                              std::string model_root) {
  preprocessor.addPPCallbacks(
      std::make_unique<SkipMissing>(preprocessor, log, std::move(model_root)));
}

}  // namespace sealint::cpp
