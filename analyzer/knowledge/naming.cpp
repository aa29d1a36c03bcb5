#include "analyzer/knowledge/naming.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

namespace {

constexpr auto kModelNames = sorted_names("actor", "critic", "decoder", "discriminator", "encoder",
                                          "generator", "gru", "lstm", "model", "module", "module_",
                                          "net", "netD", "netG", "network", "policy", "rnn");
constexpr std::array<std::string_view, 5> kModelSuffixes = {"_model", "_net", "_lstm", "_gru",
                                                            "_rnn"};
// `train_model`, `build_net`, `load_model`: a function that does something to a model, not one.
constexpr auto kVerbPrefixes =
    sorted_names("build", "compile", "create", "eval", "evaluate", "export", "fit", "get", "init",
                 "load", "make", "prepare", "run", "save", "setup", "test", "train", "wrap");
constexpr auto kLossFnNames =
    sorted_names("criterion", "loss_fcn", "loss_fn", "loss_func", "loss_function", "lossfn");

}  // namespace

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view last_component(std::string_view dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

bool is_model_like_name(std::string_view name) {
  if (kModelNames.contains(name)) return true;
  if (const size_t underscore = name.find('_');
      underscore != std::string_view::npos && kVerbPrefixes.contains(name.substr(0, underscore))) {
    return false;
  }
  return std::any_of(kModelSuffixes.begin(), kModelSuffixes.end(),
                     [&](std::string_view s) { return name.ends_with(s); });
}

bool is_model_noun(std::string_view name) {
  return kModelNames.contains(name);
}

bool is_submodule_name(std::string_view name) {
  static constexpr auto kPartNames = sorted_names("backbone", "classifier", "embeddings", "head",
                                                  "neck", "projector", "stem", "transformer");
  return is_model_like_name(name) || kPartNames.contains(name);
}

bool is_model_running_name(std::string_view name) {
  const size_t underscore = name.find('_');
  if (underscore == std::string_view::npos) return false;
  const std::string_view verb = name.substr(0, underscore);
  const std::string_view object = name.substr(underscore + 1);
  return (verb == "run" || verb == "train" || verb == "fit" || verb == "process") &&
         (kModelNames.contains(object) || is_model_like_name(object));
}

bool is_loss_fn_like_name(std::string_view name) {
  return kLossFnNames.contains(name) || name.starts_with("criterion_") ||
         name.ends_with("_criterion") || name.ends_with("_loss_fn");
}

bool is_training_mode_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  return lowered.find("train") != std::string::npos && lowered.find("trainer") == std::string::npos;
}

bool is_evaluation_mode_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  for (std::string_view word : {"eval", "val", "test", "infer", "predict"}) {
    if (lowered.find(word) != std::string::npos) return true;
  }
  return false;
}

bool is_collective_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  for (std::string_view word : {"reduce", "gather", "broadcast", "sync_tensor"}) {
    if (lowered.find(word) != std::string::npos) return true;
  }
  return false;
}

bool is_optimizer_like_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  return lowered == "opt" || lowered.find("optimizer") != std::string::npos ||
         lowered.starts_with("optim") || lowered.ends_with("_opt");
}

bool is_loader_like_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  // A list or generator of batches is iterated the way a loader is (`for x, y in batches:`).
  return lowered.find("loader") != std::string::npos || lowered == "dl" ||
         lowered.ends_with("_dl") || lowered.starts_with("dl_") || lowered == "batches" ||
         lowered.ends_with("_batches");
}

bool is_no_grad_like_name(std::string_view name) {
  const std::string lowered = lowercase(name);
  if (lowered.find("enable") != std::string::npos) return false;
  return lowered.find("no_grad") != std::string::npos ||
         lowered.find("inference_mode") != std::string::npos;
}

bool is_pytest_module_name(std::string_view file_name) {
  if (!file_name.ends_with(".py")) return false;
  const std::string_view stem = file_name.substr(0, file_name.size() - 3);
  return (stem.starts_with("test_") && stem.size() > 5) ||
         (stem.ends_with("_test") && stem.size() > 5);
}

bool is_fixture_decorator_name(std::string_view dotted) {
  return dotted == "fixture" || dotted == "pytest.fixture" || dotted == "pytest_asyncio.fixture";
}

bool is_loss_function_name(std::string_view name) {
  return name.ends_with("_loss");
}

bool is_loss_field_name(std::string_view name) {
  return name == "loss" || is_loss_function_name(name);
}

bool is_target_name(std::string_view name) {
  static constexpr auto kTargets = sorted_names("ground_truth", "gt", "label", "labels", "target",
                                                "targets", "y", "y_gt", "y_true");
  return kTargets.contains(lowercase(name));
}

