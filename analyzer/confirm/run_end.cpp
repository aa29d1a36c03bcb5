#include "analyzer/confirm/run_end.h"

#include <filesystem>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/printable.h"

namespace sealint::confirm {

namespace {

using nlohmann::json;

// The first line of a message, at most `limit` bytes (cut at a UTF-8 boundary).
std::string first_line(std::string_view text, size_t limit) {
  std::string_view line = text.substr(0, text.find('\n'));
  if (line.size() <= limit) return std::string(line);
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0U) == 0x80U) --cut;
  return std::string(line.substr(0, cut)) + "...";
}

std::string exit_kind(const json& result) {
  return text_field(field(result, "exit"), "kind");
}

}  // namespace

Result<RunEnd> check_result(const json& result, bool timed_out, int timeout_seconds) {
  if (!result.is_object() || text_field(result, "format") != "sealint-confirm-result")
    return make_error("the probe's result is not a sealint-confirm-result document");
  if (integer_field(result, "version") != 1) {
    return make_error(fmt::format("the probe's result has version {}; this sealint reads version 1",
                                  field(result, "version").dump()));
  }
  RunEnd end;
  end.timed_out = timed_out;
  const json& exit = field(result, "exit");
  const std::string kind = exit_kind(result);
  if (timed_out) {
    end.summary = fmt::format("the run timed out after {} s", timeout_seconds);
  } else if (kind == "stopped") {
    end.stopped = true;
    end.summary = "stopped after --steps iterations";
  } else if (kind == "completed") {
    end.summary = "the script ended";
  } else if (kind == "exit") {
    end.summary = fmt::format("the script called sys.exit({})", field(exit, "code").dump());
  } else if (kind == "exception") {
    const json& e = field(exit, "exception");
    if (e.is_object()) {
      // The script's own words: shown, never run by the terminal.
      const std::string type = printable(text_field(e, "type", "?"));
      const std::string message = printable(text_field(e, "message"));
      end.summary = fmt::format("the script raised {}: {}", type, first_line(message, 100));
      if (const auto line = integer_field(e, "line"))
        end.summary += fmt::format(" (line {})", *line);
      if (type != "KeyboardInterrupt") {
        end.crash = fmt::format("{}: {}", type, first_line(message, 200));
        const std::string file = printable(text_field(e, "file"));
        if (const auto line = integer_field(e, "line"); line && !file.empty()) {
          end.crash +=
              fmt::format(" ({}, line {})", std::filesystem::path(file).filename().string(), *line);
        }
        end.inplace_after_kept_graph =
            text_field(e, "message").find("modified by an inplace operation") != std::string::npos;
      }
    } else {
      end.summary = "the script raised an exception";
    }
  } else if (kind == "timeout") {
    end.timed_out = true;
    end.summary = fmt::format("the run timed out after {} s", timeout_seconds);
  } else {
    end.summary = "the run ended";
  }
  return end;
}

bool ended_badly(const json& result) {
  const std::string kind = exit_kind(result);
  if (kind == "exception") return true;
  if (kind != "exit") return false;
  return integer_field(field(result, "exit"), "code") != 0;
}

bool measured_nothing(const json& result) {
  const json& loops = field(result, "loops");
  if (!loops.is_array() || loops.empty()) return false;
  for (const json& loop : loops) {
    if (integer_field(loop, "iterations").value_or(0) > 0) return false;
  }
  return true;
}

}  // namespace sealint::confirm
