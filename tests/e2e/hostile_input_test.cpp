// End-to-end: inputs built to break a parser or an analyser (empty, BOM + CRLF, very deep, very
// long, very large, half-broken) end in an exit code, never a crash or a hang.
#include <sys/stat.h>  // mkfifo

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analyzer/core/sanitizer.h"
#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class HostileInputTest : public E2eTest {};

// `text` with every "\n" turned into "\r\n".
std::string with_crlf(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::string repeated(std::string_view piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

TEST_F(HostileInputTest, AcceptsAnEmptyFile) {
  write("empty.py", "");
  const RunOutput run = this->run({"empty.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "No findings in 1 file.\n");
  EXPECT_EQ(run.err, "");
}

TEST_F(HostileInputTest, ReportsTheLeakAtItsLineAndColumnInABomAndCrlfFile) {
  write("train.py", "\xEF\xBB\xBF" + with_crlf(kLeakyTrainPy));
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py:10:9: error[SL001]")) << describe(run);
  EXPECT_EQ(run.err, "");
}

TEST_F(HostileInputTest, RejectsTwoHundredThousandNestedParenthesesWithoutCrashing) {
  constexpr size_t kDepth = 200'000;
  write("deep.py", "x = " + std::string(kDepth, '(') + "1" + std::string(kDepth, ')') + "\n");
  const RunOutput run = this->run({"deep.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, AnyOf(HasSubstr("nested"), HasSubstr("syntax error"))) << describe(run);
}

TEST_F(HostileInputTest, SurvivesAThreeHundredThousandTermExpression) {
  constexpr size_t kTerms = 300'000;
  write("long.py", "x = a" + repeated(" + a", kTerms - 1) + "\n");
  const RunOutput run = this->run({"long.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_THAT(run.exit_code, AnyOf(0, 2)) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("in 1 file")) << describe(run);  // the summary: it finished
}

// A chain of method calls on a value nothing is known of (a builder, a fluent API): grad-flow once
// evaluated each receiver twice, so the work doubled with every call of the chain and 60 calls
// never finished. The run's hang guard fails the test if that comes back.
TEST_F(HostileInputTest, FinishesAChainOfAHundredMethodCalls) {
  write("chain.py", "import torch\n\n\ndef build(x):\n    return x" + repeated(".a()", 100) + "\n");
  const RunOutput run = this->run({"chain.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "No findings in 1 file.\n") << describe(run);
}

// How many times smaller the inputs of the tests that only exercise scale are in an
// AddressSanitizer build (the `sanitize` preset). There sealint runs about three times slower, and
// what the sanitizer checks (each piece parsed, lowered and freed) is the same on a quarter of the
// file; the release build keeps the full size.
constexpr size_t kSanitizerShrink = kAddressSanitizer ? 4 : 1;

// One import, then small functions until the file passes 20 MiB (5 MiB, 80 parse pieces, under
// AddressSanitizer). (How time grows with the count of one construct, imports included, is
// bench/scaling.py's to measure.)
TEST_F(HostileInputTest, FinishesATwentyMegabyteFileOfSmallFunctions) {
  constexpr size_t kBytes = 20 * 1024 * 1024 / kSanitizerShrink;
  std::string text = "import torch\n";
  text.reserve(kBytes + 1024);
  for (size_t i = 0; text.size() < kBytes; ++i) {
    text += "\n\ndef train_" + std::to_string(i) +
            "(model, loader, optimizer, criterion):\n"
            "    total = 0.0\n"
            "    for x, y in loader:\n"
            "        loss = criterion(model(x), y)\n"
            "        total += loss.item()\n"
            "    return total\n";
  }
  write("big.py", text);
  const RunOutput run = this->run({"big.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_THAT(run.exit_code, AnyOf(0, 1)) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("in 1 file")) << describe(run);  // the summary: it finished
}

// Grad flow once copied everything it knew at each `if` to merge the branches: forty thousand
// top-level branches took about four minutes. A merge now costs what the branches changed.
TEST_F(HostileInputTest, FinishesAModuleOfFortyThousandBranches) {
  std::string text = "import torch\n";
  for (int i = 0; i < 40'000; ++i) {
    const std::string n = std::to_string(i);
    text +=
        "v" + n + " = torch.zeros(" + n + ")\nif v" + n + ":\n    w" + n + " = v" + n + " + 1\n";
  }
  write("branches.py", text);
  const RunOutput run = this->run({"branches.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "No findings in 1 file.\n") << describe(run);
}

// An `elif` chain is as many nested `if`s to the analysis, which the parser's depth limit does
// not bound: 100,000 branches overflowed the default 8 MiB stack (SIGSEGV), with one job and
// with several. Workers now run on large stacks (analyzer/driver/worker_threads.h), one job too.
// Under AddressSanitizer (about 15 s of CPU a run) only several jobs: its checks of the deep walk
// are the same with one, and the release build runs both.
TEST_F(HostileInputTest, FinishesAnElifChainOfAHundredThousandBranches) {
  std::string text = "import torch\ndef f(x):\n    if x == 0:\n        y = torch.zeros(1)\n";
  for (int i = 1; i < 100'000; ++i) {
    const std::string n = std::to_string(i);
    text += "    elif x == " + n + ":\n        y = torch.zeros(" + n + ")\n";
  }
  write("dispatch.py", text);
  write("other.py", "x = 1\n");
  const std::vector<const char*> job_counts =
      kAddressSanitizer ? std::vector<const char*>{"2"} : std::vector<const char*>{"1", "2"};
  for (const char* jobs : job_counts) {
    const RunOutput run = this->run({"--jobs", jobs, "dispatch.py", "other.py"});
    ASSERT_TRUE(run.exited) << describe(run);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    EXPECT_EQ(run.out, "No findings in 2 files.\n") << describe(run);
  }
}

// tree-sitter's runtime before 0.20.8 (Debian's 0.20.7) corrupted its heap on 65,535 or more
// consecutive comment or continuation lines (upstream #2134); the whole run crashed.
TEST_F(HostileInputTest, ReportsALeakBelowSeventyThousandCommentLines) {
  constexpr size_t kLines = 70'000;
  std::string text = "import torch\n" + repeated("# a note\n", kLines);
  text += kLeakyTrainPy.substr(kLeakyTrainPy.find('\n') + 1);
  write("train.py", text);
  const RunOutput run = this->run({"train.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py:70010:9: error[SL001]")) << describe(run);
}

// The same run of continuation lines no longer crashes, but tree-sitter-python's scanner is
// quadratic in it (70,000 lines take over a minute): the parse's time budget ends it.
TEST_F(HostileInputTest, StopsParsingSeventyThousandContinuationLinesAtTheTimeBudget) {
  constexpr size_t kLines = 70'000;
  write("long.py", "x = (1 + \\\n" + repeated("  \\\n", kLines) + "  2)\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"long.py", "train.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  // 10 s of CPU, three times that under AddressSanitizer (analyzer/python/parse_budget.h).
  const std::string budget = kAddressSanitizer ? "30 s" : "10 s";
  EXPECT_THAT(run.err, HasSubstr("'long.py' takes more than " + budget + " to parse; not analysed"))
      << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py:10:9: error[SL001]")) << describe(run);
}

// A named pipe with a .py name has no writer: reading it would block for ever.
TEST_F(HostileInputTest, DoesNotHangOnANamedPipeInAFolder) {
  write("project/train.py", kLeakyTrainPy);
  ASSERT_EQ(::mkfifo((cwd() / "project/pipe.py").c_str(), 0600), 0) << std::strerror(errno);
  const RunOutput run = this->run({"project"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("project/train.py:10:9: error[SL001]")) << describe(run);
}

// A character device has no size to check before reading: the limit holds while reading.
TEST_F(HostileInputTest, StopsReadingAnEndlessDevice) {
  const RunOutput run = this->run({"/dev/zero"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("'/dev/zero' is larger than 64 MiB; not analysed"))
      << describe(run);
}

TEST_F(HostileInputTest, StopsReadingAnEndlessStdin) {
  const std::string endless = repeated("x = 1  # yes\n", 6'000'000);  // 78 MB
  const RunOutput run = this->run({"-"}, endless);
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("'<stdin>' is larger than 64 MiB; not analysed")) << describe(run);
}

// Named on the command line, a FIFO with no writer reads as empty instead of blocking.
TEST_F(HostileInputTest, DoesNotHangOnANamedPipeNamedOnTheCommandLine) {
  ASSERT_EQ(::mkfifo((cwd() / "pipe.py").c_str(), 0600), 0) << std::strerror(errno);
  const RunOutput run = this->run({"pipe.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_THAT(run.exit_code, AnyOf(0, 2)) << describe(run);
}

// Clang reads a C++ file's includes itself: one that names a FIFO without a writer would block
// the run, one that names a device would be read without end. Each is "not found" instead.
TEST_F(HostileInputTest, DoesNotHangOnACppIncludeOfAPipeOrADevice) {
  ASSERT_EQ(::mkfifo((cwd() / "pipe.h").c_str(), 0600), 0) << std::strerror(errno);
  write("model.cpp",
        "#include \"pipe.h\"\n#include \"/dev/zero\"\n#include \"/dev/stdin\"\n"
        "int main() { return 0; }\n");
  const RunOutput run = this->run({"model.cpp"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("'pipe.h' file not found")) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("nor '/dev/zero', '/dev/stdin'")) << describe(run);
}

// A file name is bytes: one that is not UTF-8 is written with U+FFFD in JSON (whose strings hold
// UTF-8 only) and percent-encoded in a SARIF URI, instead of ending with an internal error.
TEST_F(HostileInputTest, WritesJsonAndSarifForAFileNameThatIsNotUtf8) {
  write(
      "tr\xff"
      "ain.py",
      kLeakyTrainPy);
  const RunOutput json = this->run({"--format", "json", "."});
  ASSERT_TRUE(json.exited) << describe(json);
  EXPECT_EQ(json.exit_code, 1) << describe(json);
  EXPECT_THAT(json.out, HasSubstr("\"tr\xEF\xBF\xBD"
                                  "ain.py\""))
      << describe(json);
  const RunOutput sarif = this->run({"--format", "sarif", "."});
  ASSERT_TRUE(sarif.exited) << sarif.err;
  EXPECT_EQ(sarif.exit_code, 1) << sarif.err;
  EXPECT_THAT(sarif.out, HasSubstr("\"uri\": \"tr%FFain.py\"")) << sarif.err;
}

TEST_F(HostileInputTest, ConfirmSaysAScriptPathMustBeUtf8) {
  write(
      "tr\xff"
      "ain.py",
      kLeakyTrainPy);
  const RunOutput run = this->run({"confirm", "--python", "/usr/bin/python3",
                                   "tr\xff"
                                   "ain.py"});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("needs a script whose path is UTF-8")) << describe(run);
}

// A newline in a file name must not start a line of its own: it could forge a finding.
TEST_F(HostileInputTest, PrintsControlCharactersInAFileNameEscaped) {
  write("ok.py:1:1: error[SL001]: forged\n\x1b[2Jtrain.py", kLeakyTrainPy);
  const RunOutput run = this->run({"."});
  ASSERT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("ok.py:1:1: error[SL001]: forged\\x0a\\x1b[2Jtrain.py:10:9: "))
      << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("\x1b"))) << describe(run);
}

TEST_F(HostileInputTest, StillReportsALeakBelowALocalSyntaxError) {
  std::string text = "import torch\nx = = 1\n";
  text += kLeakyTrainPy.substr(kLeakyTrainPy.find('\n') + 1);  // the leak, one line lower
  write("train.py", text);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, StartsWith("train.py:2:5: error: syntax error")) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py:11:9: error[SL001]")) << describe(run);
}

}  // namespace
}  // namespace sealint::e2e
