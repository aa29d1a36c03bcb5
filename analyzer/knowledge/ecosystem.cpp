#include "analyzer/knowledge/ecosystem.h"

#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

namespace {

// Libraries whose models, steps and losses are torch modules and tensors. `transformers` also
// ships TensorFlow classes; those files import tensorflow too, and per-function framework
// checks (semantic/framework_of) keep torch rules off Keras code.
constexpr auto kTorchPackages = sorted_names(
    "accelerate", "allennlp", "apex", "deepspeed", "detectron2", "fairseq", "ignite", "kornia",
    "lightning", "mmcv", "mmdet", "mmengine", "mmseg", "monai", "pytorch_lightning",
    "pytorch_metric_learning", "segmentation_models_pytorch", "skorch", "timm", "torch",
    "torch_geometric", "torchaudio", "torchmetrics", "torchtext", "torchvision", "transformers");

// Frameworks with their own autograd or graph: `loss.backward()` and `trainer.step()` there are
// not torch's.
constexpr auto kOtherFrameworks =
    sorted_names("chainer", "cntk", "dynet", "flax", "jax", "keras", "mindspore", "mxnet",
                 "oneflow", "paddle", "tensorflow", "theano", "tinygrad");

}  // namespace

ImportFramework import_framework(std::string_view dotted) {
  const std::string_view package = dotted.substr(0, dotted.find('.'));
  if (kTorchPackages.contains(package)) return ImportFramework::Torch;
  if (kOtherFrameworks.contains(package)) return ImportFramework::Other;
  return ImportFramework::None;
}

}  // namespace sealint::knowledge
