#include "analyzer/confirm/run_end.h"

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"

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
  const json exit = result.value("exit", json::object());
  return exit.is_object() && exit.value("kind", json()).is_string()
             ? exit["kind"].get<std::string>()
             : std::string();
}

}  // namespace

Result<RunEnd> check_result(const json& result, bool timed_out, int timeout_seconds) {
  if (!result.is_object() || result.value("format", std::string()) != "sealint-confirm-result")
    return make_error("the probe's result is not a sealint-confirm-result document");
  if (result.value("version", 0) != 1) {
    return make_error(fmt::format("the probe's result has version {}; this sealint reads version 1",
                                  result.value("version", json()).dump()));
  }
  RunEnd end;
  end.timed_out = timed_out;
  const json exit = result.value("exit", json::object());
  const std::string kind = exit.is_object() ? exit.value("kind", std::string()) : std::string();
  if (timed_out) {
    end.summary = fmt::format("the run timed out after {} s", timeout_seconds);
  } else if (kind == "stopped") {
    end.stopped = true;
    end.summary = "stopped after --steps iterations";
  } else if (kind == "completed") {
    end.summary = "the script ended";
  } else if (kind == "exit") {
    end.summary = fmt::format("the script called sys.exit({})", exit.value("code", json()).dump());
  } else if (kind == "exception") {
    const json e = exit.value("exception", json::object());
    if (e.is_object()) {
      end.summary = fmt::format("the script raised {}: {}", e.value("type", std::string("?")),
                                first_line(e.value("message", std::string()), 100));
      if (e.value("line", json()).is_number())
        end.summary += fmt::format(" (line {})", e["line"].get<long>());
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
  const json code = result["exit"].value("code", json());
  return !(code.is_number_integer() && code.get<long long>() == 0);
}

bool measured_nothing(const json& result) {
  const json& loops = field(result, "loops");
  if (!loops.is_array() || loops.empty()) return false;
  for (const json& loop : loops) {
    if (!loop.is_object()) continue;
    const json iterations = loop.value("iterations", json());
    if (iterations.is_number_integer() && iterations.get<long long>() > 0) return false;
  }
  return true;
}

}  // namespace sealint::confirm
