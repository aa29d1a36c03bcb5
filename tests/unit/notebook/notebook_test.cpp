#include "analyzer/notebook/notebook.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace sealint::notebook {
namespace {

// An nbformat 4 notebook as Jupyter writes it: sorted keys, one space of indent, final newline.
std::string jupyter(const nlohmann::json& cells, const nlohmann::json& metadata = {}) {
  const nlohmann::json document = {
      {"cells", cells},
      {"metadata", metadata.is_null() ? nlohmann::json::object() : metadata},
      {"nbformat", 4},
      {"nbformat_minor", 5}};
  return document.dump(1) + "\n";
}

nlohmann::json code_cell(const nlohmann::json& source) {
  return {{"cell_type", "code"},
          {"execution_count", nullptr},
          {"metadata", nlohmann::json::object()},
          {"outputs", nlohmann::json::array()},
          {"source", source}};
}

nlohmann::json markdown_cell(std::string_view text) {
  return {{"cell_type", "markdown"}, {"metadata", nlohmann::json::object()}, {"source", text}};
}

Notebook parse(const std::string& bytes) {
  auto notebook = Notebook::parse("nb.ipynb", bytes);
  if (!notebook) {
    ADD_FAILURE() << notebook.error();
    return Notebook::parse("nb.ipynb", jupyter(nlohmann::json::array())).value();
  }
  return std::move(*notebook);
}

std::string error_of(const std::string& bytes) {
  auto notebook = Notebook::parse("nb.ipynb", bytes);
  EXPECT_FALSE(notebook.has_value());
  return notebook ? std::string() : notebook.error();
}

TEST(NotebookTest, ConcatenatesCodeCellsInOrderEachEndedWithANewline) {
  const Notebook notebook =
      parse(jupyter({code_cell("losses = []"), markdown_cell("# Train"),
                     code_cell({"for x in xs:\n", "    losses.append(x)\n"})}));
  EXPECT_EQ(notebook.code(), "losses = []\nfor x in xs:\n    losses.append(x)\n");
  ASSERT_EQ(notebook.cells().size(), 2U);
  // Cells count as the notebook shows them, markdown ones too.
  EXPECT_EQ(notebook.cells()[0].number, 1U);
  EXPECT_EQ(notebook.cells()[1].number, 3U);
  EXPECT_EQ(notebook.cells()[1].begin, 12U);
  EXPECT_EQ(notebook.cells()[1].first_line, 2U);
}

TEST(NotebookTest, FindsTheCellOfAnOffsetAndQuotesItsLinesAsWritten) {
  const Notebook notebook = parse(jupyter({code_cell("%time x = 1\ny = 2"), code_cell("z = 3\n")}));
  EXPECT_EQ(notebook.code(), "#time x = 1\ny = 2\nz = 3\n");
  EXPECT_EQ(notebook.cell_at(0)->number, 1U);
  EXPECT_EQ(notebook.cell_at(17)->number, 1U);  // the newline added after `y = 2`
  EXPECT_EQ(notebook.cell_at(18)->number, 2U);
  EXPECT_EQ(notebook.cell_at(static_cast<uint32_t>(notebook.code().size()))->number, 2U);
  EXPECT_EQ(notebook.cell_line(1, 1), "%time x = 1");
  EXPECT_EQ(notebook.cell_line(1, 2), "y = 2");
  EXPECT_EQ(notebook.cell_line(1, 3), "");
  EXPECT_EQ(notebook.cell_line(2, 1), "z = 3");
}

TEST(NotebookTest, CountsLinesAsThePythonSourceDoes) {
  // A lone `\r` ends a line for SourceFile too: the next cell's first line agrees with it.
  const Notebook notebook = parse(jupyter({code_cell("a = 1\rb = 2\r\n"), code_cell("c = 3")}));
  ASSERT_EQ(notebook.cells().size(), 2U);
  EXPECT_EQ(notebook.cells()[1].first_line, 3U);
  EXPECT_EQ(notebook.cell_line(1, 1), "a = 1");
  EXPECT_EQ(notebook.cell_line(1, 2), "b = 2");
  EXPECT_EQ(notebook.cell_line(2, 1), "c = 3");
}

TEST(NotebookTest, SkipsCellsOfOtherLanguages) {
  nlohmann::json r_cell = code_cell("x <- 1");
  r_cell["metadata"]["vscode"]["languageId"] = "r";
  const Notebook notebook = parse(jupyter({code_cell("%%bash\nls\n"), r_cell, code_cell("y = 2")}));
  EXPECT_EQ(notebook.code(), "y = 2\n");
  ASSERT_EQ(notebook.cells().size(), 1U);
  EXPECT_EQ(notebook.cells()[0].number, 3U);
}

TEST(NotebookTest, NamesTheLanguageOfANotebookOfAnotherKernel) {
  const Notebook r = parse(
      jupyter(nlohmann::json::array({code_cell("x <- 1")}), {{"language_info", {{"name", "R"}}}}));
  ASSERT_TRUE(r.not_python().has_value());
  EXPECT_EQ(*r.not_python(), "'nb.ipynb' is a notebook in r, not Python; not analysed");
  const Notebook python = parse(jupyter(nlohmann::json::array({code_cell("x = 1")}),
                                        {{"kernelspec", {{"language", "python"}}}}));
  EXPECT_FALSE(python.not_python().has_value());
}

TEST(NotebookTest, RejectsWhatIsNotAnNbformat4Notebook) {
  EXPECT_EQ(error_of("{\n \"cells\": [\n"),
            "'nb.ipynb' is not a notebook: invalid JSON at line 3, column 1");
  EXPECT_EQ(error_of("{\"cells\": [],\n \"nbformat\": 4,,}"),
            "'nb.ipynb' is not a notebook: invalid JSON at line 2, column 16");
  EXPECT_EQ(error_of("[]"), "'nb.ipynb' is not a notebook: its JSON is not an object");
  EXPECT_EQ(error_of(R"({"cells": []})"),
            "'nb.ipynb' is not a notebook: it has no `nbformat` version");
  EXPECT_EQ(error_of(R"({"nbformat": 4})"), "'nb.ipynb' is not a notebook: it has no `cells` list");
  EXPECT_EQ(error_of(R"({"nbformat": 3, "worksheets": []})"),
            "'nb.ipynb' is an nbformat 3 notebook; sealint reads nbformat 4 (saving it in Jupyter "
            "upgrades it)");
  EXPECT_EQ(error_of(R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": 7}]})"),
            "'nb.ipynb' is not a notebook: cell 1 has no `source` text");
  EXPECT_EQ(error_of(R"({"nbformat": 4, "cells": [{"source": ""}]})"),
            "'nb.ipynb' is not a notebook: cell 1 has no `cell_type`");
  EXPECT_EQ(error_of(std::string(1000, '[') + std::string(1000, ']')),
            "'nb.ipynb' is not a notebook: its JSON nests deeper than 512 levels");
}

TEST(NotebookTest, AcceptsAnEmptyNotebook) {
  const Notebook notebook = parse(jupyter(nlohmann::json::array()));
  EXPECT_EQ(notebook.code(), "");
  EXPECT_EQ(notebook.cell_at(0), nullptr);
}

TEST(NotebookTest, RewritesOnlyTheEditedCellAndKeepsTheLayout) {
  const std::string bytes =
      jupyter({code_cell("total = 0"),
               code_cell({"for x in xs:\n", "    total += loss\n", "print(total)"})});
  const Notebook notebook = parse(bytes);
  const uint32_t at = static_cast<uint32_t>(notebook.code().find("loss\n") + 4);
  const Edit edit{{at, at}, {}, ".item()"};
  const Edit* edits[] = {&edit};
  auto rewrite = notebook.rewrite(edits);
  ASSERT_TRUE(rewrite.has_value()) << rewrite.error();
  std::string expected = bytes;
  const std::string line = "\"    total += loss\\n\"";
  expected.replace(expected.find(line), line.size(), "\"    total += loss.item()\\n\"");
  EXPECT_EQ(rewrite->bytes, expected);
  ASSERT_EQ(rewrite->changes.size(), 1U);
  EXPECT_EQ(rewrite->changes[0].number, 2U);
  EXPECT_EQ(rewrite->changes[0].after, "for x in xs:\n    total += loss.item()\nprint(total)");
}

TEST(NotebookTest, KeepsKeyOrderIndentationAndAStringSource) {
  const std::string bytes =
      "{\n    \"nbformat\": 4,\n    \"nbformat_minor\": 2,\n    \"metadata\": {},\n    \"cells\": "
      "[\n"
      "        {\n            \"source\": \"x = loss\",\n            \"cell_type\": \"code\"\n"
      "        }\n    ]\n}";
  const Notebook notebook = parse(bytes);
  const Edit edit{{8, 8}, {}, ".item()"};
  const Edit* edits[] = {&edit};
  auto rewrite = notebook.rewrite(edits);
  ASSERT_TRUE(rewrite.has_value()) << rewrite.error();
  std::string expected = bytes;
  expected.replace(expected.find("x = loss"), 8, "x = loss.item()");
  EXPECT_EQ(rewrite->bytes, expected);
}

// Issue 41 (Low): a notebook saved with CRLF line ends came back with LF ones, every line changed.
TEST(NotebookTest, KeepsCrlfLineEnds) {
  std::string bytes = jupyter(nlohmann::json::array({code_cell("total += loss\n")}));
  for (size_t at = bytes.find('\n'); at != std::string::npos; at = bytes.find('\n', at + 2))
    bytes.insert(at, 1, '\r');
  const Notebook notebook = parse(bytes);
  const uint32_t at = static_cast<uint32_t>(notebook.code().find("loss") + 4);
  const Edit edit{{at, at}, {}, ".item()"};
  const Edit* edits[] = {&edit};
  auto rewrite = notebook.rewrite(edits);
  ASSERT_TRUE(rewrite.has_value()) << rewrite.error();
  std::string expected = bytes;
  expected.replace(expected.find("loss\\n"), 4, "loss.item()");
  EXPECT_EQ(rewrite->bytes, expected);
}

TEST(NotebookTest, RefusesEditsOnANeutralisedLineOrAcrossCells) {
  const Notebook notebook = parse(jupyter({code_cell("%time x = 1\ny = 2"), code_cell("z = 3")}));
  EXPECT_FALSE(notebook.editable({6, 7}));    // on `%time x = 1`
  EXPECT_TRUE(notebook.editable({16, 17}));   // the `2` of `y = 2`
  EXPECT_TRUE(notebook.editable({17, 17}));   // the end of `y = 2`
  EXPECT_FALSE(notebook.editable({17, 18}));  // the newline added between the cells
  EXPECT_FALSE(notebook.editable({16, 20}));
}

}  // namespace
}  // namespace sealint::notebook
