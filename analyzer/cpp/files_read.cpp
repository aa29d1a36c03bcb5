#include "analyzer/cpp/files_read.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Serialization/ASTReader.h>
#include <clang/Serialization/ModuleFile.h>
#include <clang/Serialization/ModuleManager.h>

#include <algorithm>
#include <filesystem>
#include <optional>

namespace sealint::cpp {

std::optional<std::string> real_path(const std::string& path) {
  std::error_code error;
  std::filesystem::path found = std::filesystem::weakly_canonical(path, error);
  if (error) return std::nullopt;
  return found.string();
}

std::vector<std::string> files_read(clang::CompilerInstance& compiler,
                                    const std::vector<std::string>& served) {
  std::vector<std::string> out;
  auto add = [&](llvm::StringRef name) {
    if (std::find(served.begin(), served.end(), name.str()) != served.end()) return;
    if (std::optional<std::string> path = real_path(name.str())) out.push_back(std::move(*path));
  };
  if (compiler.hasSourceManager()) {
    const clang::SourceManager& sm = compiler.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) add(it->first.getName());
  }
  // A PCH's headers were read when it was made, not entered by this parse: its own list of
  // input files names them, system headers included.
  if (const llvm::IntrusiveRefCntPtr<clang::ASTReader> reader = compiler.getASTReader()) {
    for (clang::serialization::ModuleFile& module : reader->getModuleManager()) {
      reader->visitInputFileInfos(
          module, true,
          [&](const clang::serialization::InputFileInfo& info, bool) { add(info.Filename); });
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace sealint::cpp
