// The TensorFlow and Keras table: which `tf.` paths add graph nodes and what Keras calls build.
#include "analyzer/knowledge/tensorflow.h"

#include <gtest/gtest.h>

namespace sealint::knowledge {
namespace {

TEST(TensorFlowTable, OpsAddGraphNodes) {
  EXPECT_TRUE(tf_adds_graph_nodes("nn.relu"));
  EXPECT_TRUE(tf_adds_graph_nodes("assign"));
  EXPECT_TRUE(tf_adds_graph_nodes("placeholder"));
  EXPECT_TRUE(tf_adds_graph_nodes("summary.scalar"));  // a summary op, not a writer
}

TEST(TensorFlowTable, SessionsConfigFilesScopesAndObjectsAddNone) {
  EXPECT_FALSE(tf_adds_graph_nodes("Session"));
  EXPECT_FALSE(tf_adds_graph_nodes("ConfigProto"));
  EXPECT_FALSE(tf_adds_graph_nodes("io.gfile.exists"));  // a module of files
  EXPECT_FALSE(tf_adds_graph_nodes("Summary.Value"));    // a protocol buffer
  EXPECT_FALSE(tf_adds_graph_nodes("variable_scope"));
  EXPECT_FALSE(tf_adds_graph_nodes("compat.v1.name_scope"));
  EXPECT_FALSE(tf_adds_graph_nodes("train.AdamOptimizer"));  // `.minimize()` adds the ops
  EXPECT_FALSE(tf_adds_graph_nodes(""));
}

TEST(TensorFlowTable, GraphTensorsAreSingleResults) {
  EXPECT_TRUE(tf_returns_graph_tensor("reduce_mean"));
  EXPECT_TRUE(tf_returns_graph_tensor("Variable"));
  EXPECT_FALSE(tf_returns_graph_tensor("split"));         // a list of tensors
  EXPECT_FALSE(tf_returns_graph_tensor("gradients"));     // a list of tensors
  EXPECT_FALSE(tf_returns_graph_tensor("SparseTensor"));  // a class: not one tensor op result
  EXPECT_FALSE(tf_returns_graph_tensor("Session"));
}

TEST(TensorFlowTable, KerasModelsAndSessions) {
  EXPECT_TRUE(is_keras_model_maker("keras.models.Sequential"));
  EXPECT_TRUE(is_keras_model_maker("keras.models.load_model"));
  EXPECT_TRUE(is_keras_model_maker("keras.applications.ResNet50"));
  EXPECT_FALSE(is_keras_model_maker("keras.applications.resnet50.preprocess_input"));
  EXPECT_FALSE(is_keras_model_maker("keras.layers.Dense"));
  EXPECT_TRUE(is_keras_model_base("keras.Model"));
  EXPECT_TRUE(is_keras_clear_session("keras.backend.clear_session"));
  EXPECT_TRUE(is_tf_session_api("InteractiveSession"));
  EXPECT_TRUE(is_tf_session_api("train.MonitoredTrainingSession"));
  EXPECT_FALSE(is_tf_session_api("Graph"));
  EXPECT_TRUE(is_tf_graph_reset_api("reset_default_graph"));
}

TEST(TensorFlowTable, SessionNames) {
  EXPECT_TRUE(is_session_like_name("sess"));
  EXPECT_TRUE(is_session_like_name("self.session"));
  EXPECT_TRUE(is_session_like_name("train_sess"));
  EXPECT_FALSE(is_session_like_name("session_id"));
  EXPECT_FALSE(is_session_like_name("assess"));
}

TEST(TensorFlowTable, TheSaverClassIsTheTf1SaverOnly) {
  EXPECT_TRUE(is_tf_saver_class("train.Saver"));
  EXPECT_TRUE(tf_adds_graph_nodes("train.Saver"));
  EXPECT_FALSE(is_tf_saver_class("train.Checkpoint"));
  EXPECT_FALSE(is_tf_saver_class("train.CheckpointManager"));
  EXPECT_FALSE(is_tf_saver_class("saved_model.save"));
}

}  // namespace
}  // namespace sealint::knowledge
