#include "analyzer/cpp/clang_parse.h"

#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>

#include <filesystem>

#include "analyzer/core/fixes.h"
#include "analyzer/cpp/compile_database.h"
#include "analyzer/cpp/pch_cache.h"
#include "analyzer/cpp/project_headers.h"
#include "analyzer/cpp/resource_dir.h"
#include "analyzer/cpp/torch_model.h"

namespace sealint::cpp {

namespace {

constexpr std::string_view kModelRoot = "/sealint-torch-model";

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

// What a PCH precompiles and how a parse with it is judged: the real LibTorch headers, or
// sealint's model of them.
struct PchKind {
  std::string name;  // in the PCH's file name: the LibTorch version, or the model's digest
  // Served from memory when the PCH is made and when it is used (the prelude, the model), so
  // that Clang's check of its input files sees the same files each time.
  std::vector<std::pair<std::string, std::string>> served;
  std::string model_root;  // the model's include folder; empty with the real headers
  std::string building;    // said while it is made (on_pch_build); empty: nothing
  // Whether the AST of a parse that accepted the PCH is wanted.
  std::function<bool(const ParseDiagnostics&, const IncludeLog&)> keep;
};

// The include folders guessed for the project's own headers (project_headers.h), pass by pass:
// a parse that skipped headers the project has is not lowered, and is made again with the
// folders that hold them.
struct FolderGuess {
  const ProjectHeaders* headers = nullptr;  // null: no guess (the flags are the database's)
  std::string file;                         // absolute
  std::vector<std::string> flags;           // `-I` flags guessed so far
  std::vector<std::string> pending;         // found by the last parse: parse again with them
  int passes = 0;

