#include "analyzer/knowledge/transformers.h"

#include <algorithm>
#include <array>

namespace sealint::knowledge {

namespace {

// Words of a class's name that make it something other than a model, though it loads with
// `from_pretrained` too.
constexpr std::array<std::string_view, 5> kNotModels = {"Config", "FeatureExtractor", "Processor",
                                                        "Tokenizer", "Pipeline"};

}  // namespace

bool is_transformers_model_loader(std::string_view qualified) {
  constexpr std::string_view kPackage = "transformers.";
  constexpr std::string_view kLoader = ".from_pretrained";
  if (!qualified.starts_with(kPackage) || !qualified.ends_with(kLoader)) return false;
  std::string_view cls = qualified.substr(0, qualified.size() - kLoader.size());
  cls = cls.substr(cls.rfind('.') + 1);
  if (std::any_of(kNotModels.begin(), kNotModels.end(),
                  [&](std::string_view word) { return cls.find(word) != std::string_view::npos; }))
    return false;
  // `AutoModel`, `CLIPModel`, `GPT2LMHeadModel`, `BertForMaskedLM`, `SpeechT5ForSpeechToText`.
  return cls.find("Model") != std::string_view::npos || cls.find("For") != std::string_view::npos;
}

}  // namespace sealint::knowledge
