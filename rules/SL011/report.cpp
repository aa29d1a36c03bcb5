#include "rules/SL011/report.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rules/support/quote.h"

namespace sealint::rules::sl011 {

namespace {

struct Wording {
  std::string_view what;
  std::string_view help;
};

Wording wording(Shape shape) {
  constexpr std::string_view kListHelp =
      "keep the data in numpy arrays or tensors instead (`np.array(paths, dtype=np.bytes_)` for "
      "strings, one array per field for records), which workers read without copying";
  switch (shape) {
    case Shape::List:
      return {"a Python list built from the data", kListHelp};
    case Shape::Set:
      return {"a Python set built from the data", kListHelp};
    case Shape::Tuple:
      return {"a Python tuple built from the data", kListHelp};
    case Shape::Dict:
      return {"a Python dict built from the data",
              "keep keys and values in numpy arrays or tensors instead (index by position, or "
              "look keys up in a sorted array), which workers read without copying"};
    case Shape::Loaded:
      return {"Python objects loaded from a file",
              "convert the records to numpy arrays or tensors (one array per field, "
              "`dtype=np.bytes_` for strings), or keep them serialized in one byte array and "
              "decode an item in `__getitem__`"};
  }
  return {};
}

}  // namespace

void report(const ir::Module& module, std::string_view dataset, std::string_view key,
            const ir::Stmt& stmt, const Value& value, const LoaderUse& loader,
            DiagnosticSink& sink) {
  const Wording words = wording(value.shape);
  const Workers& workers = loader.workers;
  const std::string count = quote(module, *workers.expr).text;
  std::string message;
  if (workers.count == Workers::Count::Positive) {
    message = fmt::format(
        "`{}` holds {}; reading an object writes its reference count, so each of the {} "
        "DataLoader workers ends up with its own copy of the objects it reads",
        key, words.what, workers.n);
  } else {
    message = fmt::format(
        "`{}` holds {}; reading an object writes its reference count, so when `num_workers` "
        "(`{}`) > 0 each DataLoader worker ends up with its own copy of the objects it reads",
        key, words.what, count);
  }
  std::vector<Related> related;
  if (value.fill != nullptr)
    related.push_back({value.fill->range, fmt::format("`{}` is filled here", value.fill_key)});
  related.push_back({loader.call->range,
                     fmt::format("`{}` is loaded here with `num_workers={}`", dataset, count)});
  if (loader.via != nullptr) {
    related.push_back({loader.via->range, fmt::format("`{}` passes the dataset here",
                                                      quote(module, *loader.via->callee()).text)});
  }
  const SourceFile& file = module.file();
  if (file.position(workers.expr->range.begin).line !=
      file.position(loader.call->range.begin).line) {
    related.push_back({workers.expr->range, "`num_workers` is set here"});
  }
  sink.report(info(), stmt.range, std::move(message), std::string(words.help), std::move(related));
}

}  // namespace sealint::rules::sl011
