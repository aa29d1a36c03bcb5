#include "analyzer/cpp/clang_parse.h"

#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>

#include <filesystem>

#include "analyzer/cpp/compile_database.h"
#include "analyzer/cpp/pch_cache.h"
#include "analyzer/cpp/torch_model.h"

namespace sealint::cpp {

namespace {

constexpr std::string_view kModelRoot = "/sealint-torch-model";

// The PCH's refusal shows at the start of the parse; the AST of that parse is not wanted.
bool pch_accepted(const ParseDiagnostics& diagnostics, const IncludeLog&) {
  return !diagnostics.pch_refused();
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
  const llvm::IntrusiveRefCntPtr<clang::FileManager> files =
      files_with({{std::string(kPreludePath), std::string(kPreludeCode)}});
  std::vector<std::string> command = {"sealint", "-fsyntax-only"};
  command.insert(command.end(), args.begin(), args.end());
  // Templates instantiated once in the PCH, not again in each file: a parse takes 1.5 s, not 3.4 s
  // (clang++-19 -include-pch on examples/cpp/leaky_train.cpp).
  command.insert(command.end(),
                 {"-xc++-header", "-fpch-instantiate-templates", std::string(kPreludePath)});
  clang::tooling::ToolInvocation invocation(command, std::make_unique<WritePch>(path), files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  ParseDiagnostics consumer(std::string(kPreludePath), true, {});
  invocation.setDiagnosticConsumer(&consumer);
  std::error_code error;
  if (invocation.run() && std::filesystem::is_regular_file(path, error)) return std::nullopt;
  auto first = consumer.take_first_error();
  return fmt::format("cannot precompile <torch/torch.h>: {}",
                     first ? first->message : "Clang failed");
}

// Parses with the cached PCH of the LibTorch prelude, made first when missing and made again
// when Clang refuses it (stale or corrupt), and lowers. `ran` false, and the reason in `why_not`,
// when no PCH could be used: the caller then parses without one.
ClangRun parse_with_pch(const std::string& code, const std::string& absolute,
                        const std::vector<std::string>& args, const std::string& shown_path,
                        const CppOptions& options, PchAttempts& attempts,
                        std::optional<std::string>& why_not,
                        std::optional<ParseDiagnostics>& diagnostics, const AstCallback& on_ast) {
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
  const std::vector<std::pair<std::string, std::string>> prelude = {
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
    diagnostics.emplace(shown_path, true, std::string());
    ClangRun run =
        run_clang(code, absolute, with_pch, prelude, *diagnostics, {}, pch_accepted, on_ast);
    if (!diagnostics->pch_refused()) return run;
    refused = pch->identity;
  }
  attempts.failed.insert(path.string());
  why_not = fmt::format("Clang refuses '{}' even when just made", path.string());
  return {};
}

// The first name the model lacked: a name Clang could not find, or a LibTorch header the model
// does not have.
std::optional<ModelGap> model_gap_of(const ParseDiagnostics& diagnostics,
                                     const IncludeLog& includes) {
  if (diagnostics.model_gap()) return diagnostics.model_gap();
  if (!includes.torch_headers_outside_model.empty())
    return ModelGap{fmt::format("<{}>", includes.torch_headers_outside_model.front()), {}};
  return std::nullopt;
}

// What a run said, as the file's problems: Clang's first error, unless a skipped header or a
// model gap may explain the errors; then where they fell, for the warning that says so.
void collect(ParseDiagnostics& diagnostics, const ClangRun& run, ParseProblems& problems) {
  const IncludeLog& includes = run.includes;
  problems.skipped = includes.skipped;
  problems.absent_candidates = includes.absent_candidates;
  problems.files_read.insert(problems.files_read.end(), run.files_read.begin(),
                             run.files_read.end());
  auto first = diagnostics.take_first_error();
  if (problems.skipped.empty() && !problems.model_gap) {
    problems.first_error = std::move(first);
    return;
  }
  problems.error_offsets = diagnostics.error_offsets();
  problems.headers_with_errors = diagnostics.headers_with_errors();
}

// Whether Clang parses the file as CUDA: a .cu file, unless the flags say `-x c++`.
bool parses_as_cuda(const std::string& path, const std::vector<std::string>& args) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "-x" && (args[i + 1] == "c++" || args[i + 1] == "c++-header")) return false;
  }
  return std::filesystem::path(path).extension() == ".cu";
}

