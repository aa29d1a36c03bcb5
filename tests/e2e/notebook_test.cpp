// End-to-end: Jupyter notebooks (docs/notebooks.md). A notebook's code cells are analysed as one
// source; findings point at the cell and the line in it in every format; suppressions,
// configuration and folder walks apply; `--fix` writes valid notebook JSON back; a malformed
// notebook is an input error.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

namespace fs = std::filesystem;

// The FAQ's leak as Jupyter saves it: `total_loss = 0` in cell 3, the `%%time` loop in cell 4,
// `!pip` and `%matplotlib` lines in cell 2, a markdown cell first.
std::string leaky_notebook() {
  return read_file(source_dir() / "examples/notebooks/leaky_total_loss.ipynb");
}

// A notebook of code cells, each given as its source text, in Jupyter's layout.
std::string notebook_of(const std::vector<std::string>& cells,
                        const nlohmann::json& metadata = nlohmann::json::object()) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const std::string& source : cells) {
    list.push_back({{"cell_type", "code"},
                    {"execution_count", nullptr},
                    {"metadata", nlohmann::ordered_json::object()},
                    {"outputs", nlohmann::ordered_json::array()},
                    {"source", source}});
  }
  const nlohmann::ordered_json document = {
      {"cells", list}, {"metadata", metadata}, {"nbformat", 4}, {"nbformat_minor", 5}};
  return document.dump(1) + "\n";
}

constexpr std::string_view kSetupCell =
    "import torch\n"
    "from torch import nn\n"
    "model = nn.Linear(16, 1)\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.01)\n"
    "criterion = nn.MSELoss()\n";

// The loop of a second cell; `{}` is what the loop adds the loss to.
std::string loop_cell(std::string_view accumulate) {
  return "for step in range(10):\n"
         "    optimizer.zero_grad()\n"
         "    loss = criterion(model(torch.randn(4, 16)), torch.randn(4, 1))\n"
         "    loss.backward()\n"
         "    optimizer.step()\n" +
         std::string(accumulate) + "\n";
}

nlohmann::json parse_json(const RunOutput& run) {
  nlohmann::json parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << describe(run);
  return parsed;
}

using NotebookTest = E2eTest;

TEST_F(NotebookTest, TextPointsAtTheCellAndTheLineInIt) {
  write("nb.ipynb", leaky_notebook());
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("nb.ipynb:cell 4:9:5: error[SL001]: `loss` is added to "
                                 "`total_loss` with its autograd graph"));
  // The snippet is the cell's line, numbered in the cell.
  EXPECT_THAT(run.out, HasSubstr("9 |     total_loss += loss  # a tensor"));
  EXPECT_THAT(run.out, HasSubstr("= note: nb.ipynb:cell 3:5:1: `total_loss` is created here"));
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 1 file."));
}

