#include "analyzer/confirm/trend.h"

#include <gtest/gtest.h>

namespace sealint::confirm {
namespace {

using Series = std::vector<std::optional<double>>;

Series line(double start, double step, size_t n) {
  Series out;
  for (size_t i = 0; i < n; ++i) out.emplace_back(start + step * static_cast<double>(i));
  return out;
}

TEST(Trend, ALeakyAccumulatorGrowsByItsStep) {
  const Trend trend = read_trend(line(0, 10, 21));
  EXPECT_TRUE(trend.steady);
  EXPECT_DOUBLE_EQ(trend.slope, 10);
  EXPECT_DOUBLE_EQ(trend.r_squared, 1);
}

TEST(Trend, AFlatSeriesIsNotGrowth) {
  const Trend trend = read_trend(line(10, 0, 21));
  EXPECT_FALSE(trend.steady);
  EXPECT_DOUBLE_EQ(trend.slope, 0);
}

TEST(Trend, WarmUpThatPlateausIsNotGrowth) {
  // The optimizer's first step allocates its state, the allocator fills its cache, then flat.
  Series series{0, 100, 400, 600, 650, 660, 660, 660, 660, 660, 660, 660, 660, 660, 660, 660};
  EXPECT_FALSE(read_trend(series).steady);
}

TEST(Trend, NoiseAroundAFlatLineIsNotGrowth) {
  Series series;
  for (int i = 0; i < 30; ++i) series.emplace_back(1000 + (i % 3 == 0 ? 8 : -4) + (i % 7));
  EXPECT_FALSE(read_trend(series).steady);
}

TEST(Trend, NoisyButSteadyGrowthIsGrowth) {
  Series series;
  for (int i = 0; i < 30; ++i) series.emplace_back(1000 + 500.0 * i + (i % 2 == 0 ? 60 : -60));
  const Trend trend = read_trend(series);
  EXPECT_TRUE(trend.steady);
  EXPECT_NEAR(trend.slope, 500, 25);
}

TEST(Trend, TooFewSamplesSayNothing) {
  const Trend trend = read_trend(line(0, 10, kMinTrendSamples + 1));
  EXPECT_FALSE(trend.steady);
  EXPECT_LT(trend.samples, kMinTrendSamples);
}

TEST(Trend, UnboundSamplesAreSkipped) {
  Series series = line(0, 5, 20);
  series[0] = std::nullopt;
  series[7] = std::nullopt;
  const Trend trend = read_trend(series);
  EXPECT_TRUE(trend.steady);
  EXPECT_EQ(trend.samples, 15U);
}

TEST(Trend, ShrinkingIsNotGrowth) {
  EXPECT_FALSE(read_trend(line(100, -3, 20)).steady);
}

// Resident memory as the C allocator grows it: a few pages per iteration, and two 40 MiB arenas.
Series allocator_jumps() {
  constexpr double kMiB = 1024 * 1024;
  Series series;
  for (int i = 0; i <= 20; ++i)
    series.emplace_back(100 * kMiB + i * 8192.0 + (i >= 9 ? 40 * kMiB : 0) +
                        (i >= 15 ? 40 * kMiB : 0));
  return series;
}

TEST(Trend, JumpsThatPassForSteadyDoNotGrowInEachThird) {
  const Trend trend = read_trend(allocator_jumps());
  EXPECT_TRUE(trend.steady);  // what the verdict used to cite as "+6.2 MiB per iteration"
  EXPECT_FALSE(steady_in_each_third(trend));
}

TEST(Trend, ALineGrowsInEachThird) {
  EXPECT_TRUE(steady_in_each_third(read_trend(line(1000, 512, 21))));
}

TEST(Trend, AFlatSeriesDoesNotGrowInEachThird) {
  EXPECT_FALSE(steady_in_each_third(read_trend(line(1000, 0, 21))));
}

}  // namespace
}  // namespace sealint::confirm
