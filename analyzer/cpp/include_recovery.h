#pragma once
// Recovery from `#include`s Clang cannot find. A missing header is a fatal error to Clang: it
// stops reading every later `#include` (so `<torch/torch.h>` after a missing `<opencv2/...>` is
// never read) and reports nothing more, and findings are silently lost. Here a header that
// cannot be found is skipped, as an empty file would be, so the parse goes on; what it skipped is
// recorded for the warning that says which code may be affected (parse_report.h).
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace clang {
class Preprocessor;
}  // namespace clang

namespace sealint::cpp {

struct SkippedInclude {
  std::string name;  // as written: `opencv2/opencv.hpp`
  // Where the `#include` is: in the analysed file (`at`), or in the header `in_header`:line.
  std::optional<Position> at;
  std::string in_header;
  uint32_t header_line = 0;
};

// What the preprocessor skipped or met, read once the parse is over.
struct IncludeLog {
  std::vector<SkippedInclude> skipped;
  // With sealint's model of LibTorch: a LibTorch header (`torch/`, `ATen/`, `c10/`) that the model
  // does not have, so that the code expects names the model may lack.
  std::vector<std::string> torch_headers_outside_model;
  // Where each skipped header would have been found had it been there: the includer's folder for
  // a quoted name, then every include folder in Clang's order. A header that appears at one of
  // them later changes the parse, so the result cache keys on their absence.
  std::vector<std::string> absent_candidates;
};

// Makes `preprocessor` skip headers it cannot find, logging into `log` (which must outlive the
// parse). `model_root` is the model's virtual include folder, empty with the real headers.
void recover_missing_includes(clang::Preprocessor& preprocessor, IncludeLog& log,
                              std::string model_root);

}  // namespace sealint::cpp
