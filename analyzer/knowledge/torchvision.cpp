#include "analyzer/knowledge/torchvision.h"

#include "analyzer/knowledge/name_set.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

// `torchvision.models` functions that return weights or metadata, not a model.
constexpr auto kTorchvisionNonModels =
    sorted_names("get_model_builder", "get_model_weights", "get_weight", "list_models");

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

bool is_torchvision_model(std::string_view qualified) {
  if (!qualified.starts_with("torchvision.models.")) return false;
  if (contains(qualified, ".feature_extraction.") || contains(qualified, ".image_list.") ||
      contains(qualified, "._") || contains(qualified, "Weights")) {
    return false;
  }
  return !kTorchvisionNonModels.contains(last_component(qualified));
}

}  // namespace sealint::knowledge