TEST_F(NotebookTest, JsonGivesTheCellOfEveryPosition) {
  write("nb.ipynb", leaky_notebook());
  const RunOutput run = this->run({"--format", "json", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const nlohmann::json findings = parse_json(run);
  ASSERT_EQ(findings.size(), 1U) << run.out;
  const nlohmann::json& start = findings[0]["range"]["start"];
  EXPECT_EQ(start["cell"], 4) << run.out;
  EXPECT_EQ(start["line"], 9) << run.out;
  EXPECT_EQ(start["column"], 5) << run.out;
  EXPECT_EQ(findings[0]["related"][0]["range"]["start"]["cell"], 3) << run.out;
  EXPECT_EQ(findings[0]["related"][0]["range"]["start"]["line"], 5) << run.out;
  EXPECT_EQ(findings[0]["fix"]["edits"][0]["range"]["start"]["cell"], 4) << run.out;
}

TEST_F(NotebookTest, SarifNamesTheCellInEachRegionAndOffersNoFixOnTheJson) {
  write("nb.ipynb", leaky_notebook());
  const RunOutput run = this->run({"--format", "sarif", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const nlohmann::json log = parse_json(run);
  const nlohmann::json& result = log["runs"][0]["results"][0];
  const nlohmann::json& region = result["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"], 9) << run.out;
  EXPECT_EQ(region["startColumn"], 5) << run.out;
  EXPECT_EQ(region["properties"]["cell"], 4) << run.out;
  EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["region"]["properties"]["cell"], 3);
  EXPECT_THAT(result["message"]["text"].get<std::string>(), ::testing::StartsWith("In cell 4: "));
  EXPECT_FALSE(result.contains("fixes")) << run.out;
}

TEST_F(NotebookTest, GithubAnnotatesTheFileAndNamesTheCellInTheTitle) {
  write("nb.ipynb", leaky_notebook());
  const RunOutput run = this->run({"--format", "github", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, ::testing::StartsWith(
                           "::error file=nb.ipynb,title=SL001 grad-accumulation (cell 4%2C line "
                           "9%2C column 5)::`loss` is added to `total_loss`"));
}

TEST_F(NotebookTest, SeesANameBoundInAnEarlierCell) {
  // Cells share one namespace: the list of cell 1 outlives the loop of cell 2.
  write("nb.ipynb", notebook_of({std::string(kSetupCell) + "losses = []",
                                 loop_cell("    losses.append(loss)")}));
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("nb.ipynb:cell 2:6:5: error[SL002]"));
  EXPECT_THAT(run.out, HasSubstr("= note: nb.ipynb:cell 1:6:1:"));
}

TEST_F(NotebookTest, ReadsCellsFullOfIpythonSyntax) {
  write("nb.ipynb",
        notebook_of({"%load_ext autoreload\n%autoreload 2\n!pip install -q torch\npip install x\n" +
                         std::string(kSetupCell) + "total = 0\nnn.Linear?\n",
                     "%%time\n" + loop_cell("    total += loss"),
                     "files = !ls\nfor f in files:\n    !echo {f}\n"}));
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("nb.ipynb:cell 2:7:5: error[SL001]"));
}

TEST_F(NotebookTest, ACommentInACellSuppressesItsLine) {
  write("nb.ipynb", notebook_of({std::string(kSetupCell) + "total = 0",
                                 loop_cell("    total += loss  # sealint: ignore[SL001]")}));
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file; 1 suppressed."));
}

TEST_F(NotebookTest, IgnoreFileInAnyCellAppliesToTheWholeNotebook) {
  write("nb.ipynb",
        notebook_of({"# sealint: ignore-file[SL001]\n" + std::string(kSetupCell) + "total = 0",
                     loop_cell("    total += loss")}));
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("1 suppressed"));
}

TEST_F(NotebookTest, PerFileIgnoresMatchNotebooks) {
  write("pyproject.toml", "[tool.sealint.per-file-ignores]\n\"*.ipynb\" = [\"SL001\"]\n");
  write("nb.ipynb", leaky_notebook());
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("train.py" + std::string(kLeakAt)));
  EXPECT_THAT(run.out, Not(HasSubstr("nb.ipynb")));
}