// Parses with the real LibTorch headers: with the PCH when one can be used, else from source.
Result<ParseProblems> parse_system(const std::string& code, const std::string& absolute,
                                   const std::vector<std::string>& args,
                                   const std::string& shown_path, const CppOptions& options,
                                   PchAttempts& attempts, const AstCallback& on_ast) {
  ParseProblems problems;
  std::optional<ParseDiagnostics> diagnostics;
  ClangRun run;
  // The PCH is made as C++, and Clang refuses a C++ PCH for CUDA: a shared one would be made
  // again and overwritten by every .cu file, then refused all the same.
  if (parses_as_cuda(absolute, args)) {
    problems.pch_note = "a CUDA file: the precompiled headers are C++ only";
  } else {
    run = parse_with_pch(code, absolute, args, shown_path, options, attempts, problems.pch_note,
                         diagnostics, on_ast);
  }
  if (!run.ran) {
    diagnostics.emplace(shown_path, true, std::string());
    run = run_clang(code, absolute, args, {}, *diagnostics, {}, pch_accepted, on_ast);
  }
  if (!run.ran) return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  collect(*diagnostics, run, problems);
  return problems;
}

}  // namespace

Result<ParseProblems> parse_cpp(const std::string& code, const std::string& real_path,
                                const std::string& shown_path, const CppOptions& options,
                                PchAttempts& attempts, const AstCallback& on_ast) {
  std::optional<std::string> note;
  std::vector<std::string> args;
  std::error_code error;
  const std::string absolute =
      std::filesystem::absolute(real_path, error).lexically_normal().string();
  // The flags in force come from the database: its bytes are part of what the parse read.
  std::optional<std::string> database;
  if (!options.compile_commands_dir.empty()) {
    database =
        (std::filesystem::absolute(options.compile_commands_dir, error) / "compile_commands.json")
            .lexically_normal()
            .string();
    auto from_database = database_flags_for(options.compile_commands_dir, absolute);
    if (!from_database) {
      note = fmt::format("{}: C++17 defaults used", from_database.error());
    } else if (*from_database) {
      args = std::move((*from_database)->kept);
    } else {
      note = "no compile_commands.json entry for this file: C++17 defaults used";
    }
  }
  if (args.empty()) {
    // LibTorch 1.13's headers do not parse as C++20.
    args = {"-std=c++17", "-I/usr/include/torch/csrc/api/include"};
  }
  args.push_back("-resource-dir=" SEALINT_CLANG_RESOURCE_DIR);
  args.push_back("-w");  // warnings are not ours to report
  args.push_back("-ferror-limit=20");

  auto finish = [&](Result<ParseProblems> problems) {
    if (problems) {
      problems->note = note;
      if (database) problems->files_read.push_back(*database);
    }
    return problems;
  };
  if (options.headers == TorchHeaders::System)
    return finish(parse_system(code, absolute, args, shown_path, options, attempts, on_ast));
  // Ours first, so that `#include <torch/torch.h>` finds the model whatever the database says.
  std::vector<std::string> model_args = args;
  model_args.insert(model_args.begin(), fmt::format("-I{}", kModelRoot));
  std::vector<std::pair<std::string, std::string>> mapped;
  for (const auto& [path, text] : torch_model_files())
    mapped.emplace_back(fmt::format("{}/{}", kModelRoot, path), std::string(text));
  // The real headers are used for a file the model cannot parse, when its flags reach them.
  const bool real_headers = find_torch_version(args).has_value();
  ParseDiagnostics diagnostics(shown_path, false, std::string(kModelRoot));
  const ClangRun run = run_clang(
      code, absolute, model_args, mapped, diagnostics, std::string(kModelRoot),
      [&](const ParseDiagnostics& said, const IncludeLog& includes) {
        return !real_headers || !model_gap_of(said, includes);
      },
      on_ast);
  if (!run.ran) return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  if (!run.lowered) {
    auto problems = parse_system(code, absolute, args, shown_path, options, attempts, on_ast);
    if (problems) problems->fell_back = model_gap_of(diagnostics, run.includes);
    return finish(std::move(problems));
  }
  ParseProblems problems;
  problems.model_gap = model_gap_of(diagnostics, run.includes);
  collect(diagnostics, run, problems);
  return finish(std::move(problems));
}

}  // namespace sealint::cpp
