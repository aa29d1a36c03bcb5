#pragma once
// What TensorFlow's and Keras's APIs do to the graph and to Keras's global state, by API path:
// the name after `tensorflow.` (`nn.relu`, `train.AdamOptimizer`, with `compat.v1.` dropped) or
// the Keras path (`keras.models.Sequential`). Resolving a call to its path through the file's
// imports is semantic/tensorflow_api.h's job.
#include <cstddef>
#include <string_view>

namespace sealint::knowledge {

// A `tf.` call that adds nodes to the default graph. Sessions, graphs, config and protocol
// buffers, files and logging, queries of the graph's collections, optimizer and estimator
// objects (they add ops only when asked to: `.minimize()`) and scoping context managers add none.
[[nodiscard]] bool tf_adds_graph_nodes(std::string_view path);

// A `tf.` builder whose result is one graph tensor, so arithmetic on it adds ops (not a list or
// tuple of tensors like `split` or `gradients`, not an object like `Variable`'s class).
[[nodiscard]] bool tf_returns_graph_tensor(std::string_view path);

// `tf.Session()`, `tf.InteractiveSession()`, `tf.train.MonitoredTrainingSession()`.
[[nodiscard]] bool is_tf_session_api(std::string_view path);
// `tf.reset_default_graph()` and `tf.Graph()`: ops built after them go to a new graph.
[[nodiscard]] bool is_tf_graph_reset_api(std::string_view path);

// The Keras path's function: `keras.backend.get_session` and `keras.backend.clear_session`.
[[nodiscard]] bool is_keras_session_getter(std::string_view keras_path);
[[nodiscard]] bool is_keras_clear_session(std::string_view keras_path);

// A Keras path that builds a model: `Sequential`, `Model`, `clone_model`, `load_model`,
// `keras.applications.ResNet50`.
[[nodiscard]] bool is_keras_model_maker(std::string_view keras_path);
// A Keras base class that makes a subclass a model: `keras.Model`, `keras.Sequential`.
[[nodiscard]] bool is_keras_model_base(std::string_view keras_path);

// A method of a TF1 optimizer that adds gradient and update ops: `minimize`, `apply_gradients`.
[[nodiscard]] bool is_tf_optimizer_graph_method(std::string_view method);
// A method of a TF variable that adds an assign op: `assign`, `assign_add`, `assign_sub`.
[[nodiscard]] bool is_tf_variable_assign_method(std::string_view method);
// A dataset method that makes a TF1 iterator: `make_one_shot_iterator`, `from_structure`.
[[nodiscard]] bool is_tf_iterator_maker(std::string_view method);
// A Keras model's prediction methods: `predict`, `predict_classes`, `predict_proba`.
[[nodiscard]] bool is_keras_predict_method(std::string_view method);

// `tf.train.Saver`: building one adds save and restore ops for every variable to the graph.
[[nodiscard]] bool is_tf_saver_class(std::string_view path);
// The argument of `Saver.save(sess, save_path, global_step=None, ...)` that numbers the checkpoint
// file: a numbered checkpoint is written again and again as training goes on.
inline constexpr std::string_view kSaverSaveMethod = "save";
inline constexpr std::string_view kSaverStepKeyword = "global_step";
inline constexpr size_t kSaverStepPosition = 2;

// A name that says a session: `sess`, `session`, `train_sess`, `tf_session`.
[[nodiscard]] bool is_session_like_name(std::string_view name);

}  // namespace sealint::knowledge