bool is_loss_side_result_name(std::string_view name) {
  // The words of counts and logs; a name is split at '_' (`sample_size` -> sample, size).
  static constexpr auto kSideWords =
      sorted_names("count", "counts", "info", "infos", "log", "logging", "logs", "metrics", "n",
                   "nsamples", "nsentences", "ntokens", "num", "size", "sizes", "stat",
                   "statistics", "stats", "summaries", "summary");
  const std::string lowered = lowercase(name);
  if (lowered.find("loss") != std::string::npos) return false;
  std::string_view rest = lowered;
  while (!rest.empty()) {
    const size_t underscore = rest.find('_');
    if (kSideWords.contains(rest.substr(0, underscore))) return true;
    if (underscore == std::string_view::npos) break;
    rest.remove_prefix(underscore + 1);
  }
  return false;
}

namespace {

// `label2id` -> {label, id} (a mapping), `word_to_idx` -> {word, to, idx} (a mapping).
std::vector<std::string> name_tokens(std::string_view name, bool& mapping) {
  const std::string text = lowercase(name);
  std::vector<std::string> tokens;
  size_t start = 0;
  mapping = false;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool two = i < text.size() && text[i] == '2' && i > 0 && i + 1 < text.size() &&
                     std::isalpha(static_cast<unsigned char>(text[i - 1])) != 0 &&
                     std::isalpha(static_cast<unsigned char>(text[i + 1])) != 0;
    if (i == text.size() || text[i] == '_' || two) {
      if (i > start) tokens.push_back(text.substr(start, i - start));
      if (two) mapping = true;
      start = i + 1;
    }
  }
  for (const std::string& token : tokens) mapping = mapping || token == "to";
  return tokens;
}

constexpr std::array<std::string_view, 7> kSmallTableParts = {
    "class", "categor", "vocab", "config", "cfg", "alphabet", "charset"};
constexpr auto kSmallTableTokens = sorted_names(
    "args", "aug", "augmentations", "augs", "cat", "cats", "chars", "cls", "conf", "hparams", "hyp",
    "hyperparams", "langs", "languages", "mean", "opt", "options", "opts", "params", "phoneme",
    "phonemes", "settings", "stats", "std", "symbol", "symbols", "transform", "transforms");
// Mapped from or to (`label2id`, `idx_to_word`): a table of the vocabulary.
constexpr auto kMappedTokens =
    sorted_names("char", "label", "labels", "lang", "tag", "token", "word", "words");
constexpr auto kLabelTokens =
    sorted_names("label", "labels", "lbl", "lbls", "target", "targets", "y", "ys");

}  // namespace

bool is_small_table_name(std::string_view name) {
  const std::string lower = lowercase(name);
  for (std::string_view part : kSmallTableParts) {
    if (lower.find(part) != std::string::npos) return true;
  }
  bool mapping = false;
  const std::vector<std::string> tokens = name_tokens(name, mapping);
  for (const std::string& token : tokens) {
    if (kSmallTableTokens.contains(token)) return true;
  }
  const bool labels = std::any_of(tokens.begin(), tokens.end(), [](const std::string& token) {
    return token == "label" || token == "labels";
  });
  // `label_names`, `label_list`: the classes.
  if (labels && (tokens.back() == "names" || tokens.back() == "list")) return true;
  if (!mapping) return false;
  return std::any_of(tokens.begin(), tokens.end(),
                     [](const std::string& token) { return kMappedTokens.contains(token); });
}

bool is_labels_name(std::string_view name) {
  bool mapping = false;
  const std::vector<std::string> tokens = name_tokens(name, mapping);
  return !mapping && !tokens.empty() && kLabelTokens.contains(tokens.back());
}

bool has_train_word(std::string_view name) {
  const std::string n = lowercase(name);
  for (size_t i = n.find("train"); i != std::string::npos; i = n.find("train", i + 1)) {
    const bool starts = i == 0 || n[i - 1] == '_' || name[i] == 'T';
    const std::string_view rest = std::string_view(n).substr(i + 5);
    const bool ends = rest.empty() || rest.front() == '_' || rest.starts_with("ing") ||
                      std::isupper(static_cast<unsigned char>(name[i + 5])) != 0 ||
                      std::isdigit(static_cast<unsigned char>(name[i + 5])) != 0;
    if (starts && ends) return true;
  }
  return false;
}

