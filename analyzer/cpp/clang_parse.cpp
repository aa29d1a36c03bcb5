#include "analyzer/cpp/clang_parse.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>

#include <filesystem>

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
    if (level < clang::DiagnosticsEngine::Error || first_) return;
    const unsigned category = clang::DiagnosticIDs::getCategoryNumberForDiag(info.getID());
    const std::string_view name = clang::DiagnosticIDs::getCategoryNameFromID(category);
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
          // In a header: the message still names the file analysed.
          error.message = fmt::format("{}: C++: in {}:{}: {}", shown_path_, at.getFilename(),
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

 private:
  std::string shown_path_;
  bool semantic_counts_;
  std::optional<InputError> first_;
};

// Arguments from compile_commands.json for `file`, without the compiler, the file and outputs;
// nullopt when the database has no entry for it.
std::optional<std::vector<std::string>> database_args(const std::string& dir,
                                                      const std::string& file) {
  std::string error;
  auto database = clang::tooling::CompilationDatabase::loadFromDirectory(dir, error);
  if (!database) return std::nullopt;
  auto commands = database->getCompileCommands(file);
  if (commands.empty()) return std::nullopt;
  std::vector<std::string> line = commands.front().CommandLine;
  line = clang::tooling::getClangStripOutputAdjuster()(line, file);
  line = clang::tooling::getClangSyntaxOnlyAdjuster()(line, file);
  std::vector<std::string> args;
  for (size_t i = 1; i < line.size(); ++i) {  // [0] is the compiler
    if (line[i] == file ||
        std::filesystem::path(line[i]).filename() == std::filesystem::path(file).filename())
      continue;
    if (line[i] == "-c") continue;
    args.push_back(line[i]);
  }
  return args;
}

}  // namespace

Result<ParseProblems> parse_cpp(const std::string& code, const std::string& real_path,
                                const std::string& shown_path, const CppOptions& options,
                                const std::function<void(clang::ASTContext&)>& on_ast) {
  ParseProblems problems;
  std::vector<std::string> args;
  std::error_code error;
  const std::string absolute =
      std::filesystem::absolute(real_path, error).lexically_normal().string();
  if (!options.compile_commands_dir.empty()) {
    if (auto from_database = database_args(options.compile_commands_dir, absolute)) {
      args = std::move(*from_database);
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

  FirstError consumer(shown_path, options.headers == TorchHeaders::System);
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      code, args, absolute, "sealint", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), mapped, &consumer);
  if (!unit) return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  problems.first_error = consumer.take();
  on_ast(unit->getASTContext());
  return problems;
}

}  // namespace sealint::cpp
