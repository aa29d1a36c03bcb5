#include "analyzer/output/sparkline.h"

#include <limits>

#include <gtest/gtest.h>

namespace sealint::output {
namespace {

TEST(SparklineTest, DrawsASeriesFromItsLowestToItsHighestBlock) {
  EXPECT_EQ(sparkline({0, 1, 2, 3, 4, 5, 6, 7}), "▁▂▃▄▅▆▇█");
  EXPECT_EQ(sparkline({3, 3, 3}), "▁▁▁");
  EXPECT_EQ(sparkline({}), "");
}

// Issue 41 (Low): the span of ±1e308 overflowed to infinity, so every value but the lowest became
// NaN before its conversion to an integer (undefined; UBSan reports it).
TEST(SparklineTest, DrawsTheWidestFiniteSpanWithoutOverflow) {
  constexpr double kMax = std::numeric_limits<double>::max();
  EXPECT_EQ(sparkline({-1e308, 0, 1e308}), "▁▅█");
  EXPECT_EQ(sparkline({-kMax, kMax}), "▁█");
}

TEST(SparklineTest, PutsValuesThatAreNotNumbersOnTheLowestBlock) {
  constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(sparkline({0, kNan, 1}).size(), sparkline({0, 0, 1}).size());
  EXPECT_EQ(sparkline({kInf, -kInf}), "▁▁");
}

// One column for a longer series (the sampling divided by `width - 1`, zero).
TEST(SparklineTest, SamplesALongSeriesIntoOneColumn) {
  EXPECT_EQ(sparkline({1, 2, 3}, 1), "▁");
  EXPECT_EQ(sparkline({1, 2, 3, 4, 5}, 2), "▁█");
}

}  // namespace
}  // namespace sealint::output
