// End-to-end: the JSON output's shape, and the full text and JSON output checked against goldens.
//
// Goldens live in tests/e2e/golden/<case>.{txt,json}: sealint's whole stdout with the temp dir
// replaced by [TMP] and the version by [VERSION]. To regenerate them after an intended change:
//   SEALINT_UPDATE_GOLDEN=1 ctest --preset release -L e2e
// (each golden test then rewrites its file and is skipped), and read `git diff tests/e2e/golden`.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;

namespace fs = std::filesystem;

class JsonOutputTest : public E2eTest {
 protected:
  // Runs `--format json` on the leaky file at `path` and parses stdout.
  nlohmann::json findings_for(const std::string& path) {
    const RunOutput run = this->run({"--format", "json", path});
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    nlohmann::json parsed = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << "stdout is not JSON\n" << describe(run);
    return parsed;
  }
};

TEST_F(JsonOutputTest, PrintsAnArrayOfFindingsWithEveryKey) {
  write("train.py", kLeakyTrainPy);
  const nlohmann::json findings = findings_for("train.py");
  ASSERT_TRUE(findings.is_array()) << findings.dump(2);
  ASSERT_EQ(findings.size(), 1U) << findings.dump(2);
  for (const nlohmann::json& finding : findings) {
    for (const char* key :
         {"rule", "name", "severity", "message", "help", "path", "range", "related", "fix"}) {
      EXPECT_TRUE(finding.contains(key)) << "no \"" << key << "\" in " << finding.dump(2);
    }
    EXPECT_EQ(finding.value("rule", ""), "SL001");
    const nlohmann::json start =
        finding.value("range", nlohmann::json::object()).value("start", nlohmann::json::object());
    EXPECT_EQ(start.value("line", 0), 10) << finding.dump(2);
    EXPECT_EQ(start.value("column", 0), 9) << finding.dump(2);
    EXPECT_TRUE(finding.value("related", nlohmann::json()).is_array()) << finding.dump(2);
  }
}

// A message quotes the first 40 bytes of a long statement: the cut falls inside an "é", and the
// quote must end at a whole character or JSON and SARIF cannot be written (exit 2 before).
TEST_F(JsonOutputTest, CutsAQuoteAtACharacterBoundary) {
  write("graph.py",
        "import tensorflow as tf\n"
        "\n"
        "def train():\n"
        "    x = tf.placeholder(tf.float32, [None, 10])\n"
        "    loss = tf.reduce_mean(tf.square(x))\n"
        "    sess = tf.Session()\n"
        "    for step in range(100):\n"
        "        loss += tf.constant(1.0, "
        "name=\"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\")\n"
        "        print(sess.run(loss))\n");
  const nlohmann::json findings = findings_for("graph.py");
  ASSERT_TRUE(findings.is_array() && findings.size() == 1U) << findings.dump(2);
  EXPECT_THAT(
      findings[0].value("message", ""),
      ::testing::StartsWith("`loss += tf.constant(1.0, name=\"\u00e9\u00e9\u00e9\u00e9...`"));
  const RunOutput sarif = run({"--format", "sarif", "graph.py"});
  EXPECT_EQ(sarif.exit_code, 1) << describe(sarif);
  EXPECT_FALSE(nlohmann::json::parse(sarif.out, nullptr, false).is_discarded()) << describe(sarif);
}

TEST_F(JsonOutputTest, GivesPathsRelativeToTheWorkingDirectory) {
  const fs::path absolute = write("src/train.py", kLeakyTrainPy);
  const nlohmann::json findings = findings_for(absolute.string());
  ASSERT_TRUE(findings.is_array() && findings.size() == 1U) << findings.dump(2);
  EXPECT_EQ(findings[0].value("path", ""), "src/train.py");
}

class GoldenTest : public E2eTest {
 protected:
  // Temp dir -> [TMP], version -> [VERSION], so the golden is the same on every machine.
  std::string normalize(std::string text) const {
    replace_all(text, cwd().string(), "[TMP]");
    const RunOutput version = run({"--version"});
    std::string number = version.out;
    while (!number.empty() && (number.back() == '\n' || number.back() == '\r')) number.pop_back();
    if (number.starts_with("sealint ")) number.erase(0, 8);
    if (!number.empty()) replace_all(text, number, "[VERSION]");
    return text;
  }