TEST_F(NotebookTest, WalksFoldersForNotebooksButNotCheckpointsOrIgnoredOnes) {
  write("nb/leaky.ipynb", leaky_notebook());
  write("nb/.ipynb_checkpoints/leaky-checkpoint.ipynb", leaky_notebook());
  write("nb/scratch/old.ipynb", leaky_notebook());
  write("nb/generated.ipynb", leaky_notebook());
  write(".gitignore", "scratch/\n");
  fs::create_directories(cwd() / ".git");
  const RunOutput run = this->run({"--exclude", "generated.ipynb", "nb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("nb/leaky.ipynb:cell 4:9:5: error[SL001]"));
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 1 file."));
}

TEST_F(NotebookTest, FixWritesTheFixedCellIntoValidNotebookJson) {
  const std::string before = leaky_notebook();
  const fs::path path = write("nb.ipynb", before);
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Fixed 1 finding."));
  const std::string after = read_file(path);
  // Only the fixed line of the cell changed: every other byte, the layout included, is kept.
  std::string expected = before;
  const std::string line = "\"    total_loss += loss  #";
  ASSERT_NE(expected.find(line), std::string::npos);
  expected.replace(expected.find(line), line.size(), "\"    total_loss += loss.detach().item()  #");
  EXPECT_EQ(after, expected);
  const nlohmann::json parsed = nlohmann::json::parse(after, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << after;
  EXPECT_EQ(
      parsed["cells"][3]["source"][8],
      "    total_loss += loss.detach().item()  # a tensor: keeps this step's graph reachable");
  const RunOutput again = this->run({"nb.ipynb"});
  EXPECT_EQ(again.exit_code, 0) << describe(again);
  // No temporary file is left beside the notebook (the result cache's folder aside).
  size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(cwd()))
    entries += entry.path().filename() == ".sealint_cache" ? 0U : 1U;
  EXPECT_EQ(entries, 1U);
}

TEST_F(NotebookTest, DiffShowsTheChangeOfEachCellAndWritesNothing) {
  const std::string before = leaky_notebook();
  const fs::path path = write("nb.ipynb", before);
  const RunOutput run = this->run({"--diff", "--unsafe-fixes", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("--- a/nb.ipynb:cell 4\n+++ b/nb.ipynb:cell 4\n"));
  EXPECT_THAT(run.out, HasSubstr("\n-    total_loss += loss  #"));
  EXPECT_THAT(run.out, HasSubstr("\n+    total_loss += loss.detach().item()  #"));
  EXPECT_EQ(read_file(path), before);
}

TEST_F(NotebookTest, FixOfStdinPrintsTheFixedNotebook) {
  const RunOutput run =
      this->run({"--fix", "--unsafe-fixes", "--stdin-filename", "nb.ipynb", "-"}, leaky_notebook());
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  const nlohmann::json parsed = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << describe(run);
  EXPECT_THAT(parsed["cells"][3]["source"][8].get<std::string>(),
              HasSubstr("total_loss += loss.detach().item()"));
}

TEST_F(NotebookTest, AMalformedNotebookIsAnInputError) {
  struct Case {
    std::string bytes;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"{\"cells\": [", "'bad.ipynb' is not a notebook: invalid JSON at line 1, column 12"},
      {"{\"nbformat\": 4}", "'bad.ipynb' is not a notebook: it has no `cells` list"},
      {"{\"nbformat\": 3, \"worksheets\": []}", "'bad.ipynb' is an nbformat 3 notebook"},
      {"print('hello')\n", "'bad.ipynb' is not a notebook: invalid JSON at line 1, column 1"},
  };
  for (const Case& c : cases) {
    write("bad.ipynb", c.bytes);
    write("train.py", kLeakyTrainPy);
    const RunOutput run = this->run({"bad.ipynb", "train.py"});
    // As a syntax error: exit 2, the message on stderr, and the other file still analysed.
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_THAT(run.err, HasSubstr("bad.ipynb: error: " + c.message)) << describe(run);
    EXPECT_THAT(run.out, HasSubstr("train.py" + std::string(kLeakAt))) << describe(run);
  }
}

TEST_F(NotebookTest, ASyntaxErrorPointsAtItsCell) {
  write("nb.ipynb", notebook_of({"x = 1", "def broken(:\n    pass\n"}));
  const RunOutput run = this->run({"nb.ipynb"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("nb.ipynb:cell 2:1:")) << describe(run);
  const RunOutput json = this->run({"--format", "json", "nb.ipynb"});
  EXPECT_EQ(parse_json(json)[0]["range"]["start"]["cell"], 2) << describe(json);
}

TEST_F(NotebookTest, ANotebookOfAnotherLanguageIsReportedAndNotAnalysed) {
  write("r.ipynb", notebook_of({"x <- c(1, 2)"}, {{"kernelspec", {{"language", "R"}}}}));
  const RunOutput run = this->run({"r.ipynb"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(
      run.err,
      HasSubstr("r.ipynb: warning: 'r.ipynb' is a notebook in r, not Python; not analysed"));
}

TEST_F(NotebookTest, ConfirmModeRefusesANotebook) {
  write("nb.ipynb", leaky_notebook());
  const RunOutput run = this->run({"confirm", "nb.ipynb"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("confirm mode runs scripts, not notebooks"));
  EXPECT_THAT(run.err, HasSubstr("jupyter nbconvert --to script nb.ipynb"));
}

}  // namespace
}  // namespace sealint::e2e
