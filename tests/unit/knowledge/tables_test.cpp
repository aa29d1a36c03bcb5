// The knowledge tables: lookups answer as documented, and every PyTorch or Python name they hold
// exists in the real API (Debian's python3-torch, which `make deps` installs).
#include <array>
#include <cstdio>
#include <ranges>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/knowledge/exceptions.h"
#include "analyzer/knowledge/frameworks.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/knowledge/torch_layers.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/knowledge/torchvision.h"
#include "analyzer/knowledge/transformers.h"

namespace sealint::knowledge {
namespace {

TEST(ContainerStores, OneTableAnswersForPythonAndCpp) {
  for (std::string_view method : {"append", "appendleft", "extend", "push_back", "emplace_back"}) {
    const ContainerStore* store = container_store(method);
    ASSERT_NE(store, nullptr) << method;
    EXPECT_EQ(store->value_arg, 0) << method;
    EXPECT_FALSE(store->ambiguous) << method;
  }
  EXPECT_EQ(container_store("insert")->value_arg, 1);
  EXPECT_EQ(container_store("setdefault")->value_arg, 1);
  EXPECT_TRUE(container_store("extend")->spreads);
  EXPECT_TRUE(container_store("add")->ambiguous);     // Tensor.add
  EXPECT_TRUE(container_store("update")->ambiguous);  // AverageMeter.update
  EXPECT_EQ(container_store("pop"), nullptr);
  EXPECT_EQ(container_store("appendx"), nullptr);
  EXPECT_EQ(container_store(""), nullptr);
}

TEST(ContainerStores, AreSortedAndUnique) {
  const auto stores = all_container_stores();
  for (size_t i = 1; i < stores.size(); ++i) EXPECT_LT(stores[i - 1].method, stores[i].method);
}

TEST(NameSets, LookUpByBinarySearch) {
  EXPECT_TRUE(kTensorMethodsWithoutGraph.contains("item"));
  EXPECT_TRUE(kTensorMethodsWithoutGraph.contains("__float__"));
  EXPECT_FALSE(kTensorMethodsWithoutGraph.contains("sum"));
  EXPECT_TRUE(kTensorReductions.contains("sum"));
  EXPECT_TRUE(kLossFunctions.contains("cross_entropy"));
  EXPECT_FALSE(kLossFunctions.contains("cross"));
  EXPECT_TRUE(kBuiltinsWithPlainResult.contains("len"));
}

TEST(Naming, HeuristicsSayWhatANameSuggests) {
  EXPECT_TRUE(is_model_like_name("model"));
  EXPECT_TRUE(is_model_like_name("policy_net"));
  EXPECT_FALSE(is_model_like_name("models_dir"));
  EXPECT_FALSE(is_model_like_name("train_model"));
  EXPECT_FALSE(is_model_like_name("build_net"));
  EXPECT_TRUE(is_model_like_name("target_net"));
  EXPECT_TRUE(is_model_running_name("run_model"));
  EXPECT_TRUE(is_model_running_name("train_target_net"));
  EXPECT_FALSE(is_model_running_name("load_model"));
  EXPECT_TRUE(is_loss_fn_like_name("criterion"));
  EXPECT_TRUE(is_loss_fn_like_name("ce_criterion"));
  EXPECT_TRUE(is_optimizer_like_name("optimizerG"));
  EXPECT_TRUE(is_optimizer_like_name("d_opt"));
  EXPECT_FALSE(is_optimizer_like_name("option"));
  EXPECT_TRUE(is_loader_like_name("train_loader"));
  EXPECT_TRUE(is_loader_like_name("val_dl"));
  EXPECT_TRUE(is_loss_function_name("focal_loss"));
  for (const char* side : {"sample_size", "logging_output", "log_vars", "ntokens", "stats", "n"})
    EXPECT_TRUE(is_loss_side_result_name(side)) << side;
  for (const char* term : {"loss_items", "kl_loss", "mse", "cross_entropy", "outputs", "logits"})
    EXPECT_FALSE(is_loss_side_result_name(term)) << term;
  EXPECT_TRUE(is_no_grad_like_name("smart_inference_mode"));
  EXPECT_TRUE(is_no_grad_like_name("maybe_no_grad"));
  EXPECT_FALSE(is_no_grad_like_name("enable_no_grad_checks"));
  EXPECT_FALSE(is_no_grad_like_name("grad_mode"));
}

TEST(DataLoading, CallsAndMethodsSayWhatTheyMakeOfTheData) {
  EXPECT_EQ(data_call("sorted"), DataCall::ToList);
  EXPECT_EQ(data_call("collections.OrderedDict"), DataCall::ToDict);
  EXPECT_EQ(data_call("os.listdir"), DataCall::Lists);
  EXPECT_EQ(data_call("json.load"), DataCall::LoadsObjects);
  EXPECT_EQ(data_call("pandas.read_parquet"), DataCall::LoadsArray);  // any pandas reader
  EXPECT_EQ(data_call("tqdm.auto.tqdm"), DataCall::Passes);
  EXPECT_EQ(data_call("pandas.DataFrame"), DataCall::None);
  EXPECT_EQ(data_call("os.path.join"), DataCall::None);
  EXPECT_EQ(data_method("readlines"), DataMethod::ReadsLines);
  EXPECT_EQ(data_method("splitlines"), DataMethod::SplitsText);
  EXPECT_EQ(data_method("sort_values"), DataMethod::Views);
  EXPECT_EQ(data_method("append"), DataMethod::None);
  EXPECT_TRUE(returns_small_value("len"));
  EXPECT_FALSE(returns_small_value("str"));
  EXPECT_TRUE(method_returns_small_value("index"));
  EXPECT_TRUE(is_map_dataset_base("torch.utils.data.Dataset"));
  EXPECT_FALSE(is_map_dataset_base("torch.utils.data.IterableDataset"));
  EXPECT_TRUE(is_dataset_wrapper("random_split"));
  // A loop over these runs once per item of their first argument; zip and filter may not.
  EXPECT_TRUE(iterates_as_many_as_its_argument("enumerate"));
  EXPECT_TRUE(iterates_as_many_as_its_argument("tqdm.tqdm"));
  EXPECT_FALSE(iterates_as_many_as_its_argument("zip"));
  EXPECT_FALSE(iterates_as_many_as_its_argument("filter"));
  EXPECT_FALSE(iterates_as_many_as_its_argument("itertools.islice"));
  for (size_t i = 1; i < data_calls().size(); ++i)
    EXPECT_LT(data_calls()[i - 1].name, data_calls()[i].name);
  for (size_t i = 1; i < data_methods().size(); ++i)
    EXPECT_LT(data_methods()[i - 1].name, data_methods()[i].name);
}

TEST(Naming, SmallTablesAndLabelsAreToldApartFromData) {
  for (const char* table : {"classes", "label2id", "word_to_idx", "cfg", "transforms", "idx2char",
                            "label_names", "num_categories"})
    EXPECT_TRUE(is_small_table_name(table)) << table;
  for (const char* data : {"samples", "image_paths", "records", "labels", "lines"})
    EXPECT_FALSE(is_small_table_name(data)) << data;
  for (const char* labels : {"labels", "_targets", "img_labels", "y"})
    EXPECT_TRUE(is_labels_name(labels)) << labels;
  for (const char* other : {"label2id", "samples", "target_paths"})
    EXPECT_FALSE(is_labels_name(other)) << other;
}

TEST(Exceptions, OutOfMemoryErrorsAndTheirWords) {
  EXPECT_EQ(memory_catch("OutOfMemoryError"), MemoryCatch::OutOfMemory);
  EXPECT_EQ(memory_catch("RuntimeError"), MemoryCatch::Runtime);
  EXPECT_EQ(memory_catch("Exception"), MemoryCatch::Broad);
  EXPECT_EQ(memory_catch("ValueError"), MemoryCatch::Other);
  EXPECT_LT(MemoryCatch::Broad, MemoryCatch::Runtime);  // a clause catches its most specific
  for (const char* text : {"'CUDA out of memory'", "\"OOM, skipping batch\"", "'OutOfMemoryError'"})
    EXPECT_TRUE(mentions_out_of_memory(text)) << text;
  for (const char* text : {"'no room left'", "'zoom in'", "'memory usage'"})
    EXPECT_FALSE(mentions_out_of_memory(text)) << text;
}

TEST(Naming, StepsBatchSizesAndBookkeeping) {
  for (const char* step : {"train_step", "train_one_epoch", "fit", "forward", "run_model",
                           "trainEpoch", "run_training", "validation_step"})
    EXPECT_TRUE(is_step_like_name(step)) << step;
  for (const char* other :
       {"step", "get_train_dataset", "train_test_split", "trainer", "pretrained", "log_step"})
    EXPECT_FALSE(is_step_like_name(other)) << other;
  EXPECT_TRUE(has_train_word("trainEpoch"));
  EXPECT_FALSE(has_train_word("constrain"));
  for (const char* size : {"batch_size", "self.batchSize", "bs", "eval_bs"})
    EXPECT_TRUE(is_batch_size_name(size)) << size;
  EXPECT_FALSE(is_batch_size_name("abs"));
  EXPECT_TRUE(is_bookkeeping_name("log_metrics"));
  EXPECT_TRUE(is_bookkeeping_name("save_state"));
  EXPECT_FALSE(is_bookkeeping_name("attempt"));
  EXPECT_TRUE(kBuiltinsRunningNoStep.contains("super"));
  EXPECT_FALSE(kBuiltinsRunningNoStep.contains("exec"));
}

TEST(Naming, GenerationIsInferenceByItsWords) {
  for (const char* name : {"generate", "generate_one", "generateSamples", "generate_waveform",
                           "run_generation", "generating"}) {
    EXPECT_TRUE(is_generation_name(name)) << name;
    EXPECT_TRUE(is_evaluation_name(name)) << name;
  }
  for (const char* name : {"generator", "train_generator", "regenerate", "generated", "gen", ""})
    EXPECT_FALSE(is_generation_name(name)) << name;
}

TEST(Naming, EvaluationFunctionsAndClassesByTheirWords) {
  for (const char* name :
       {"evaluate", "eval", "val", "valid", "valid_epoch", "test", "test_epoch", "run_test",
        "predict", "run_validation", "_calculate_validation_performance", "_eval_step",
        "predictBatch", "evalModel", "inference", "infer_images", "compute_val_loss"})
    EXPECT_TRUE(is_evaluation_name(name)) << name;
  for (const char* name : {"train", "forward", "is_valid_move", "retest_hook", "latest",
                           "build_evaluator", "contest", "interval", ""})
    EXPECT_FALSE(is_evaluation_name(name)) << name;
  for (const char* name :
       {"Evaluator", "ValLoop", "TestLoop", "InferenceEngine", "Predictor", "RNNEvaluator"})
    EXPECT_TRUE(is_evaluation_class_name(name)) << name;
  for (const char* name : {"Trainer", "JitTestCase", "ModelTests", "Latest", "Interval"})
    EXPECT_FALSE(is_evaluation_class_name(name)) << name;
  for (const char* name : {"model", "net", "policy", "encoder", "module_"})
    EXPECT_TRUE(is_model_noun(name)) << name;
  for (const char* name : {"retrieve_model", "sync_model", "model_name", "Model"})
    EXPECT_FALSE(is_model_noun(name)) << name;
}

TEST(Naming, FunctionsThatRunOneEpoch) {
  for (const char* name : {"run_epoch", "train_one_epoch", "validEpoch", "valid_epoch",
                           "epoch_step", "_run_train_epoch"})
    EXPECT_TRUE(is_one_epoch_name(name)) << name;
  for (const char* name : {"train_epochs", "on_epoch_end", "get_epoch", "epoch", "set_epoch",
                           "run_batch", "num_epoch"})
    EXPECT_FALSE(is_one_epoch_name(name)) << name;
}

TEST(Transformers, FromPretrainedLoadsAModelUnlessItIsATokenizerOrAProcessor) {
  for (const char* q : {"transformers.AutoModel.from_pretrained",
                        "transformers.AutoModelForCausalLM.from_pretrained",
                        "transformers.BertForSequenceClassification.from_pretrained",
                        "transformers.SpeechT5ForSpeechToText.from_pretrained",
                        "transformers.models.gpt2.GPT2LMHeadModel.from_pretrained"})
    EXPECT_TRUE(is_transformers_model_loader(q)) << q;
  for (const char* q :
       {"transformers.AutoTokenizer.from_pretrained",
        "transformers.SpeechT5Processor.from_pretrained", "transformers.AutoConfig.from_pretrained",
        "transformers.AutoFeatureExtractor.from_pretrained", "transformers.AutoModel",
        "mylib.AutoModel.from_pretrained"})
    EXPECT_FALSE(is_transformers_model_loader(q)) << q;
}

TEST(Naming, KeywordsThatHandOverARepeatedCallback) {
  for (const char* name : {"callback", "step_callback", "iter_callback_fn", "on_epoch_end",
                           "on_batch_begin", "on_step_start", "stepCallback"})
    EXPECT_TRUE(is_repeated_callback_keyword(name)) << name;
  for (const char* name :
       {"callbacks", "on_train_begin", "on_error", "on_epoch", "target", "hook", "on_exit"})
    EXPECT_FALSE(is_repeated_callback_keyword(name)) << name;
}

TEST(Frameworks, StepTakersAndEvaluationHooks) {
  ASSERT_NE(step_taker("ignite.engine.Engine"), nullptr);
  EXPECT_EQ(step_taker("ignite.engine.Engine")->framework, "ignite");
  EXPECT_EQ(step_taker("ignite.engine.Engine")->argument, 0U);
  EXPECT_EQ(step_taker("my.engine.Engine"), nullptr);
  const FrameworkHook* prediction = framework_hook("transformers.Trainer", "prediction_step");
  ASSERT_NE(prediction, nullptr);
  EXPECT_TRUE(prediction->autograd_on);
  const FrameworkHook* lightning =
      framework_hook("pytorch_lightning.LightningModule", "validation_step");
  ASSERT_NE(lightning, nullptr);
  EXPECT_FALSE(lightning->autograd_on);
  // skorch's classifier and regressor nets run NeuralNet's steps; another library's do not.
  for (const char* base : {"skorch.NeuralNet", "skorch.NeuralNetClassifier",
                           "skorch.net.NeuralNetRegressor", "skorch.NeuralNetBinaryClassifier"}) {
    const FrameworkHook* step = framework_hook(base, "train_step");
    ASSERT_NE(step, nullptr) << base;
    EXPECT_EQ(step->framework, "skorch");
  }
  EXPECT_EQ(framework_hook("mylib.NeuralNetClassifier", "train_step"), nullptr);
}

TEST(Frameworks, KerasCallbackHooksRunPerBatchOrEpochWithoutAutograd) {
  for (const char* base : {"tensorflow.keras.callbacks.Callback", "keras.callbacks.Callback",
                           "tf_keras.callbacks.Callback", "keras.callbacks.TensorBoard",
                           "tensorflow.keras.callbacks.ModelCheckpoint"}) {
    const FrameworkHook* batch = framework_hook(base, "on_train_batch_end");
    ASSERT_NE(batch, nullptr) << base;
    EXPECT_EQ(batch->framework, "Keras");
    EXPECT_EQ(batch->unit, "batch");
    EXPECT_FALSE(batch->autograd_on);
    const FrameworkHook* epoch = framework_hook(base, "on_epoch_end");
    ASSERT_NE(epoch, nullptr) << base;
    EXPECT_EQ(epoch->unit, "epoch");
    // Once per `fit`: where a callback builds what it reuses.
    EXPECT_EQ(framework_hook(base, "on_train_begin"), nullptr) << base;
    EXPECT_EQ(framework_hook(base, "set_model"), nullptr) << base;
  }
  // Lightning's callbacks and a project's own `Callback` are not Keras's.
  EXPECT_EQ(framework_hook("pytorch_lightning.callbacks.Callback", "on_epoch_end"), nullptr);
  EXPECT_EQ(framework_hook("pytorch_lightning.callbacks.ModelCheckpoint", "on_epoch_end"), nullptr);
  EXPECT_EQ(framework_hook("myproject.hooks.Callback", "on_batch_end"), nullptr);
}

TEST(TorchNn, ClassesSayWhatConstructingThemAllocates) {
  EXPECT_EQ(torch_nn_class("torch.nn.Linear"), "Linear");
  EXPECT_EQ(torch_nn_class("torch.nn.modules.linear.Linear"), "Linear");
  EXPECT_EQ(torch_nn_class("torch.nn.functional.relu"), "");
  EXPECT_EQ(torch_nn_class("torch.nn.utils.rnn.PackedSequence"), "");
  EXPECT_EQ(torch_nn_class("torch.nn.LinearOptions"), "");  // LibTorch's options object
  EXPECT_EQ(torch_nn_class("torch.nn.init"), "");
  EXPECT_TRUE(is_parameter_free_nn_class("ReLU"));
  EXPECT_TRUE(is_parameter_free_nn_class("CrossEntropyLoss"));
  EXPECT_FALSE(is_parameter_free_nn_class("AdaptiveLogSoftmaxWithLoss"));
  EXPECT_FALSE(is_parameter_free_nn_class("Linear"));
  EXPECT_TRUE(is_nn_container_class("Sequential"));
  EXPECT_TRUE(is_nn_container_class("AnyModule"));
  EXPECT_FALSE(is_nn_container_class("Conv2d"));
  EXPECT_EQ(torch_optimizer_class("torch.optim.Adam"), "Adam");
  EXPECT_EQ(torch_optimizer_class("torch.optim.lr_scheduler.StepLR"), "");
  EXPECT_EQ(torch_optimizer_class("torch.optim.StepLR"), "");  // LibTorch's scheduler
  EXPECT_EQ(torch_optimizer_class("torch.optim.AdamOptions"), "");
  EXPECT_EQ(torch_optimizer_class("torch.optim.Optimizer"), "");
  EXPECT_TRUE(kPerStepModuleMethods.contains("forward"));
  EXPECT_FALSE(kPerStepModuleMethods.contains("__init__"));
}

TEST(TorchLayers, SignaturesDtypesAndChainedMethods) {
  const LayerSpec* linear = find_layer("torch.nn.Linear");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->kind, LayerKind::Linear);
  EXPECT_EQ(linear->params[0], "in_features");
  EXPECT_EQ(find_layer("torch.nn.LSTM")->gates, 4);
  EXPECT_EQ(find_layer("torch.nn.Conv3d")->dims, 3);
  EXPECT_EQ(find_layer("torch.nn.ReLU"), nullptr);
  EXPECT_EQ(find_layer("Linear"), nullptr);  // qualified names only
  EXPECT_EQ(dtype_bytes("torch.bfloat16"), 2);
  EXPECT_EQ(dtype_bytes("torch.kDouble"), 8);  // LibTorch
  EXPECT_EQ(dtype_bytes("torch.int8"), std::nullopt);
  EXPECT_TRUE(is_chained_module_method("requires_grad_"));
  EXPECT_FALSE(is_chained_module_method("forward"));
}

TEST(Torchvision, ModelBuildersAreModelsAndTheirHelpersAreNot) {
  EXPECT_TRUE(is_torchvision_model("torchvision.models.resnet18"));
  EXPECT_TRUE(is_torchvision_model("torchvision.models.detection.fasterrcnn_resnet50_fpn"));
  EXPECT_FALSE(is_torchvision_model("torchvision.models.get_weight"));
  EXPECT_FALSE(is_torchvision_model("torchvision.models.ResNet18_Weights"));
  EXPECT_FALSE(is_torchvision_model("torchvision.models.detection.image_list.ImageList"));
  EXPECT_FALSE(is_torchvision_model("torchvision.ops.nms"));
}

// Runs Debian's python3 (the one with torch) on a script and returns what it printed.
std::string run_python(const std::string& script) {
  const std::string command = fmt::format("/usr/bin/python3 -c '{}' 2>&1", script);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::string out;
  std::array<char, 4096> buffer{};
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  if (status != 0) out += "\n(exit status " + std::to_string(status) + ")";
  return out;
}

// `owner` is a Python expression; prints each name that it lacks.
std::string missing_from(std::string_view owner, std::span<const std::string_view> names) {
  std::string list;
  for (std::string_view name : names) list += fmt::format("\"{}\",", name);
  return fmt::format("for n in [{}]:\n    if not hasattr({}, n): print(\"{} has no\", n)\n", list,
                     owner, owner);
}

// `owner` is a Python expression; prints each name that it has.
std::string present_in(std::string_view owner, std::span<const std::string_view> names) {
  std::string list;
  for (std::string_view name : names) list += fmt::format("\"{}\",", name);
  return fmt::format("for n in [{}]:\n    if hasattr({}, n): print(\"{} has\", n)\n", list, owner,
                     owner);
}

TEST(KnowledgeTables, EveryNameExistsInTheRealApi) {
  std::string script = "import builtins, torch, torch.nn.functional as F\nt = torch.ones(1)\n";
  script += missing_from("torch.Tensor", kTensorMethodsWithoutGraph.all());
  script += missing_from("t", kTensorAttributesWithoutGraph.all());
  script += missing_from("torch.Tensor", kTensorReductions.all());
  script += missing_from("torch.Tensor", kInPlaceUpdates.all());
  script += missing_from("torch.Tensor", kPredictionReads.all());
  script += missing_from("torch", kTorchFunctionsWithoutGraph.all());
  script += missing_from("torch", kTorchFactories.all());
  script += missing_from("torch.autograd", kAutogradBackwards.all());
  script += missing_from("F", kLossFunctions.all());
  script += missing_from("builtins", kBuiltinsWithPlainResult.all());
  script += missing_from("builtins", kBuiltinsRunningNoStep.all());
  std::vector<std::string_view> layers;
  for (const LayerSpec& layer : all_layers()) layers.push_back(layer.name);
  script += missing_from("torch.nn", layers);
  script += missing_from("torch.nn.Module", kModuleOnlyMethods.all());
  // Module-only: neither a tensor nor an optimizer answers them.
  script += present_in("torch.Tensor", kModuleOnlyMethods.all());
  script += present_in("torch.optim.Optimizer", kModuleOnlyMethods.all());
  // Each function of the data table exists where its qualified name says (outside packages that
  // Debian's python3 lacks: h5py, pandas, pycocotools, tqdm, ujson and the like).
  std::vector<std::string_view> data_functions;
  for (const DataCallEntry& entry : data_calls()) data_functions.push_back(entry.name);
  script += fmt::format(
      "import importlib\n"
      "for q in [{}]:\n"
      "    mod, _, name = q.rpartition(\".\")\n"
      "    try:\n"
      "        owner = importlib.import_module(mod or \"builtins\")\n"
      "    except ImportError:\n"
      "        continue\n"
      "    if not hasattr(owner, name): print(\"no\", q)\n",
      fmt::join(data_functions | std::views::transform(
                                     [](std::string_view n) { return fmt::format("\"{}\"", n); }),
                ","));
  script += "print(\"checked\")\n";
  // Nothing but the last line: a missing name, or torch missing (make deps installs it), fails.
  EXPECT_EQ(run_python(script), "checked\n");
}

}  // namespace
}  // namespace sealint::knowledge