  // Whether the parse that skipped `includes.skipped` is the last one (then its AST is kept).
  bool complete(const IncludeLog& includes) {
    pending.clear();
    // A header found in a guessed folder may include others found in another: a few passes.
    if (headers == nullptr || passes >= 3 || includes.skipped.empty()) return true;
    std::vector<std::string> names;
    for (const SkippedInclude& skipped : includes.skipped) names.push_back(skipped.name);
    for (const std::string& folder : headers->folders_for(file, names)) {
      std::string flag = "-I" + folder;
      if (std::find(flags.begin(), flags.end(), flag) == flags.end())
        pending.push_back(std::move(flag));
    }
    return pending.empty();
  }
  [[nodiscard]] bool again() const { return !pending.empty(); }
  void next_pass() {
    flags.insert(flags.end(), pending.begin(), pending.end());
    pending.clear();
    ++passes;
  }
  // `args` with the guessed folders last: the user's own and the model's come first.
  [[nodiscard]] std::vector<std::string> with(std::vector<std::string> args) const {
    args.insert(args.end(), flags.begin(), flags.end());
    return args;
  }
};

// Precompiles the prelude with the user file's `args` into `path`; why it failed, or nullopt.
std::optional<std::string> write_pch(const std::vector<std::string>& args, const std::string& path,
                                     const PchKind& kind) {
  const llvm::IntrusiveRefCntPtr<clang::FileManager> files = files_with(kind.served);
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

// Parses with the cached PCH of the prelude, made first when missing and made again when Clang
// refuses it (stale or corrupt), and lowers. `ran` false, and the reason in `why_not`, when no
// PCH could be used: the caller then parses without one.
ClangRun parse_with_pch(const std::string& code, const std::string& absolute,
                        const std::vector<std::string>& args, const std::string& shown_path,
                        const CppOptions& options, PchAttempts& attempts, const PchKind& kind,
                        FolderGuess& guess, std::optional<std::string>& why_not,
                        std::optional<ParseDiagnostics>& diagnostics, const AstCallback& on_ast) {
  if (options.pch_dir.empty()) {
    why_not = "no cache folder: set HOME, XDG_CACHE_HOME or --cache-dir";
    return {};
  }
  const std::filesystem::path path =
      pch_file(options.pch_dir, kind.name, CLANG_VERSION_STRING, args);
  // A PCH that failed costs a full parse each try: once per worker is enough (said already).
  if (attempts.failed.contains(path.string())) return {};
  auto write = [&](const std::string& temp) {
    if (options.on_pch_build && !kind.building.empty())
      options.on_pch_build(shown_path, fmt::format(fmt::runtime(kind.building), path.string()));
    return write_pch(args, temp, kind);
  };
  // A guessed folder does not change what the prelude means: the PCH is keyed on `args` alone.
  auto keep = [&](const ParseDiagnostics& said, const IncludeLog& includes) {
    return !said.pch_refused() && guess.complete(includes) && kind.keep(said, includes);
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
    std::vector<std::string> with_pch = guess.with(args);
    with_pch.insert(with_pch.end(), {"-include-pch", pch->path.string()});
    diagnostics.emplace(shown_path, kind.model_root.empty(), kind.model_root);
    ClangRun run = run_clang(code, absolute, with_pch, kind.served, *diagnostics, kind.model_root,
                             keep, on_ast);
    if (!diagnostics->pch_refused()) return run;
    refused = pch->identity;
  }
  attempts.failed.insert(path.string());
  why_not = fmt::format("Clang refuses '{}' even when just made", path.string());
  return {};
}

// Does the file name LibTorch (as `module.imports_torch` reads it)? Then it reaches the model.
bool names_libtorch(std::string_view code) {
  return code.find("torch") != std::string_view::npos ||
         code.find("ATen") != std::string_view::npos;
}

// The model's files as one number, for its PCH's file name: another model, another PCH.
uint64_t model_digest() {
  uint64_t digest = kEmptyDigest;
  for (const auto& [path, text] : torch_model_files())
    digest = content_digest(text, content_digest(path, digest));
  return digest;
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
                                   PchAttempts& attempts, FolderGuess& guess,
                                   const AstCallback& on_ast) {
  ParseProblems problems;
  std::optional<ParseDiagnostics> diagnostics;
  ClangRun run;
  // The PCH is made as C++, and Clang refuses a C++ PCH for CUDA: a shared one would be made
  // again and overwritten by every .cu file, then refused all the same.
  if (parses_as_cuda(absolute, args)) {
    problems.pch_note = "a CUDA file: the precompiled headers are C++ only";
  } else if (const std::optional<std::string> version = find_torch_version(args); !version) {
    problems.pch_note = "no torch/version.h in the include paths";
  } else {
    const PchKind headers{*version,
                          {{std::string(kPreludePath), std::string(kPreludeCode)}},
                          {},
                          "precompiling the LibTorch headers for its flags into '{}' (once; "
                          "about 15 s)",
                          [](const ParseDiagnostics&, const IncludeLog&) { return true; }};
    run = parse_with_pch(code, absolute, args, shown_path, options, attempts, headers, guess,
                         problems.pch_note, diagnostics, on_ast);
  }
  if (!run.ran && !guess.again()) {
    diagnostics.emplace(shown_path, true, std::string());
    run = run_clang(
        code, absolute, guess.with(args), {}, *diagnostics, {},
        [&](const ParseDiagnostics&, const IncludeLog& includes) {
          return guess.complete(includes);
        },
        on_ast);
  }
  if (guess.again()) return problems;  // parsed again with the folders found
  if (!run.ran) return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  collect(*diagnostics, run, problems);
  return problems;
}

// Parses with sealint's model of LibTorch (with its PCH when the file names LibTorch), and with
// the real headers when the model lacks a name the file uses and the flags reach them.
Result<ParseProblems> parse_model(const std::string& code, const std::string& absolute,
                                  const std::vector<std::string>& args,
                                  const std::string& shown_path, const CppOptions& options,
                                  PchAttempts& attempts, FolderGuess& guess,
                                  const AstCallback& on_ast) {
  // Ours first, so that `#include <torch/torch.h>` finds the model whatever the database says.
  std::vector<std::string> model_args = args;
  model_args.insert(model_args.begin(), fmt::format("-I{}", kModelRoot));
  std::vector<std::pair<std::string, std::string>> mapped;
  for (const auto& [path, text] : torch_model_files())
    mapped.emplace_back(fmt::format("{}/{}", kModelRoot, path), std::string(text));
  // The real headers are used for a file the model cannot parse, when its flags reach them.
  const bool real_headers = find_torch_version(args).has_value();
  auto keep = [&](const ParseDiagnostics& said, const IncludeLog& includes) {
    return !real_headers || !model_gap_of(said, includes);
  };
  std::optional<ParseDiagnostics> diagnostics;
  ClangRun run;
  // Parsing the model and the standard headers it includes is most of a file's time (about 2 s
  // of 2.1 s): the first file precompiles them, the others load that (0.1 s). Only for a file
  // that names LibTorch: the prelude would add its names to any other.
  if (names_libtorch(code)) {
    mapped.emplace_back(std::string(kPreludePath), std::string(kPreludeCode));
    const PchKind model{fmt::format("model-{:016x}", model_digest()), mapped,
                        std::string(kModelRoot), "", keep};
    std::optional<std::string> why_not;  // the parse below gives the same findings, slower
    run = parse_with_pch(code, absolute, model_args, shown_path, options, attempts, model, guess,
                         why_not, diagnostics, on_ast);
  }
  if (!run.ran && !guess.again()) {
    diagnostics.emplace(shown_path, false, std::string(kModelRoot));
    run = run_clang(
        code, absolute, guess.with(model_args), mapped, *diagnostics, std::string(kModelRoot),
        [&](const ParseDiagnostics& said, const IncludeLog& includes) {
          return guess.complete(includes) && keep(said, includes);
        },
        on_ast);
  }
  if (guess.again()) return ParseProblems{};  // parsed again with the folders found
  if (!run.ran) return make_error(fmt::format("'{}': Clang could not parse this file", shown_path));
  if (!run.lowered) {
    auto problems =
        parse_system(code, absolute, args, shown_path, options, attempts, guess, on_ast);
    if (problems) problems->fell_back = model_gap_of(*diagnostics, run.includes);
    return problems;
  }
  ParseProblems problems;
  problems.model_gap = model_gap_of(*diagnostics, run.includes);
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
  bool database_entry = false;  // then its include folders are the project's: no guess
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
      database_entry = true;
    } else {
      note = "no compile_commands.json entry for this file: C++17 defaults used";
    }
  }
  if (args.empty()) {
    // LibTorch 1.13's headers do not parse as C++20.
    args = {"-std=c++17", "-I/usr/include/torch/csrc/api/include"};
  }
  args.push_back("-resource-dir=" + clang_resource_dir());
  args.push_back("-w");  // warnings are not ours to report
  args.push_back("-ferror-limit=20");

  auto finish = [&](Result<ParseProblems> problems) {
    if (problems) {
      problems->note = note;
      if (database) problems->files_read.push_back(*database);
    }
    return problems;
  };
  FolderGuess guess{database_entry ? nullptr : options.project_headers.get(), absolute, {}, {}, 0};
  for (;;) {
    Result<ParseProblems> problems =
        options.headers == TorchHeaders::System
            ? parse_system(code, absolute, args, shown_path, options, attempts, guess, on_ast)
            : parse_model(code, absolute, args, shown_path, options, attempts, guess, on_ast);
    if (!problems || !guess.again()) return finish(std::move(problems));
    guess.next_pass();
  }
}

}  // namespace sealint::cpp
