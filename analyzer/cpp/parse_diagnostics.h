#pragma once
// What Clang said while parsing one file, in the terms sealint reports: its first error, whether
// it refused the PCH, where errors fell (the code a skipped header or a model gap may affect),
// and the first name sealint's model of LibTorch lacked.
#include <clang/Basic/Diagnostic.h>

#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::cpp {

struct ModelGap {
  std::string name;            // `torch::CustomClassHolder`
  std::optional<Position> at;  // in the analysed file; nullopt when in a header
};

class ParseDiagnostics : public clang::DiagnosticConsumer {
 public:
  // `semantic_counts`: whether a semantic error is the file's first error. With the model it is
  // not: there it is usually a call the model lacks, not a mistake in the user's code.
  // `model_root`: the model's include folder, empty with the real headers.
  ParseDiagnostics(std::string shown_path, bool semantic_counts, std::string model_root);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;

  // Clang's first error that counts, as a problem of the analysed file.
  [[nodiscard]] std::optional<InputError> take_first_error() { return std::move(first_); }
  [[nodiscard]] bool pch_refused() const { return pch_refused_; }
  [[nodiscard]] const std::optional<ModelGap>& model_gap() const { return gap_; }
  // Byte offsets in the analysed file of every error, and the headers (as shown) with errors.
  [[nodiscard]] const std::vector<uint32_t>& error_offsets() const { return error_offsets_; }
  [[nodiscard]] const std::vector<std::string>& headers_with_errors() const {
    return headers_with_errors_;
  }

 private:
  void record_place(const clang::Diagnostic& info);

  std::string shown_path_;
  bool semantic_counts_;
  std::string model_root_;
  std::optional<InputError> first_;
  std::optional<ModelGap> gap_;
  std::vector<uint32_t> error_offsets_;
  std::vector<std::string> headers_with_errors_;
  bool pch_refused_ = false;
};

}  // namespace sealint::cpp