bool is_step_like_name(std::string_view name) {
  const std::string n = lowercase(name);
  for (std::string_view prefix : {"get_", "load_", "build_", "make_", "create_", "set_", "setup_",
                                  "prepare_", "init_", "save_", "log_"}) {
    if (n.starts_with(prefix)) return false;
  }
  for (std::string_view part : {"split", "data", "loader", "sampler", "transform", "log"}) {
    if (n.find(part) != std::string::npos) return false;
  }
  if (n.find("forward") != std::string::npos || n.find("backward") != std::string::npos)
    return true;
  if (n != "step" && n.ends_with("step")) return true;  // train_step, validation_step
  if (has_train_word(name) || n == "fit" || n.starts_with("fit_")) return true;
  return (n.starts_with("run_") || n.starts_with("process_")) &&
         (n.ends_with("model") || n.ends_with("batch"));
}

namespace {

// The words of a snake_case or camelCase name, lower-cased: `runValidation_epoch` -> run,
// validation, epoch. A run of capitals is one word (`RNNEvaluator` -> rnn, evaluator).
std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(lowercase(word));
    word.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c == '_' || std::isdigit(c) != 0) {
      flush();
      continue;
    }
    const bool upper = std::isupper(c) != 0;
    const bool after_lower = i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) != 0;
    const bool before_lower =
        i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1])) != 0;
    const bool after_upper = i > 0 && std::isupper(static_cast<unsigned char>(name[i - 1])) != 0;
    if (upper && (after_lower || (after_upper && before_lower))) flush();
    word.push_back(name[i]);
  }
  flush();
  return words;
}

constexpr auto kEvaluationWords = sorted_names(
    "eval", "evaluate", "evaluating", "evaluation", "infer", "inference", "predict", "prediction",
    "predictions", "test", "testing", "val", "validate", "validating", "validation");
// Generation runs a trained model over its own outputs (`generate(decoder, prime_str)`,
// `generate_waveform.py`): inference, though the name says neither evaluate nor predict.
constexpr auto kGenerationWords = sorted_names("generate", "generating", "generation");
constexpr auto kEvaluationClassWords =
    sorted_names("eval", "evaluation", "evaluator", "inference", "predictor", "test", "tester",
                 "val", "validation", "validator");
// What a callback named `on_<unit>_end` runs once per.
constexpr auto kRepeatedUnits = sorted_names("batch", "epoch", "iter", "iteration", "step");
// Words that, beside "epoch", say a function runs one: `run_epoch`, `train_one_epoch`.
constexpr auto kEpochRunWords =
    sorted_names("do", "eval", "evaluate", "fit", "one", "process", "run", "step", "test", "train",
                 "training", "valid", "validate", "validation");

}  // namespace

bool is_evaluation_name(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  if (words.empty()) return false;
  if (words.front() == "valid") return true;  // `valid`, `valid_epoch`, not `is_valid_move`
  return std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return kEvaluationWords.contains(word) || kGenerationWords.contains(word);
  });
}

bool is_generation_name(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return kGenerationWords.contains(word); });
}

bool is_generation_only_name(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  return is_generation_name(name) && (words.empty() || words.front() != "valid") &&
         std::none_of(words.begin(), words.end(),
                      [](const std::string& word) { return kEvaluationWords.contains(word); });
}

bool is_one_epoch_name(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return word == "epoch"; }) &&
         std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return kEpochRunWords.contains(word); });
}

bool is_repeated_callback_keyword(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  if (std::any_of(words.begin(), words.end(),
                  [](const std::string& word) { return word == "callback"; }))
    return true;
  // `LambdaCallback(on_epoch_end=...)`, `on_step_end=`; not `on_train_begin` (once) or
  // `on_error` (rare).
  return words.size() >= 3 && words.front() == "on" &&
         kRepeatedUnits.contains(words[words.size() - 2]) &&
         (words.back() == "begin" || words.back() == "end" || words.back() == "start");
}

bool is_evaluation_class_name(std::string_view name) {
  const std::vector<std::string> words = words_of(name);
  // unittest's and pytest's classes (`JitTestCase`, `ModelTests`) hold tests, not a driver.
  if (std::any_of(words.begin(), words.end(),
                  [](const std::string& word) { return word == "case" || word == "tests"; }))
    return false;
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return kEvaluationClassWords.contains(word); });
}

bool is_batch_size_name(std::string_view name) {
  const std::string n = lowercase(last_component(name));
  return n.find("batch_size") != std::string::npos || n.find("batchsize") != std::string::npos ||
         n == "bs" || n.ends_with("_bs");
}

bool is_bookkeeping_name(std::string_view name) {
  const std::string n = lowercase(name);
  for (std::string_view part :
       {"log", "print", "warn", "record", "save", "report", "notify", "write", "emit"}) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace sealint::knowledge
