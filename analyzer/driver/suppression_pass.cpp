#include "analyzer/driver/suppression_pass.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/suppressions.h"
#include "analyzer/ir/walk.h"

namespace sealint {

namespace {

// One suppression comment and what it silenced.
struct Record {
  Suppression suppression;
  ir::SourceRange comment;
  uint32_t first_line = 0;  // the lines it covers
  uint32_t last_line = 0;
  std::optional<ir::SourceRange> block_end;  // a NOLINTBEGIN's NOLINTEND comment
  bool block_end_alone = true;               // that NOLINTEND holds nothing else
  std::vector<bool> used;                    // per id; one slot for "every rule"
};

// The first line of the innermost statement holding `offset` (a multi-line statement is
// suppressed from its first line), or 0.
uint32_t statement_first_line(const ir::Module& module, uint32_t offset) {
  const ir::Stmt* innermost = nullptr;
  for (const ir::Function& function : module.functions()) {
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (stmt.range.begin > offset || offset >= stmt.range.end) return;
      if (innermost == nullptr ||
          stmt.range.end - stmt.range.begin < innermost->range.end - innermost->range.begin) {
        innermost = &stmt;
      }
    });
  }
  return innermost == nullptr ? 0 : module.file().position(innermost->range.begin).line;
}

// An id of a comment meant for sealint: `SLxxx`, or any id of a `sealint:` comment (other
// linters' codes in `# noqa: E501` or `// NOLINT(bugprone-x)` are theirs).
bool is_our_id(std::string_view comment, std::string_view id) {
  return id.starts_with("SL") || comment.find("sealint") != std::string_view::npos;
}

bool names_our_rule(std::string_view text, const Suppression& suppression) {
  if (suppression.rules.empty()) return true;  // only `# sealint: ignore` has no ids
  return std::any_of(suppression.rules.begin(), suppression.rules.end(),
                     [&](const std::string& id) { return is_our_id(text, id); });
}

std::string id_list(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i != 0) out += i + 1 == ids.size() ? " and " : ", ";
    out += ids[i];
  }
  return out;
}

class SuppressionPass {
 public:
  SuppressionPass(const ir::Module& module, const rules::RuleRegistry& registry,
                  std::vector<InputError>& errors)
      : module_(module), file_(module.file()), registry_(registry), errors_(errors) {}

  void read_comments() {
    std::vector<Record> open_blocks;
    for (const ir::SourceRange& comment : module_.comments) {
      const std::string_view text = file_.code().substr(comment.begin, comment.end - comment.begin);
      auto suppression = parse_suppression(text);
      if (!suppression) continue;
      // `ignore[tensor-collection]` names SL002 by its name: matched, counted and judged as its id.
      for (std::string& id : suppression->rules) {
        if (const rules::Rule* rule = registry_.find(id); rule != nullptr) id = rule->info().id;
      }
      if (!names_our_rule(text, *suppression)) continue;
      const uint32_t line = file_.position(comment.begin).line;
      warn_unknown_ids(text, *suppression, comment);
      Record record{*suppression, comment, line, line, std::nullopt, true, {}};
      record.used.assign(std::max<size_t>(suppression->rules.size(), 1), false);
      switch (suppression->scope) {
        case SuppressionScope::Line:
          break;
        case SuppressionScope::NextLine:
          record.first_line = record.last_line = line + 1;
          break;
        case SuppressionScope::File:
          record.first_line = 0;
          record.last_line = std::numeric_limits<uint32_t>::max();
          break;
        case SuppressionScope::BlockBegin:
          open_blocks.push_back(std::move(record));
          continue;
        case SuppressionScope::BlockEnd:
          close_block(open_blocks, *suppression, comment, line);
          continue;
      }
      records_.push_back(std::move(record));
    }
    // clang-tidy's rule: a NOLINTBEGIN without its NOLINTEND silences nothing.
    for (const Record& open : open_blocks)
      warn(open.comment, fmt::format("`NOLINTBEGIN({})` has no matching `NOLINTEND`; it silences "
                                     "nothing",
                                     id_list(open.suppression.rules)));
  }

  void silence(std::vector<Diagnostic>& diagnostics) {
    if (records_.empty()) return;
    for (Diagnostic& d : diagnostics) silence(d, nullptr);
  }

  // SL012: each suppression that silenced nothing, for the ids of rules that ran. In two
  // rounds: SL012's own findings exist only after the first, and a comment that silences them
  // (`# sealint: ignore-file[SL012]`, a bare `# sealint: ignore`) is judged in the second.
  void report_unused(const UnusedSuppressionCheck& check, std::vector<Diagnostic>& diagnostics) {
    for (const bool second_round : {false, true}) {
      for (size_t r = 0; r < records_.size(); ++r)
        report_unused(r, check, second_round, diagnostics);
    }
  }

