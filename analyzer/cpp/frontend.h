#pragma once
// The LibTorch C++ frontend: Clang LibTooling parses a file (with sealint's model of the LibTorch
// API served from memory in place of the torch/ATen headers, or with the real headers), and the
// AST is lowered into the same IR as Python. One per worker thread; nothing shared is mutable.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/core/result.h"
#include "analyzer/core/source_file.h"
#include "analyzer/ir/ir.h"

namespace sealint::cpp {

enum class TorchHeaders { Model, System };

class ProjectHeaders;

struct CppOptions {
  TorchHeaders headers = TorchHeaders::Model;
  std::string compile_commands_dir;  // -p: a folder holding compile_commands.json; empty: defaults
  // With TorchHeaders::System: the folder of precompiled LibTorch headers (--cache-dir, else
  // $XDG_CACHE_HOME/sealint/pch); empty: none, every file parses the headers (about 10 s).
  std::string pch_dir;
  // Told, with the analysed file's shown path and a sentence, before a PCH is made (about 15 s
  // on 2 cores), so that a slow first run is not taken for a hang. May be called from several
  // workers at once.
  std::function<void(const std::string& path, const std::string& message)> on_pch_build;
  // Told, with the analysed file's shown path and a sentence, when a file uses a name sealint's
  // model of LibTorch lacks and is parsed with the real headers instead (slower). Every such file
  // tells it; the caller says it once. May be called from several workers at once.
  std::function<void(const std::string& path, const std::string& message)> on_model_fallback;
  // Where a file without a compile_commands.json entry finds its project's own headers
  // (project_headers.h); shared by the workers of a run. Null: headers not found are skipped.
  std::shared_ptr<const ProjectHeaders> project_headers;
};

// What a file's result depends on besides its own bytes and the options (the result cache's key).
struct CppInputs {
  std::vector<std::string> files;   // real files the parse read: headers, a PCH's, the database
  std::vector<std::string> absent;  // where a header that was not found would have been found
};

// The Clang library's full version (it may be upgraded under the same sealint build).
[[nodiscard]] std::string clang_version();

// Is `path` a C++ source sealint analyses (.cpp, .cc, .cxx, .cu)?
[[nodiscard]] bool is_cpp_source(std::string_view path);

class CppFrontend {
 public:
  explicit CppFrontend(CppOptions options);
  ~CppFrontend();
  CppFrontend(CppFrontend&&) noexcept;
  CppFrontend& operator=(CppFrontend&&) noexcept;

  // `real_path` is where the file lives (for its own includes and compile_commands.json);
  // Clang's first error becomes a problem of the file, and what parsed is still lowered. When
  // `inputs` is given, what the parse read is put there.
  [[nodiscard]] Result<ir::LoweredFile> lower(std::shared_ptr<const SourceFile> file,
                                              const std::string& real_path,
                                              CppInputs* inputs = nullptr);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sealint::cpp
