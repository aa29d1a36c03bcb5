#include "analyzer/confirm/trend.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sealint::confirm {

namespace {

struct Fit {
  double slope = 0;
  double r_squared = 0;
  double intercept = 0;  // the line's value at the first sample
};

Fit least_squares(const std::vector<double>& y) {
  const double n = static_cast<double>(y.size());
  double mean_x = (n - 1) / 2;
  double mean_y = 0;
  for (double v : y) mean_y += v;
  mean_y /= n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double dx = static_cast<double>(i) - mean_x;
    const double dy = y[i] - mean_y;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  Fit fit;
  if (sxx == 0) return fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  fit.r_squared = syy == 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return fit;
}

}  // namespace

Trend read_trend(const std::vector<std::optional<double>>& series) {
  // Warm-up: the entry sample and the first iteration always, and a fifth of a long run.
  const size_t warm_up = std::max<size_t>(kMinWarmUp, series.size() / 5);
  Trend trend;
  trend.first = warm_up;
  for (size_t k = warm_up; k < series.size(); ++k) {
    if (series[k]) trend.values.push_back(*series[k]);
  }
  trend.samples = trend.values.size();
  if (trend.samples < 2) return trend;
  const Fit fit = least_squares(trend.values);
  trend.slope = fit.slope;
  trend.r_squared = fit.r_squared;
  trend.intercept = fit.intercept;
  size_t up = 0;
  for (size_t i = 1; i < trend.values.size(); ++i) up += trend.values[i] > trend.values[i - 1];
  trend.rising = static_cast<double>(up) / static_cast<double>(trend.samples - 1);
  if (trend.samples < kMinTrendSamples || trend.slope <= 0) return trend;
  // Steady: a line fits (R² ≥ 0.8), most steps go up, and the second half still grows at half
  // the first half's rate or more, so a warm-up that plateaus (optimizer state, a cache filling)
  // is not a leak.
  const auto half = static_cast<std::ptrdiff_t>(trend.samples / 2);
  const Fit first = least_squares({trend.values.begin(), trend.values.begin() + half + 1});
  const Fit second = least_squares({trend.values.begin() + half, trend.values.end()});
  trend.steady = trend.r_squared >= 0.8 && trend.rising >= 0.6 &&
                 second.slope >= 0.5 * std::max(first.slope, 0.0) && second.slope > 0;
  return trend;
}

bool steady_in_each_third(const Trend& trend) {
  // Two samples a third at the least, so that each third has a slope.
  if (!trend.steady || trend.values.size() < 6) return false;
  const size_t third = trend.values.size() / 3;
  for (size_t k = 0; k < 3; ++k) {
    // Each third shares its last sample with the next, so that a jump between thirds counts.
    const auto begin = trend.values.begin() + static_cast<std::ptrdiff_t>(k * third);
    const auto end = k == 2
                         ? trend.values.end()
                         : trend.values.begin() + static_cast<std::ptrdiff_t>((k + 1) * third + 1);
    const double slope = least_squares({begin, end}).slope;
    if (slope <= 0 || slope * 3 < trend.slope || slope > trend.slope * 3) return false;
  }
  return true;
}

}  // namespace sealint::confirm
