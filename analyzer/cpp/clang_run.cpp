#include "analyzer/cpp/clang_run.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclGroup.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "analyzer/cpp/files_read.h"
#include "analyzer/cpp/regular_files.h"

namespace sealint::cpp {

namespace {

struct RunState {
  ParseDiagnostics& diagnostics;
  const std::function<bool(const ParseDiagnostics&, const IncludeLog&)>& keep;
  const AstCallback& on_ast;
  std::string model_root;
  std::vector<std::string> served;  // paths served from memory
  ClangRun result;
};

// Collects the file-scope declarations as Clang parses them, and lowers at the end of the
// translation unit (after Sema's pending instantiations), while the AST is still alive.
class Collect : public clang::ASTConsumer {
 public:
  explicit Collect(RunState& state) : state_(state) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl* decl : group) decls_.push_back(decl);
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    state_.result.ran = true;
    if (!state_.keep(state_.diagnostics, state_.result.includes)) return;
    state_.on_ast(context, decls_);
    state_.result.lowered = true;
  }

 private:
  RunState& state_;
  std::vector<clang::Decl*> decls_;
};

class Parse : public clang::ASTFrontendAction {
 public:
  explicit Parse(RunState& state) : state_(state) {}

 protected:
  bool BeginInvocation(clang::CompilerInstance& compiler) override {
    // Else Clang prints "N errors generated." on stderr: errors reach the user as problems.
    compiler.getDiagnosticOpts().ShowCarets = false;
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler,
                                                        llvm::StringRef) override {
    recover_missing_includes(compiler.getPreprocessor(), state_.result.includes, state_.model_root);
    return std::make_unique<Collect>(state_);
  }

  void EndSourceFileAction() override {
    state_.result.files_read = files_read(getCompilerInstance(), state_.served);
  }

 private:
  RunState& state_;
};

}  // namespace

llvm::IntrusiveRefCntPtr<clang::FileManager> files_with(
    const std::vector<std::pair<std::string, std::string>>& files) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> files_seen(
      new llvm::vfs::OverlayFileSystem(regular_files_only(llvm::vfs::getRealFileSystem())));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> in_memory(
      new llvm::vfs::InMemoryFileSystem);
  files_seen->pushOverlay(in_memory);
  for (const auto& [path, text] : files)
    in_memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  return llvm::IntrusiveRefCntPtr<clang::FileManager>(
      new clang::FileManager(clang::FileSystemOptions(), files_seen));
}

ClangRun run_clang(const std::string& code, const std::string& absolute,
                   const std::vector<std::string>& args,
                   const std::vector<std::pair<std::string, std::string>>& mapped,
                   ParseDiagnostics& diagnostics, const std::string& model_root,
                   const std::function<bool(const ParseDiagnostics&, const IncludeLog&)>& keep,
                   const AstCallback& on_ast) {
  std::vector<std::pair<std::string, std::string>> served = mapped;
  served.emplace_back(absolute, code);
  const llvm::IntrusiveRefCntPtr<clang::FileManager> files = files_with(served);
  std::vector<std::string> command = {"sealint", "-fsyntax-only"};
  command.insert(command.end(), args.begin(), args.end());
  command.push_back(absolute);
  RunState state{diagnostics, keep, on_ast, model_root, {}, {}};
  for (const auto& [path, text] : served) state.served.push_back(path);
  clang::tooling::ToolInvocation invocation(command, std::make_unique<Parse>(state), files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&diagnostics);
  // false whenever Clang reported an error; whether it parsed at all is `ran`.
  (void)invocation.run();
  return std::move(state.result);
}

}  // namespace sealint::cpp
