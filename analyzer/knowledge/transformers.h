#pragma once
// What of Hugging Face Transformers loads a model: `AutoModel.from_pretrained(name)`,
// `BertForSequenceClassification.from_pretrained(...)`, `SpeechT5ForSpeechToText...`; not the
// tokenizers, processors, feature extractors and configurations that load the same way.
#include <string_view>

namespace sealint::knowledge {

// `qualified` is a callee's name through the file's imports
// (`transformers.AutoModelForCausalLM.from_pretrained`).
[[nodiscard]] bool is_transformers_model_loader(std::string_view qualified);

}  // namespace sealint::knowledge
