#include "analyzer/report/svg_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sealint::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Chart growing() {
  Chart chart;
  chart.id = "finding-0-total-graph_nodes";
  chart.title = "`total`: autograd nodes";
  chart.metric = "graph_nodes";
  chart.values = {std::nullopt, 10, 20, 30, 40, 50};
  chart.fit = FitLine{2, 20, 10, 1.0};
  chart.projected = 5;
  return chart;
}

TEST(SvgChartTest, ListsTheSamplesAsTheResultHasThemWithNullsKept) {
  EXPECT_THAT(svg_chart(growing()), HasSubstr(R"(data-values="null,10,20,30,40,50")"));
}

TEST(SvgChartTest, BreaksTheLineAtAnUnmeasuredSample) {
  Chart chart = growing();
  chart.values = {1, 2, std::nullopt, 4, 5};
  const std::string svg = svg_chart(chart);
  size_t lines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2U);
}

TEST(SvgChartTest, DrawsTheFitAndItsProjectionOnlyWhenGiven) {
  EXPECT_THAT(svg_chart(growing()), HasSubstr(R"(class="projection")"));
  Chart flat = growing();
  flat.projected = 0;
  EXPECT_THAT(svg_chart(flat), HasSubstr(R"(class="fit")"));
  EXPECT_THAT(svg_chart(flat), Not(HasSubstr(R"(class="projection")")));
  flat.fit.reset();
  EXPECT_THAT(svg_chart(flat), Not(HasSubstr(R"(class="fit")")));
}

TEST(SvgChartTest, LabelsABytesAxisInBinaryUnits) {
  Chart chart = growing();
  chart.bytes = true;
  chart.values = {0, 1048576, 2097152};
  chart.fit.reset();
  chart.projected = 0;
  EXPECT_THAT(svg_chart(chart), HasSubstr("MiB</text>"));
}

TEST(SvgChartTest, EscapesTheTitle) {
  Chart chart = growing();
  chart.title = "`a<b>`";
  EXPECT_THAT(svg_chart(chart), HasSubstr("<title>`a&lt;b&gt;`</title>"));
}

TEST(SvgChartTest, KeepsAFlatZeroSeriesInsideThePlot) {
  Chart chart = growing();
  chart.values = {0, 0, 0};
  chart.fit.reset();
  chart.projected = 0;
  const std::string svg = svg_chart(chart);
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf")));
}

}  // namespace
}  // namespace sealint::report
