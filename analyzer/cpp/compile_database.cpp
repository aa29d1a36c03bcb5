#include "analyzer/cpp/compile_database.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <fmt/format.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

#include <filesystem>
#include <memory>

#include "analyzer/core/bounded_read.h"

namespace sealint::cpp {

Result<std::optional<DatabaseFlags>> database_flags_for(const std::string& dir,
                                                        const std::string& file) {
  const std::string path = (std::filesystem::path(dir) / "compile_commands.json").string();
  auto text = read_regular_file_bounded(path, path, kMaxDatabaseBytes);
  if (!text) return make_error(text.error());
  // LLVM's JSON parser first: the database's own (YAML) parser prints its errors on stderr, in
  // its own words; this one returns the place of the first error.
  if (auto parsed = llvm::json::parse(*text); !parsed)
    return make_error(
        fmt::format("'{}' is not valid JSON: {}", path, llvm::toString(parsed.takeError())));
  std::string error;
  auto loaded = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      *text, error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!loaded)
    return make_error(fmt::format("'{}' is not a compilation database: {}", path, error));
  // As LLVM's own loading does, less the response-file expansion: a header takes the flags of the
  // source file nearest to it, and the compiler's name gives the target and driver mode.
  const auto database = clang::tooling::inferTargetAndDriverMode(
      clang::tooling::inferMissingCompileCommands(std::move(loaded)));
  auto commands = database->getCompileCommands(file);
  if (commands.empty()) return std::optional<DatabaseFlags>();
  return std::optional<DatabaseFlags>(
      parse_flags_of_entry(commands.front().CommandLine, file, commands.front().Directory));
}

}  // namespace sealint::cpp
