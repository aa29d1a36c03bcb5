#include "analyzer/cpp/model_gap.h"

#include <gtest/gtest.h>

namespace sealint::cpp {
namespace {

size_t offset_of(std::string_view text, std::string_view what) {
  return text.find(what);
}

TEST(ModelGapTest, ReadsTheQualifierWrittenBeforeTheUnknownName) {
  const std::string_view code = "struct Counter : torch::CustomClassHolder {};";
  EXPECT_EQ(written_qualified_name(code, offset_of(code, "CustomClassHolder")),
            "torch::CustomClassHolder");
}

TEST(ModelGapTest, ReadsNestedQualifiersAcrossSpacesAndLineBreaks) {
  const std::string_view code =
      "auto s = ::torch :: data::\n  samplers::DistributedRandomSampler(4);";
  EXPECT_EQ(written_qualified_name(code, offset_of(code, "DistributedRandomSampler")),
            "torch::data::samplers::DistributedRandomSampler");
}

TEST(ModelGapTest, AMemberAfterADotHasNoQualifier) {
  const std::string_view code = "guess.eq_(op)";
  EXPECT_EQ(written_qualified_name(code, offset_of(code, "eq_")), "eq_");
}

TEST(ModelGapTest, AnOffsetPastTheTextNamesNothing) {
  EXPECT_EQ(written_qualified_name("torch::x", 42), "");
}

TEST(ModelGapTest, OnlyLibTorchNamespacesCount) {
  EXPECT_TRUE(is_torch_qualified("torch::CustomClassHolder"));
  EXPECT_TRUE(is_torch_qualified("at::native::foo"));
  EXPECT_TRUE(is_torch_qualified("c10::Dict"));
  // OpenCV, c10d (distributed, its own headers) and a bare name are the user's or a third party's.
  EXPECT_FALSE(is_torch_qualified("cv::Mat"));
  EXPECT_FALSE(is_torch_qualified("c10d::ProcessGroupMPI"));
  EXPECT_FALSE(is_torch_qualified("torch"));
  EXPECT_FALSE(is_torch_qualified("eq_"));
}

}  // namespace
}  // namespace sealint::cpp
