#include "analyzer/cpp/clang_parse.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticFrontend.h>
#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <filesystem>

#include "analyzer/core/display_path.h"
#include "analyzer/cpp/database_flags.h"
#include "analyzer/cpp/pch_cache.h"
#include "analyzer/cpp/torch_model.h"

namespace sealint::cpp {

namespace {

constexpr std::string_view kModelRoot = "/sealint-torch-model";

// Records Clang's first error. With the model header, only parse and preprocessor errors count:
// a semantic error there is usually a call the model lacks, not a mistake in the user's code.
class FirstError : public clang::DiagnosticConsumer {
 public:
  FirstError(std::string shown_path, bool semantic_counts)
      : shown_path_(std::move(shown_path)), semantic_counts_(semantic_counts) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    const unsigned category = clang::DiagnosticIDs::getCategoryNumberForDiag(info.getID());
    const std::string_view name = clang::DiagnosticIDs::getCategoryNameFromID(category);
    // A stale, corrupt or mismatched PCH: Clang reads nothing of it, and says so only here.
    if (name == "AST Deserialization Issue" ||
        info.getID() == clang::diag::err_fe_unable_to_load_pch)
      pch_refused_ = true;
    if (first_) return;
    const bool semantic = name != "Parse Issue" && name != "Lexical or Preprocessor Issue";
    if (semantic && !semantic_counts_) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    InputError error{shown_path_, std::nullopt,
                     fmt::format("C++: {}", std::string_view(message.str()))};
    // A header the default flags cannot find is missing flags, not a mistake in the code: a
    // warning that says how to give them, and the analysis of what parsed goes on.
    const bool missing_header =
        std::string_view(message.str()).find("file not found") != std::string_view::npos;
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
    if (missing_header) {
      error.warning = true;
      error.message +=
          " (analysed without it: pass -p BUILD_DIR to use the project's compile_commands.json)";
    }
    first_ = std::move(error);
  }

  std::optional<InputError> take() { return std::move(first_); }
  bool pch_refused() const { return pch_refused_; }

 private:
  std::string shown_path_;
  bool semantic_counts_;
  std::optional<InputError> first_;
  bool pch_refused_ = false;
};

// Arguments from compile_commands.json for `file`: only what changes how it parses
// (database_flags.h); nullopt when the database has no entry for it.
std::optional<DatabaseFlags> database_args(const std::string& dir, const std::string& file) {
  std::string error;
  auto database = clang::tooling::CompilationDatabase::loadFromDirectory(dir, error);
  if (!database) return std::nullopt;
  auto commands = database->getCompileCommands(file);
  if (commands.empty()) return std::nullopt;
  return parse_flags_of_entry(commands.front().CommandLine, file, commands.front().Directory);
}

// One Clang run on the user's file: the AST (null when Clang could not run) and what it said.
struct Parse {
  std::unique_ptr<clang::ASTUnit> unit;
  std::optional<InputError> first_error;
  bool pch_refused = false;
};

Parse run_clang(const std::string& code, const std::string& absolute,
                const std::vector<std::string>& args,
                const clang::tooling::FileContentMappings& mapped, const std::string& shown_path,
                bool semantic_counts) {
  FirstError consumer(shown_path, semantic_counts);
  Parse parse;
  parse.unit = clang::tooling::buildASTFromCodeWithArgs(
      code, args, absolute, "sealint", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), mapped, &consumer);
  parse.first_error = consumer.take();
  parse.pch_refused = consumer.pch_refused();
  return parse;
}

// Clang's PCH generator, told where to write: the tooling runs it under -fsyntax-only, whose
// command line has no -o.
class WritePch : public clang::GeneratePCHAction {
 public:
  explicit WritePch(std::string path) : path_(std::move(path)) {}

 protected:
  bool BeginInvocation(clang::CompilerInstance& compiler) override {
    compiler.getFrontendOpts().OutputFile = path_;
    // Else Clang prints "N errors generated." on stderr; the reason reaches the user as a note.
    compiler.getDiagnosticOpts().ShowCarets = false;
    return true;
  }

 private:
  std::string path_;
};

// Precompiles the LibTorch prelude with the user file's `args` into `path`; why it failed, or
// nullopt.
std::optional<std::string> write_pch(const std::vector<std::string>& args,
                                     const std::string& path) {
  // The prelude is served from memory, as it is again when the PCH is used.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> files_seen(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> in_memory(
      new llvm::vfs::InMemoryFileSystem);
  files_seen->pushOverlay(in_memory);
  in_memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kPreludeCode));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), files_seen));
  std::vector<std::string> command = {"sealint", "-fsyntax-only"};
  command.insert(command.end(), args.begin(), args.end());
  // Templates instantiated once in the PCH, not again in each file: a parse takes 1.5 s, not 3.4 s
  // (clang++-19 -include-pch on examples/cpp/leaky_train.cpp).
  command.insert(command.end(),
                 {"-xc++-header", "-fpch-instantiate-templates", std::string(kPreludePath)});
  clang::tooling::ToolInvocation invocation(command, std::make_unique<WritePch>(path), files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  FirstError consumer(std::string(kPreludePath), true);
  invocation.setDiagnosticConsumer(&consumer);
  std::error_code error;
  if (invocation.run() && std::filesystem::is_regular_file(path, error)) return std::nullopt;
  auto first = consumer.take();
  return fmt::format("cannot precompile <torch/torch.h>: {}",
                     first ? first->message : "Clang failed");
}

