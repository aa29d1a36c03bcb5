#include "analyzer/cpp/frontend.h"

#include <clang/Basic/Version.h>

#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "analyzer/cpp/clang_parse.h"
#include "analyzer/cpp/comments.h"
#include "analyzer/cpp/lowering.h"
#include "analyzer/cpp/parse_report.h"

namespace sealint::cpp {

std::string clang_version() {
  return clang::getClangFullVersion();
}

bool is_cpp_source(std::string_view path) {
  static constexpr std::array<std::string_view, 4> kExtensions = {".cpp", ".cc", ".cxx", ".cu"};
  const std::string extension = std::filesystem::path(path).extension().string();
  return std::find(kExtensions.begin(), kExtensions.end(), extension) != kExtensions.end();
}

struct CppFrontend::State {
  CppOptions options;
  PchAttempts pch_attempts;
};

CppFrontend::CppFrontend(CppOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}
CppFrontend::~CppFrontend() = default;
CppFrontend::CppFrontend(CppFrontend&&) noexcept = default;
CppFrontend& CppFrontend::operator=(CppFrontend&&) noexcept = default;

Result<ir::LoweredFile> CppFrontend::lower(std::shared_ptr<const SourceFile> file,
                                           const std::string& real_path, CppInputs* inputs) {
  ir::LoweredFile out;
  out.module = std::make_unique<ir::Module>(file, ir::Language::Cpp);
  ir::Module& module = *out.module;
  const std::string code(file->code());
  // LibTorch code: everything the grad analysis knows applies (`#include <torch/...>`, ATen).
  module.imports_torch =
      code.find("torch") != std::string::npos || code.find("ATen") != std::string::npos;
  auto parsed =
      parse_cpp(code, real_path, std::string(file->path()), state_->options, state_->pch_attempts,
                [&](clang::ASTContext& context, std::span<clang::Decl* const> decls) {
                  lower_translation_unit(context, decls, module);
                });
  if (!parsed) return make_error(parsed.error());
  if (inputs != nullptr) {
    inputs->files = std::move(parsed->files_read);
    inputs->absent = std::move(parsed->absent_candidates);
  }
  module.comments = find_comments(file->code());
  if (parsed->first_error) out.problems.push_back(std::move(*parsed->first_error));
  for (InputError& warning : recovery_warnings(*parsed, module, std::string(file->path())))
    out.problems.push_back(std::move(warning));
  if (parsed->fell_back && state_->options.on_model_fallback) {
    const ModelGap& gap = *parsed->fell_back;
    state_->options.on_model_fallback(
        std::string(file->path()),
        fmt::format("sealint's model of LibTorch lacks `{}`{}: files that need more than the model "
                    "are analysed with the installed LibTorch headers (slower; "
                    "--torch-headers=system uses them for every file)",
                    gap.name, gap.at ? fmt::format(" (line {})", gap.at->line) : ""));
  }
  if (parsed->note) {
    out.problems.push_back({std::string(file->path()), std::nullopt, *parsed->note, true, true});
  }
  if (parsed->pch_note) {
    out.problems.push_back(
        {std::string(file->path()), std::nullopt,
         fmt::format("LibTorch headers parsed without a precompiled header ({}): about 10 s a file",
                     *parsed->pch_note),
         true, true});
  }
  return out;
}

}  // namespace sealint::cpp