  // A SARIF log with each rule's documentation (`fullDescription`, `help`: docs/rules/*.md, which
  // change with every rule's wording) replaced by a marker, so that a golden compares what the
  // run found and not the docs; RulesCarryTheirDocsInSarif checks that the docs are there.
  static std::string without_rule_docs(const std::string& sarif) {
    nlohmann::json log = nlohmann::json::parse(sarif, nullptr, false);
    if (log.is_discarded()) return sarif;  // then the comparison shows what was printed
    for (auto& run : log["runs"]) {
      for (auto& rule : run["tool"]["driver"]["rules"]) {
        if (rule.contains("fullDescription")) rule["fullDescription"] = {{"text", "(docs)"}};
        if (rule.contains("help")) rule["help"] = {{"markdown", "(docs)"}, {"text", "(docs)"}};
      }
    }
    return log.dump(2) + "\n";
  }

  // Compares `actual` with tests/e2e/golden/`name`, or rewrites it under SEALINT_UPDATE_GOLDEN=1.
  void expect_golden(std::string_view name, const std::string& actual) const {
    const fs::path golden = source_dir() / "tests/e2e/golden" / name;
    const char* update = std::getenv("SEALINT_UPDATE_GOLDEN");
    if (update != nullptr && std::string_view(update) == "1") {
      fs::create_directories(golden.parent_path());
      std::ofstream(golden, std::ios::binary | std::ios::trunc) << actual;
      std::cerr << "rewrote " << golden.string() << '\n';  // then compared, and so passing
    }
    ASSERT_TRUE(fs::exists(golden))
        << golden.string() << " is missing; run with SEALINT_UPDATE_GOLDEN=1 to write it";
    EXPECT_EQ(actual, read_file(golden)) << "stdout differs from " << golden.string();
  }

 private:
  static void replace_all(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty()) return;
    for (size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  }
};

TEST_F(GoldenTest, MatchesTheTextGoldenForTheLeakyFile) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  ASSERT_EQ(run.exit_code, 1) << describe(run);
  expect_golden("leaky.txt", normalize(run.out));
}

TEST_F(GoldenTest, MatchesTheJsonGoldenForTheLeakyFile) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--format", "json", "train.py"});
  ASSERT_EQ(run.exit_code, 1) << describe(run);
  expect_golden("leaky.json", normalize(run.out));
}

TEST_F(GoldenTest, MatchesTheSarifGoldenForTheLeakyFile) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--format", "sarif", "train.py"});
  ASSERT_EQ(run.exit_code, 1) << describe(run);
  expect_golden("leaky.sarif", without_rule_docs(normalize(run.out)));
}

TEST_F(GoldenTest, RulesCarryTheirDocsInSarif) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--format", "sarif", "train.py"});
  ASSERT_EQ(run.exit_code, 1) << describe(run);
  const nlohmann::json log = nlohmann::json::parse(run.out);
  const nlohmann::json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_FALSE(rules.empty()) << run.out;
  const nlohmann::json& first = rules[0];
  EXPECT_EQ(first["id"], "SL001");
  // The rule's page, as docs/rules/SL001.md has it: its title and a section of the page.
  const std::string markdown = first["help"]["markdown"].get<std::string>();
  EXPECT_THAT(markdown, ::testing::StartsWith("# SL001 grad-accumulation"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("## "));
  // The full description says the mechanism (the page's "Why it leaks"), not the summary again.
  EXPECT_NE(first["fullDescription"]["text"], first["shortDescription"]["text"]);
  EXPECT_THAT(first["fullDescription"]["text"].get<std::string>(), ::testing::HasSubstr("grad_fn"));
  for (const nlohmann::json& rule : rules) {
    EXPECT_FALSE(rule["help"]["markdown"].get<std::string>().empty()) << rule["id"];
  }
}

TEST_F(GoldenTest, MatchesTheGithubGoldenForTheLeakyFile) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--format", "github", "train.py"});
  ASSERT_EQ(run.exit_code, 1) << describe(run);
  expect_golden("leaky.github", normalize(run.out));
}

