#include "analyzer/knowledge/tensorflow.h"

#include "analyzer/knowledge/name_set.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

// `tf.` calls that add no node to the default graph (every other `tf.` call counts as a graph
// builder): sessions, graphs and coordination; configuration and global settings; files,
// logging, flags and pure-Python helpers; protocol buffers and summary writers
// (`tf.Summary(value=[...])` is a message, not an op); checkpoint files and queries of the
// graph's collections; optimizer, moving-average and estimator objects; values fed through
// `feed_dict` (`tf.SparseTensorValue` is a namedtuple).
constexpr auto kNoGraphNodes = sorted_names(
    "ConfigProto", "DType", "Dimension", "Event", "GPUOptions", "Graph", "GraphDef", "GraphOptions",
    "HistogramProto", "InteractiveSession", "OptimizerOptions", "RunMetadata", "RunOptions",
    "Session", "SparseTensorValue", "Summary", "TensorShape", "TensorSpec", "add_to_collection",
    "add_to_collections", "all_variables", "as_dtype", "autograph.set_verbosity", "compat.as_bytes",
    "compat.as_str", "compat.as_str_any", "compat.as_text", "compat.path_to_str",
    "debugging.set_log_device_placement", "disable_eager_execution", "disable_resource_variables",
    "disable_v2_behavior", "enable_eager_execution", "enable_resource_variables",
    "enable_v2_behavior", "executing_eagerly", "get_collection", "get_collection_ref",
    "get_default_graph", "get_default_session", "get_logger", "get_variable_scope",
    "global_variables", "io.TFRecordOptions", "io.TFRecordWriter", "io.tf_record_iterator",
    "local_variables", "make_ndarray", "make_tensor_proto", "model_variables",
    "moving_average_variables", "random.set_seed", "reset_default_graph", "set_random_seed",
    "summary.FileWriter", "summary.FileWriterCache", "summary.summary_iterator", "train.BytesList",
    "train.ClusterSpec", "train.Coordinator", "train.Example", "train.ExponentialMovingAverage",
    "train.Feature", "train.FeatureList", "train.FeatureLists", "train.Features", "train.FloatList",
    "train.Int64List", "train.MonitoredSession", "train.MonitoredTrainingSession",
    "train.NewCheckpointReader", "train.Scaffold", "train.SequenceExample", "train.Server",
    "train.SingularMonitoredSession", "train.SummaryWriter", "train.checkpoint_exists",
    "train.get_checkpoint_state", "train.get_global_step", "train.get_or_create_global_step",
    "train.global_step", "train.latest_checkpoint", "train.list_variables", "train.load_checkpoint",
    "train.load_variable", "train.start_queue_runners", "train.summary_iterator",
    "train.write_graph", "trainable_variables");

// Modules of `tf.` whose calls add no node: files, flags, config, estimators (they build and own
// their graphs), feature columns (specs), `tf.Summary.Value` messages.
constexpr auto kNoGraphNodeModules =
    sorted_names("Summary.", "app.", "config.", "dtypes.", "errors.", "estimator.",
                 "feature_column.", "flags.", "gfile.", "io.gfile.", "logging.", "nest.",
                 "profiler.", "python_io.", "sysconfig.", "test.", "version.");

// Context managers that scope the ops built inside them and add none themselves.
constexpr auto kScopes =
    sorted_names("arg_scope", "colocate_with", "container", "control_dependencies", "device",
                 "name_scope", "variable_scope");

// Builders whose result is a list or tuple of tensors, not one tensor (`parts + other` is a list
// concatenation, not an op).
constexpr auto kReturnsSeveral = sorted_names(
    "bidirectional_dynamic_rnn", "dynamic_partition", "dynamic_rnn", "gradients", "meshgrid",
    "moments", "split", "static_rnn", "top_k", "tuple", "unique", "unpack", "unstack");

constexpr auto kSessions =
    sorted_names("InteractiveSession", "Session", "get_default_session", "train.MonitoredSession",
                 "train.MonitoredTrainingSession", "train.SingularMonitoredSession");

constexpr auto kKerasModelMakers =
    sorted_names("Functional", "Model", "Sequential", "clone_model", "load_model",
                 "model_from_config", "model_from_json", "model_from_yaml");

bool is_lower_initial(std::string_view name) {
  return !name.empty() && name.front() >= 'a' && name.front() <= 'z';
}

bool is_upper_initial(std::string_view name) {
  return !name.empty() && name.front() >= 'A' && name.front() <= 'Z';
}

}  // namespace

bool tf_adds_graph_nodes(std::string_view path) {
  if (path.empty() || kNoGraphNodes.contains(path)) return false;
  for (std::string_view module : kNoGraphNodeModules.all()) {
    if (path.starts_with(module)) return false;
  }
  const std::string_view last = last_component(path);
  if (kScopes.contains(last)) return false;
  // `tf.train.AdamOptimizer(lr)` is an object; its `.minimize()` adds the ops.
  return !last.ends_with("Optimizer");
}

bool tf_returns_graph_tensor(std::string_view path) {
  if (!tf_adds_graph_nodes(path)) return false;
  const std::string_view last = last_component(path);
  if (last == "Variable" || last == "get_variable") return true;
  return is_lower_initial(last) && !kReturnsSeveral.contains(last);
}

bool is_tf_saver_class(std::string_view path) {
  return path == "train.Saver";
}

bool is_tf_session_api(std::string_view path) {
  return kSessions.contains(path);
}

bool is_tf_graph_reset_api(std::string_view path) {
  return path == "reset_default_graph" || path == "Graph";
}

bool is_keras_session_getter(std::string_view keras_path) {
  return last_component(keras_path) == "get_session";
}

bool is_keras_clear_session(std::string_view keras_path) {
  return last_component(keras_path) == "clear_session";
}

bool is_keras_model_maker(std::string_view keras_path) {
  const std::string_view last = last_component(keras_path);
  if (kKerasModelMakers.contains(last)) return true;
  return keras_path.starts_with("keras.applications.") && is_upper_initial(last);
}

bool is_keras_model_base(std::string_view keras_path) {
  const std::string_view last = last_component(keras_path);
  return last == "Model" || last == "Sequential";
}

bool is_tf_optimizer_graph_method(std::string_view method) {
  return method == "minimize" || method == "apply_gradients" || method == "compute_gradients";
}

bool is_tf_variable_assign_method(std::string_view method) {
  return method == "assign" || method == "assign_add" || method == "assign_sub";
}

bool is_tf_iterator_maker(std::string_view method) {
  return method == "make_one_shot_iterator" || method == "make_initializable_iterator" ||
         method == "from_structure" || method == "from_string_handle";
}

bool is_keras_predict_method(std::string_view method) {
  return method == "predict" || method == "predict_classes" || method == "predict_proba";
}

bool is_session_like_name(std::string_view name) {
  const std::string_view last = last_component(name);
  return last == "sess" || last == "session" || last.ends_with("_sess") ||
         last.ends_with("_session");
}

}  // namespace sealint::knowledge
