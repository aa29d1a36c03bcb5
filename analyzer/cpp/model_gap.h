#pragma once
// Whether a Clang error, met while parsing with sealint's model of LibTorch, is a name the model
// lacks (`torch::CustomClassHolder`, `Tensor::eq_`) rather than a mistake in the user's code:
// the error names a LibTorch namespace in the code as written, or a class the model declares.
#include <optional>
#include <string>
#include <string_view>

namespace clang {
class Diagnostic;
}  // namespace clang

namespace sealint::cpp {

// The name the model lacks, spelled as the code qualifies it (`torch::data::Dataset`, or
// `at::Tensor::eq_` for a member), or nullopt when the error is about something else.
// `model_root` is the folder the model's headers are served from.
[[nodiscard]] std::optional<std::string> model_gap_name(const clang::Diagnostic& info,
                                                        std::string_view model_root);

// The qualified name written just before `offset` in `text`, ending with the identifier that
// starts there: `torch::data::Dataset` for the offset of `Dataset` in `torch :: data::Dataset`.
// Exposed for its unit test.
[[nodiscard]] std::string written_qualified_name(std::string_view text, size_t offset);

// Whether a qualified name as written starts in a LibTorch namespace (`torch`, `at`, `c10`).
[[nodiscard]] bool is_torch_qualified(std::string_view qualified);

}  // namespace sealint::cpp
