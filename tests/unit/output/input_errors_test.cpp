#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/output/text_output.h"

namespace sealint::output {
namespace {

// A C++ file's warning that `headers` were not found, as the C++ frontend makes it.
InputError lacking(const std::string& path, std::vector<std::string> headers) {
  InputError e{path, Position{1, 1}, fmt::format("C++: '{}' file not found (...)", headers.front()),
               true};
  e.missing_headers = std::move(headers);
  return e;
}

std::string written(const std::vector<InputError>& errors) {
  std::ostringstream out;
  write_input_errors(out, errors, {false});
  return out.str();
}

TEST(InputErrorsTest, KeepsTheWarningOfTheOneFileThatLackedHeaders) {
  const std::string out = written({lacking("a.cpp", {"cv.h"})});
  EXPECT_EQ(out, "a.cpp:1:1: warning: C++: 'cv.h' file not found (...)\n");
}

TEST(InputErrorsTest, SaysOnceForEveryFileThatLackedHeaders) {
  const std::string out = written({
      {"x.py", std::nullopt, "cannot read 'x.py': permission denied"},
      lacking("a.cpp", {"opencv2/opencv.hpp", "net.h"}),
      lacking("b.cpp", {"opencv2/opencv.hpp"}),
      lacking("c.cpp", {"boost/any.hpp", "boost/any.hpp"}),
  });
  EXPECT_EQ(out,
            "x.py: error: cannot read 'x.py': permission denied\n"
            "sealint: warning: C++: 3 files were analysed without headers that were not found, "
            "so findings there may be missed: 'opencv2/opencv.hpp' (2 files), 'boost/any.hpp' "
            "(1 file), 'net.h' (1 file) (pass -p BUILD_DIR to use the project's "
            "compile_commands.json)\n");
}

TEST(InputErrorsTest, NamesTheFiveHeadersMissingMostAndCountsTheRest) {
  std::vector<InputError> errors;
  for (int i = 0; i < 7; ++i)
    errors.push_back(lacking(fmt::format("f{}.cpp", i), {fmt::format("h{}.h", i)}));
  EXPECT_NE(written(errors).find("'h4.h' (1 file) and 2 more headers (pass"), std::string::npos)
      << written(errors);
}

}  // namespace
}  // namespace sealint::output