// Parses with the cached PCH of the LibTorch prelude, made first when missing and made again
// when Clang refuses it (stale or corrupt). No unit, and the reason in `why_not`, when no PCH
// could be used: the caller then parses without one.
Parse parse_with_pch(const std::string& code, const std::string& absolute,
                     const std::vector<std::string>& args, const std::string& shown_path,
                     const CppOptions& options, PchAttempts& attempts,
                     std::optional<std::string>& why_not) {
  if (options.pch_dir.empty()) {
    why_not = "no cache folder: set HOME, XDG_CACHE_HOME or --cache-dir";
    return {};
  }
  const std::optional<std::string> version = find_torch_version(args);
  if (!version) {
    why_not = "no torch/version.h in the include paths";
    return {};
  }
  const std::filesystem::path path =
      pch_file(options.pch_dir, *version, CLANG_VERSION_STRING, args);
  // A PCH that failed costs a full parse each try: once per worker is enough (said already).
  if (attempts.failed.contains(path.string())) return {};
  const clang::tooling::FileContentMappings prelude = {
      {std::string(kPreludePath), std::string(kPreludeCode)}};
  auto write = [&](const std::string& temp) {
    if (options.on_pch_build) {
      options.on_pch_build(shown_path,
                           fmt::format("precompiling the LibTorch headers for its flags into "
                                       "'{}' (once; about 15 s)",
                                       path.string()));
    }
    return write_pch(args, temp);
  };
  std::optional<FileIdentity> refused;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto known = attempts.verified.find(path.string());
    auto pch =
        ensure_pch(path, refused, write,
                   known == attempts.verified.end() ? std::nullopt
                                                    : std::optional<FileIdentity>(known->second));
    if (!pch) {
      attempts.failed.insert(path.string());
      why_not = pch.error();
      return {};
    }
    attempts.verified.insert_or_assign(path.string(), pch->identity);
    std::vector<std::string> with_pch = args;
    with_pch.insert(with_pch.end(), {"-include-pch", pch->path.string()});
    Parse parse = run_clang(code, absolute, with_pch, prelude, shown_path, true);
    if (!parse.pch_refused) return parse;
    refused = pch->identity;
  }
  attempts.failed.insert(path.string());
  why_not = fmt::format("Clang refuses '{}' even when just made", path.string());
  return {};
}

}  // namespace

Result<ParseProblems> parse_cpp(const std::string& code, const std::string& real_path,
                                const std::string& shown_path, const CppOptions& options,
                                PchAttempts& attempts, const AstCallback& on_ast) {
  ParseProblems problems;
  std::vector<std::string> args;
  std::error_code error;
  const std::string absolute =
      std::filesystem::absolute(real_path, error).lexically_normal().string();
  if (!options.compile_commands_dir.empty()) {
    if (auto from_database = database_args(options.compile_commands_dir, absolute)) {
      args = std::move(from_database->kept);
    } else {
      problems.note = "no compile_commands.json entry for this file: C++17 defaults used";
    }
  }
  if (args.empty()) {
    // LibTorch 1.13's headers do not parse as C++20.
    args = {"-std=c++17", "-I/usr/include/torch/csrc/api/include"};
  }
  clang::tooling::FileContentMappings mapped;
  if (options.headers == TorchHeaders::Model) {
    // Ours first, so that `#include <torch/torch.h>` finds the model whatever the database says.
    args.insert(args.begin(), fmt::format("-I{}", kModelRoot));
    for (const auto& [path, text] : torch_model_files()) {
      mapped.emplace_back(fmt::format("{}/{}", kModelRoot, path), std::string(text));
    }
  }
  args.push_back("-resource-dir=" SEALINT_CLANG_RESOURCE_DIR);
  args.push_back("-w");  // warnings are not ours to report
  args.push_back("-ferror-limit=20");

  const bool system = options.headers == TorchHeaders::System;
  Parse parse;
  if (system) {
    parse = parse_with_pch(code, absolute, args, shown_path, options, attempts, problems.pch_note);
  }
  if (!parse.unit) parse = run_clang(code, absolute, args, mapped, shown_path, system);
  if (!parse.unit)
    return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  problems.first_error = std::move(parse.first_error);
  clang::ASTUnit& unit = *parse.unit;
  on_ast(unit.getASTContext(), {unit.top_level_begin(), unit.top_level_end()});
  return problems;
}

}  // namespace sealint::cpp
