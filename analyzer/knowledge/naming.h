#pragma once
// The naming heuristics of training code, in one place: a value called `model`, `criterion`,
// `optimizer` or `train_loader` is taken for what its name says when nothing better is known
// (a parameter with no type, a callee sealint cannot resolve).
#include <string>
#include <string_view>

namespace sealint::knowledge {

// `torch.nn.Linear` -> "Linear": the last component of a dotted name, an API path or a place key
// (`self.sess` -> "sess"); the whole name when it has no dot.
[[nodiscard]] std::string_view last_component(std::string_view dotted);

// ASCII lower case, for names compared whatever their case (`optimizerG`, `LightningModule`).
[[nodiscard]] std::string lowercase(std::string_view text);

// Called, a model: `model(x)`, `netG(z)`, `self.encoder(x)`, `policy_net(s)`.
[[nodiscard]] bool is_model_like_name(std::string_view name);
// A model by a one-word name (`model`, `net`, `policy`, `encoder`), with no verb or qualifier
// that could make it a method (`sync_model`, `retrieve_model`): what an attribute of an object
// sealint cannot see must be called for its call to be taken for a model's.
[[nodiscard]] bool is_model_noun(std::string_view name);
// The name of a part of a model that a model holds and calls (`model.encoder(x)`,
// `self.net.backbone(images)`, `asr.speecht5.encoder(...)`): a model-like name or a part's noun
// (backbone, head, classifier, ...).
[[nodiscard]] bool is_submodule_name(std::string_view name);
// Called, runs a model (a step): `run_model(batch)`, `train_model(net)`, `fit_net(x)`. Such a
// name is a function, not a model (`is_model_like_name` is false for it).
[[nodiscard]] bool is_model_running_name(std::string_view name);
// Called, a loss: `criterion(out, y)`, `loss_fn(out, y)`.
[[nodiscard]] bool is_loss_fn_like_name(std::string_view name);
[[nodiscard]] bool is_optimizer_like_name(std::string_view name);
// Iterated, a data loader: its batches carry no graph.
[[nodiscard]] bool is_loader_like_name(std::string_view name);
// A project's own guard or decorator named for what it does (`smart_inference_mode`,
// `maybe_no_grad`): it turns autograd off, as torch's guard of that name does. Projects wrap
// torch's guards to pick one by version or device, and define the wrapper in another file.
[[nodiscard]] bool is_no_grad_like_name(std::string_view name);
// A file pytest collects tests from (its default `python_files`): `test_*.py`, `*_test.py`.
// Not `conftest.py` (fixtures only), not `train_test` with another extension.
[[nodiscard]] bool is_pytest_module_name(std::string_view file_name);
// A decorator that makes a pytest fixture: `pytest.fixture`, `fixture` (imported from pytest),
// `pytest_asyncio.fixture`; the dotted name as written, without the call's arguments.
[[nodiscard]] bool is_fixture_decorator_name(std::string_view dotted);
// A flag or mode that says a pass trains (`is_train`, `training`, `do_train`, `"train"`), not a
// trainer object (`trainer`), as a loop that serves train and evaluation passes tests it.
[[nodiscard]] bool is_training_mode_name(std::string_view name);
// A flag or mode that says a pass evaluates (`is_eval`, `"val"`, `"valid"`, `"test"`).
[[nodiscard]] bool is_evaluation_mode_name(std::string_view name);
// A collective or reduction helper of distributed training, outside torch (`hvd.allreduce`,
// `reduce_tensor`, `all_gather`, `sync_tensor`): it returns its argument's value, and with it
// the graph (horovod's collectives are autograd functions; a helper that clones and all-reduces
// keeps the clone's history).
[[nodiscard]] bool is_collective_name(std::string_view name);
// What a loss function returns beside the loss, named as a count or a log (`loss, sample_size,
// logging_output = criterion(model, sample)`, `loss, log_vars = parse_losses(out)`): numbers and
// logged values, not loss terms. A name that says loss (`loss_items`, `kl_loss`) is not one.
[[nodiscard]] bool is_loss_side_result_name(std::string_view name);

// A name for the labels of a batch (`y`, `target`, `labels`, `y_true`, `gt`): the second of
// `y_pred, y = output` holds no graph though the pair's first does.
[[nodiscard]] bool is_target_name(std::string_view name);
// A function named as a loss (`focal_loss`, `my_loss`): its result is taken for a 0-d loss.
[[nodiscard]] bool is_loss_function_name(std::string_view name);
// A field of a model's or a step's output named as the loss (`outputs.loss`, Hugging Face's
// `ModelOutput.loss`; `out.aux_loss`): the reduced, 0-d loss, not a batch of values.
[[nodiscard]] bool is_loss_field_name(std::string_view name);

// A name for what holds one entry per class, a vocabulary or a configuration (`classes`,
// `label2id`, `word_to_idx`, `cfg`, `transforms`): small next to a dataset's data, even when it
// is read from a file (`self.classes = sorted(os.listdir(root))`).
[[nodiscard]] bool is_small_table_name(std::string_view name);
// A name for labels (`labels`, `self._targets`, `img_labels`, not `label2id`): most often class
// indices, small ints the interpreter shares.
[[nodiscard]] bool is_labels_name(std::string_view name);

// Called, a whole training step: `train_step`, `train_one_epoch`, `trainer.fit`, `forward`,
// `run_model`; not a getter or a loader (`get_train_dataset`, `train_test_split`) and not a bare
// `step` (`scheduler.step`, `env.step`).
[[nodiscard]] bool is_step_like_name(std::string_view name);
// "train" as a word of a snake_case or camelCase name: `train`, `train_epoch`, `run_training`,
// `trainEpoch`; not `trainer`, `trainable`, `pretrained`, `constrain`.
[[nodiscard]] bool has_train_word(std::string_view name);
// A function named for evaluation: `evaluate`, `validate`, `test_epoch`, `run_validation`,
// `_calculate_validation_performance`, `eval_step`, `valid_epoch`, `predictBatch`: a word of
// its snake_case or camelCase name says evaluate, validate, test, predict, infer or generate
// (is_generation_name). pytest's
// `test_*` functions are the caller's to exclude; a `valid` not leading the name
// (`is_valid_move`) does not count.
[[nodiscard]] bool is_evaluation_name(std::string_view name);
// `generate`, `generate_one`, `generate_waveform`: a word of the name says generate.
[[nodiscard]] bool is_generation_name(std::string_view name);
// Named for generation and for nothing else that says evaluation: `generate_episode`, not
// `generate_and_evaluate`.
[[nodiscard]] bool is_generation_only_name(std::string_view name);
// A function that runs one epoch, so that its caller calls it once per epoch: `run_epoch`,
// `train_one_epoch`, `validEpoch`, `epoch_step`; not `train_epochs` (every epoch, once), a hook
// (`on_epoch_end`) or an accessor (`get_epoch`).
[[nodiscard]] bool is_one_epoch_name(std::string_view name);
// A keyword argument that hands over a function to be called back again and again:
// `callback=`, `step_callback=`, `iter_callback_fn=`, `on_epoch_end=`, `on_batch_begin=`; not
// `on_train_begin=` (once) or `on_error=`.
[[nodiscard]] bool is_repeated_callback_keyword(std::string_view name);
// A class named for evaluation: `Evaluator`, `ValLoop`, `TestRunner`, `InferenceEngine`,
// `Predictor`: its methods drive evaluation passes.
[[nodiscard]] bool is_evaluation_class_name(std::string_view name);
// A batch size (`batch_size`, `self.batchSize`, `bs`, `eval_bs`); the last component of a place.
[[nodiscard]] bool is_batch_size_name(std::string_view name);
// Bookkeeping a handler repeats on purpose, not a step: `log_metrics`, `self.save_state`,
// `print_stats`, `warn_user`.
[[nodiscard]] bool is_bookkeeping_name(std::string_view name);

}  // namespace sealint::knowledge
