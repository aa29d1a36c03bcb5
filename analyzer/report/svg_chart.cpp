#include "analyzer/report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analyzer/confirm/units.h"
#include "analyzer/report/html_text.h"

namespace sealint::report {

namespace {

constexpr double kWidth = 640;
constexpr double kHeight = 226;
constexpr double kLeft = 78;  // room for "1023.9 MiB"
constexpr double kRight = 16;
constexpr double kTop = 28;  // the legend sits above the plot
constexpr double kBottom = 40;

// Maps samples and values to the plot area: x from sample 0 to the last projected one, y from 0
// (or the lowest value, when one is negative) to the highest value drawn.
struct Scale {
  double x_max = 1;
  double y_min = 0;
  double y_max = 1;
  [[nodiscard]] double x(double sample) const {
    return kLeft + sample / x_max * (kWidth - kLeft - kRight);
  }
  [[nodiscard]] double y(double value) const {
    return kHeight - kBottom - (value - y_min) / (y_max - y_min) * (kHeight - kTop - kBottom);
  }
};

double fit_at(const FitLine& fit, double sample) {
  return fit.intercept + fit.slope * (sample - static_cast<double>(fit.first));
}

Scale scale_of(const Chart& chart) {
  Scale scale;
  const size_t last = chart.values.empty() ? 0 : chart.values.size() - 1;
  scale.x_max = std::max(1.0, static_cast<double>(last + chart.projected));
  double low = 0;
  double high = 0;
  for (const auto& v : chart.values) {
    if (!v || !std::isfinite(*v)) continue;
    low = std::min(low, *v);
    high = std::max(high, *v);
  }
  if (chart.fit) {
    const double end = fit_at(*chart.fit, scale.x_max);
    if (std::isfinite(end)) high = std::max(high, end);
  }
  scale.y_min = low;
  scale.y_max = high > low ? low + (high - low) * 1.05 : low + 1;
  return scale;
}

std::string value_text(const Chart& chart, double value) {
  return chart.bytes ? confirm::bytes_text(value) : confirm::count_text(value);
}

std::string axes(const Chart& chart, const Scale& scale) {
  std::string out = fmt::format(
      R"(<g class="axes" stroke="#888" stroke-width="1"><line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}"/><line x1="{0:.1f}" y1="{3:.1f}" x2="{0:.1f}" y2="{1:.1f}"/></g>)",
      kLeft + 0.5, kHeight - kBottom + 0.5, kWidth - kRight, kTop);
  out += R"(<g class="ticks" font-size="11" fill="#444">)";
  for (const double fraction : {0.0, 0.5, 1.0}) {
    const double value = scale.y_min + (scale.y_max - scale.y_min) * fraction;
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)", kLeft - 6,
                       scale.y(value) + 4, html_text(value_text(chart, value)));
  }
  for (const double fraction : {0.0, 0.5, 1.0}) {
    const double sample = std::round(scale.x_max * fraction);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)",
                       scale.x(sample), kHeight - kBottom + 15, confirm::count_text(sample));
  }
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}s</text></g>)",
                     (kLeft + kWidth - kRight) / 2, kHeight - 6, html_text(chart.step));
  return out;
}

// The samples: a polyline per run of measured samples (an unmeasured one breaks the line) and a
// dot on each.
std::string series(const Chart& chart, const Scale& scale) {
  std::string listed;
  for (size_t k = 0; k < chart.values.size(); ++k) {
    if (k != 0) listed += ',';
    listed += chart.values[k] ? fmt::format("{}", *chart.values[k]) : "null";
  }
  std::string out = fmt::format(
      R"(<g class="series" data-metric="{}" data-values="{}" stroke="#1f5fbf" fill="#1f5fbf">)",
      html_text(chart.metric), listed);
  std::string points;
  std::string dots;
  const auto flush = [&] {
    if (!points.empty())
      out += fmt::format(R"(<polyline fill="none" stroke-width="2.5" points="{}"/>)", points);
    points.clear();
  };
  for (size_t k = 0; k < chart.values.size(); ++k) {
    const auto& v = chart.values[k];
    if (!v || !std::isfinite(*v)) {
      flush();
      continue;
    }
    const double x = scale.x(static_cast<double>(k));
    const double y = scale.y(*v);
    points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", x, y);
    dots += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.5"/>)", x, y);
  }
  flush();
  return out + dots + "</g>";
}

std::string fit_lines(const Chart& chart, const Scale& scale) {
  if (!chart.fit || chart.values.empty()) return {};
  const auto first = static_cast<double>(chart.fit->first);
  const auto last = static_cast<double>(chart.values.size() - 1);
  std::string out = fmt::format(
      R"(<line class="fit" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#d9480f" stroke-width="1.5"/>)",
      scale.x(first), scale.y(fit_at(*chart.fit, first)), scale.x(last),
      scale.y(fit_at(*chart.fit, last)));
  if (chart.projected > 0) {
    out += fmt::format(
        R"(<line class="projection" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#d9480f" stroke-width="1.5" stroke-dasharray="6 4"/>)",
        scale.x(last), scale.y(fit_at(*chart.fit, last)), scale.x(scale.x_max),
        scale.y(fit_at(*chart.fit, scale.x_max)));
  }
  return out;
}

std::string legend(const Chart& chart) {
  std::string out = fmt::format(
      R"(<g class="legend" font-size="11" fill="#444"><rect x="{:.1f}" y="{:.1f}" width="10" height="3" fill="#1f5fbf"/><text x="{:.1f}" y="{:.1f}">measured</text>)",
      kLeft + 10, kTop - 16, kLeft + 24, kTop - 12);
  if (chart.fit) {
    out += fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="10" height="2" fill="#d9480f"/><text x="{:.1f}" y="{:.1f}">{}{}</text>)",
        kLeft + 90, kTop - 16, kLeft + 104, kTop - 12,
        chart.fit->slope == 0 ? std::string("fit: flat")
                              : fmt::format("fit (R² {:.2f})", chart.fit->r_squared),
        chart.projected > 0 ? ", dashed: projection" : "");
  }
  return out + "</g>";
}

}  // namespace

std::string svg_chart(const Chart& chart) {
  const Scale scale = scale_of(chart);
  return fmt::format(
      R"(<svg class="chart" id="{}" xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" viewBox="0 0 {:.0f} {:.0f}" role="img"><title>{}</title>{}{}{}{}</svg>)",
      html_text(chart.id), kWidth, kHeight, kWidth, kHeight, html_text(chart.title),
      axes(chart, scale), fit_lines(chart, scale), series(chart, scale), legend(chart));
}

}  // namespace sealint::report
