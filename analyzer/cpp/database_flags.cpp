#include "analyzer/cpp/database_flags.h"

#include <array>
#include <filesystem>
#include <string_view>

namespace sealint::cpp {

namespace {

// Flags that take a folder, joined (`-Ifoo`) or as the next argument (`-I foo`). Not
// `-include FILE`: it makes Clang read a file the repository names before the source (a FIFO or
// /dev/zero would never end).
constexpr std::array<std::string_view, 6> kPathFlags = {"-I",         "-isystem",  "-iquote",
                                                        "-idirafter", "--sysroot", "-isysroot"};
// Flags that take a macro, joined or separate.
constexpr std::array<std::string_view, 2> kMacroFlags = {"-D", "-U"};
// Switches kept as they are: they change what the code means, and run or write nothing.
constexpr std::array<std::string_view, 16> kSwitches = {"-fexceptions",
                                                        "-fno-exceptions",
                                                        "-frtti",
                                                        "-fno-rtti",
                                                        "-fsigned-char",
                                                        "-funsigned-char",
                                                        "-fms-extensions",
                                                        "-fno-ms-extensions",
                                                        "-fPIC",
                                                        "-fpic",
                                                        "-pthread",
                                                        "-nostdinc",
                                                        "-nostdinc++",
                                                        "-m32",
                                                        "-m64",
                                                        "-fno-builtin"};

bool is_one_of(std::string_view arg, const auto& table) {
  for (std::string_view entry : table) {
    if (arg == entry) return true;
  }
  return false;
}

// The flag of `table` that `arg` starts with (`-I` for `-Iinclude`), or empty.
std::string_view prefix_in(std::string_view arg, const auto& table) {
  for (std::string_view entry : table) {
    if (arg.starts_with(entry)) return entry;
  }
  return {};
}

std::string resolved(std::string_view path, const std::string& directory) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || directory.empty()) return std::string(path);
  return (std::filesystem::path(directory) / p).lexically_normal().string();
}

}  // namespace

DatabaseFlags parse_flags_of_entry(const std::vector<std::string>& command_line,
                                   const std::string& file, const std::string& directory) {
  DatabaseFlags flags;
  const std::string file_name = std::filesystem::path(file).filename().string();
  for (size_t i = 1; i < command_line.size(); ++i) {  // [0] is the compiler
    const std::string& arg = command_line[i];
    if (arg == file || std::filesystem::path(arg).filename() == file_name) continue;
    // `@file` is a response file: whatever reads it reads a file the repository names (a FIFO,
    // /dev/zero). Never kept, nor as a flag's value, where it would stand alone once passed on.
    if (arg.starts_with('@')) {
      flags.dropped.push_back(arg);
      continue;
    }
    if (std::string_view flag = prefix_in(arg, kPathFlags); !flag.empty()) {
      // `--sysroot=dir` and `--sysroot dir`; `-Idir` and `-I dir`.
      std::string_view value = std::string_view(arg).substr(flag.size());
      if (value.starts_with('=')) value.remove_prefix(1);
      std::string path;
      if (value.starts_with('-') ||
          (value.empty() && i + 1 < command_line.size() && command_line[i + 1].starts_with('@'))) {
        flags.dropped.push_back(arg);  // `-isystem-after`, `-Ifoo` is fine but `-I-` is not ours
        continue;
      }
      if (!value.empty()) {
        path = std::string(value);
      } else if (arg == flag && i + 1 < command_line.size()) {
        path = command_line[++i];
      } else {
        flags.dropped.push_back(arg);
        continue;
      }
      flags.kept.push_back(std::string(flag));
      flags.kept.push_back(resolved(path, directory));
      continue;
    }
    if (std::string_view flag = prefix_in(arg, kMacroFlags); !flag.empty()) {
      if (arg.size() > flag.size()) {
        flags.kept.push_back(arg);
      } else if (i + 1 < command_line.size()) {
        flags.kept.push_back(arg + command_line[++i]);
      }
      continue;
    }
    if (arg.starts_with("-std=") || arg.starts_with("--std=") || is_one_of(arg, kSwitches)) {
      flags.kept.push_back(arg);
      continue;
    }
    // `-x c++` is the only language kept: `-x cuda` or `-x hip` turns on device compilation.
    if (arg == "-x" && i + 1 < command_line.size()) {
      const std::string& language = command_line[++i];
      if (language == "c++" || language == "c++-header") {
        flags.kept.push_back(arg);
        flags.kept.push_back(language);
      } else {
        flags.dropped.push_back(arg + " " + language);
      }
      continue;
    }
    flags.dropped.push_back(arg);
  }
  return flags;
}

}  // namespace sealint::cpp
