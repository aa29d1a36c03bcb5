#include "analyzer/notebook/cell_positions.h"

#include <string>

#include <gtest/gtest.h>

#include "analyzer/core/source_file.h"

namespace sealint::notebook {
namespace {

constexpr std::string_view kTwoCells =
    R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
      {"cell_type": "code", "source": ["total = 0\n", "losses = []"]},
      {"cell_type": "markdown", "source": "# Loop"},
      {"cell_type": "code", "source": ["%%time\n", "for x in xs:\n", "    total += x\n"]}]})";

struct Fixture {
  Notebook notebook = Notebook::parse("nb.ipynb", kTwoCells).value();
  SourceFile file = SourceFile::from_bytes("nb.ipynb", notebook.code()).value();
  Span span_of(std::string_view text) const {
    const auto at = static_cast<uint32_t>(notebook.code().find(text));
    return file.span({at, static_cast<uint32_t>(at + text.size())});
  }
};

TEST(CellPositionsTest, GivesTheCellTheLineInItAndTheSameColumns) {
  const Fixture f;
  const Span span = f.span_of("total += x");
  EXPECT_EQ(span.begin.line, 5U);  // in the concatenated code
  EXPECT_EQ(cell_position(f.notebook, span.begin), (Position{3, 5, 5, 24, 3}));
  EXPECT_EQ(cell_position(f.notebook, f.span_of("losses").begin), (Position{2, 1, 1, 10, 1}));
}

TEST(CellPositionsTest, MapsFindingsRelatedLocationsFixesAndErrors) {
  const Fixture f;
  Diagnostic d;
  d.span = f.span_of("total += x");
  d.related.push_back({f.span_of("total = 0"), "`total` is created here"});
  const uint32_t end = d.span.end.offset;
  d.fix = Fix{"add a number", true, {{{end, end}, f.file.span({end, end}), ".item()"}}};
  std::vector<Diagnostic> diagnostics{d};
  std::vector<InputError> errors{{"nb.ipynb", f.span_of("for").begin, "syntax error", false}};
  point_at_cells(f.notebook, diagnostics, errors);
  EXPECT_EQ(diagnostics[0].span.begin.cell, 3U);
  EXPECT_EQ(diagnostics[0].span.begin.line, 3U);
  EXPECT_EQ(diagnostics[0].related[0].span.begin.cell, 1U);
  EXPECT_EQ(diagnostics[0].related[0].span.begin.line, 1U);
  ASSERT_TRUE(diagnostics[0].fix.has_value());
  EXPECT_EQ(diagnostics[0].fix->edits[0].span.begin, (Position{3, 15, 15, 34, 3}));
  // The edit's byte range stays in the concatenated code: `--fix` applies it there.
  EXPECT_EQ(diagnostics[0].fix->edits[0].range, (ByteRange{end, end}));
  EXPECT_EQ(errors[0].at, (Position{2, 1, 1, 7, 3}));
}

TEST(CellPositionsTest, DropsAFixThatCannotBeWrittenIntoOneCell) {
  const Fixture f;
  Diagnostic d;
  d.span = f.span_of("total += x");
  const auto magic = static_cast<uint32_t>(f.notebook.code().find("#%time"));
  d.fix = Fix{"touches the magic", true, {{{magic, magic + 1}, {}, "x"}}};
  std::vector<Diagnostic> diagnostics{d};
  std::vector<InputError> errors;
  point_at_cells(f.notebook, diagnostics, errors);
  EXPECT_FALSE(diagnostics[0].fix.has_value());
}

}  // namespace
}  // namespace sealint::notebook