 private:
  void report_unused(size_t index, const UnusedSuppressionCheck& check, bool second_round,
                     std::vector<Diagnostic>& diagnostics) {
    const Record& record = records_[index];
    const auto& ids = record.suppression.rules;
    const std::string_view own_id = check.rule->id;
    const bool every_rule = ids.empty();
    std::vector<std::string> unused;
    bool all_ours_and_unused = true;
    for (size_t i = 0; i < ids.size(); ++i) {
      const rules::Rule* rule = registry_.find(ids[i]);
      const bool ran = rule != nullptr && std::find(check.rules_run.begin(), check.rules_run.end(),
                                                    rule->info().id) != check.rules_run.end();
      const bool judged_now = rule != nullptr && (rule->info().id == own_id) == second_round;
      if (ran && !record.used[i] && judged_now) {
        unused.push_back(ids[i]);
      } else if (!ran || record.used[i]) {
        all_ours_and_unused = false;
      }
    }
    if (every_rule) {
      // Every rule: judged only when every rule that could run on the file ran, after SL012's
      // own findings had their chance to use it.
      if (!second_round || record.used[0] || !check.every_rule_ran) return;
    } else if (unused.empty()) {
      return;
    }
    const std::string message =
        every_rule ? fmt::format("unused suppression: no finding {}", where(record))
                   : fmt::format("unused suppression of {}: no such finding {}", id_list(unused),
                                 where(record));
    // The fix deletes the comment only when no id of it is used or unjudged, in either round.
    const bool whole = every_rule || (all_ours_and_unused && unused.size() == ids.size());
    std::optional<Fix> fix;
    if (whole && record.suppression.alone && record.block_end_alone) fix = removal(record);
    DiagnosticSink sink(file_, diagnostics);
    Diagnostic& reported = sink.report(
        *check.rule, {record.comment.begin, record.comment.end}, message,
        whole ? "remove the comment: a stale suppression would hide the leak a later edit brings "
                "back"
              : "remove the ids that silence nothing: a stale suppression would hide the leak a "
                "later edit brings back",
        {}, std::move(fix));
    // `# sealint: ignore-file[SL012]` silences these too; a comment never silences itself.
    silence(reported, &records_[index]);
  }

  // Marks `d` suppressed when a comment other than `skip` covers it, and that comment used.
  void silence(Diagnostic& d, const Record* skip) {
    const uint32_t line = d.span.begin.line;
    // The statement's first line costs a walk of the file: only asked for when needed.
    std::optional<uint32_t> statement_line;
    auto covers = [&](const Record& record) {
      if (line >= record.first_line && line <= record.last_line) return true;
      if (!statement_line) statement_line = statement_first_line(module_, d.span.begin.offset);
      return *statement_line != 0 && *statement_line >= record.first_line &&
             *statement_line <= record.last_line;
    };
    for (Record& record : records_) {
      if (&record == skip || !suppresses(record.suppression, d.rule_id) || !covers(record))
        continue;
      d.suppressed = true;
      const auto& ids = record.suppression.rules;
      if (ids.empty()) record.used[0] = true;
      for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == d.rule_id) record.used[i] = true;
      }
    }
  }

  void warn(const ir::SourceRange& comment, std::string message) {
    errors_.push_back(
        {std::string(file_.path()), file_.position(comment.begin), std::move(message), true});
  }

  void warn_unknown_ids(std::string_view text, const Suppression& suppression,
                        const ir::SourceRange& comment) {
    for (const std::string& id : suppression.rules) {
      if (is_our_id(text, id) && registry_.find(id) == nullptr)
        warn(comment, fmt::format("unknown rule '{}' in a suppression comment", id));
    }
  }

  // A NOLINTEND closes the latest open NOLINTBEGIN with the same ids, as clang-tidy pairs them.
  void close_block(std::vector<Record>& open_blocks, const Suppression& end,
                   const ir::SourceRange& comment, uint32_t line) {
    auto same_ids = [&](const Record& begin) {
      auto a = begin.suppression.rules;
      auto b = end.rules;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      return a == b;
    };
    auto begin = std::find_if(open_blocks.rbegin(), open_blocks.rend(), same_ids);
    if (begin == open_blocks.rend()) {
      warn(comment,
           fmt::format("`NOLINTEND({})` has no matching `NOLINTBEGIN`", id_list(end.rules)));
      return;
    }
    Record record = std::move(*begin);
    open_blocks.erase(std::next(begin).base());
    record.last_line = line;
    record.block_end = comment;
    record.block_end_alone = end.alone;
    records_.push_back(std::move(record));
  }

  static std::string where(const Record& record) {
    switch (record.suppression.scope) {
      case SuppressionScope::NextLine:
        return "on the next line";
      case SuppressionScope::File:
        return "in this file";
      case SuppressionScope::BlockBegin:
        return "between here and its `NOLINTEND`";
      default:
        return "on this line";
    }
  }

  // Deletes the comment: with the blanks before it when code precedes it on the line, else the
  // whole line. A block's NOLINTEND goes with its NOLINTBEGIN.
  Fix removal(const Record& record) const {
    Fix fix{"Remove the unused suppression", true, {}};
    fix.edits.push_back({comment_removal(record.comment), {}, ""});
    if (record.block_end) fix.edits.push_back({comment_removal(*record.block_end), {}, ""});
    return fix;
  }

  ByteRange comment_removal(const ir::SourceRange& comment) const {
    const std::string_view code = file_.code();
    uint32_t begin = comment.begin;
    while (begin > 0 && (code[begin - 1] == ' ' || code[begin - 1] == '\t')) --begin;
    const bool own_line = begin == 0 || code[begin - 1] == '\n';
    if (!own_line) {
      // A comment's range may take a CRLF line's `\r`: it stays with its `\n`.
      uint32_t end = comment.end;
      if (end > comment.begin && code[end - 1] == '\r') --end;
      return {begin, end};
    }
    uint32_t end = comment.end;
    if (end < code.size() && code[end] == '\r') ++end;
    if (end < code.size() && code[end] == '\n') ++end;
    return {begin, end};
  }

  const ir::Module& module_;
  const SourceFile& file_;
  const rules::RuleRegistry& registry_;
  std::vector<InputError>& errors_;
  std::vector<Record> records_;
};

}  // namespace

void apply_suppressions(const ir::Module& module, const rules::RuleRegistry& registry,
                        const UnusedSuppressionCheck& unused, std::vector<Diagnostic>& diagnostics,
                        std::vector<InputError>& errors) {
  SuppressionPass pass(module, registry, errors);
  pass.read_comments();
  pass.silence(diagnostics);
  if (unused.rule != nullptr) pass.report_unused(unused, diagnostics);
}

}  // namespace sealint