// The FAQ's leak in a notebook (docs/notebooks.md): each format points at cell 4, line 9.
TEST_F(GoldenTest, MatchesTheGoldensOfEachFormatForTheLeakyNotebook) {
  write("leaky.ipynb", read_file(source_dir() / "examples/notebooks/leaky_total_loss.ipynb"));
  for (const std::string format : {"text", "json", "sarif", "github"}) {
    const RunOutput run = this->run({"--format", format, "leaky.ipynb"});
    ASSERT_EQ(run.exit_code, 1) << describe(run);
    const std::string out =
        format == "sarif" ? without_rule_docs(normalize(run.out)) : normalize(run.out);
    expect_golden("notebook." + (format == "text" ? std::string("txt") : format), out);
  }
}

TEST_F(GoldenTest, ExitsTwoWithEachFormatOnAnInputError) {
  write("train.py", kLeakyTrainPy);
  for (const char* format : {"text", "json", "sarif", "github"}) {
    const RunOutput run = this->run({"--format", format, "train.py", "missing.py"});
    EXPECT_EQ(run.exit_code, 2) << format << "\n" << describe(run);
    EXPECT_NE(run.out.find("SL001"), std::string::npos)
        << format << ": the other file is still reported";
  }
}

TEST_F(GoldenTest, SarifAndGithubCarryTheInputErrorsForCiReviewers) {
  write("train.py", kLeakyTrainPy);
  write("broken.py", "def f(:\n    pass\n");
  const RunOutput sarif = this->run({"--format", "sarif", "train.py", "broken.py"});
  const nlohmann::json log = nlohmann::json::parse(sarif.out);
  const nlohmann::json& invocation = log["runs"][0]["invocations"][0];
  EXPECT_FALSE(invocation["executionSuccessful"].get<bool>()) << sarif.out;
  const nlohmann::json& notification = invocation["toolExecutionNotifications"][0];
  EXPECT_EQ(notification["level"], "error") << sarif.out;
  EXPECT_EQ(notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "broken.py")
      << sarif.out;
  const std::string message = log["runs"][0]["results"][0]["message"]["text"];
  EXPECT_EQ(message.find(". add"), std::string::npos) << "a help sentence starts lower-case";
  const RunOutput github = this->run({"--format", "github", "train.py", "broken.py"});
  EXPECT_THAT(github.out, HasSubstr("::error file=broken.py,line=1,")) << describe(github);
}

// JSON carries an input problem as an element whose `rule` is null, as ruff's JSON does for a
// syntax error, in path order with the findings.
TEST_F(GoldenTest, JsonCarriesTheInputErrorsAsElementsWithoutARule) {
  write("train.py", kLeakyTrainPy);
  write("broken.py", "def f(:\n    pass\n");
  const RunOutput run = this->run({"--format", "json", "train.py", "broken.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  const nlohmann::json array = nlohmann::json::parse(run.out);
  ASSERT_EQ(array.size(), 2U) << run.out;
  EXPECT_TRUE(array[0]["rule"].is_null()) << run.out;
  EXPECT_EQ(array[0]["path"], "broken.py") << run.out;
  EXPECT_EQ(array[0]["severity"], "error") << run.out;
  EXPECT_EQ(array[0]["range"]["start"]["line"], 1) << run.out;
  EXPECT_EQ(array[1]["rule"], "SL001") << run.out;
  // The page as of the version that made the report, not `main`'s.
  EXPECT_THAT(
      array[1]["url"].get<std::string>(),
      ::testing::MatchesRegex(
          R"(https://github\.com/sealint/sealint/blob/v[0-9]+\.[0-9]+\.[0-9]+/docs/rules/SL001\.md)"))
      << run.out;
}

TEST_F(GoldenTest, ExitsZeroWithEachFormatOnACleanFile) {
  write("train.py", kCleanTrainPy);
  for (const char* format : {"text", "json", "sarif", "github"}) {
    const RunOutput run = this->run({"--format", format, "train.py"});
    EXPECT_EQ(run.exit_code, 0) << format << "\n" << describe(run);
  }
}

}  // namespace
}  // namespace sealint::e2e
