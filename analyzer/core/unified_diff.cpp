#include "analyzer/core/unified_diff.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include <fmt/format.h>

namespace sealint {

namespace {

constexpr size_t kContext = 3;

// Each line with its `\n` (the last may lack it).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

enum class Op { Keep, Delete, Insert };

// Past this many changed lines the edit script is not searched for (its memory grows as their
// square: 2,000 lines take about 32 MB); fixes change a few lines each.
constexpr std::ptrdiff_t kMaxEdits = 2000;

// Every line between the common head and tail deleted, then the new ones inserted: a correct
// script, not the shortest.
std::vector<Op> replace_middle(const std::vector<std::string_view>& a,
                               const std::vector<std::string_view>& b) {
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  std::vector<Op> ops(head, Op::Keep);
  ops.insert(ops.end(), a.size() - head - tail, Op::Delete);
  ops.insert(ops.end(), b.size() - head - tail, Op::Insert);
  ops.insert(ops.end(), tail, Op::Keep);
  return ops;
}

// The shortest edit script turning `a` into `b` (Myers 1986, "An O(ND) Difference Algorithm and
// Its Variations", with the furthest-reaching x of each diagonal kept per step for the walk
// back). Memory is O(D^2) for D changed lines, so past kMaxEdits the middle is replaced whole.
std::vector<Op> edit_script(const std::vector<std::string_view>& a,
                            const std::vector<std::string_view>& b) {
  const auto n = static_cast<std::ptrdiff_t>(a.size());
  const auto m = static_cast<std::ptrdiff_t>(b.size());
  // trace[d][k + d]: the furthest x on diagonal k (x - y) after d edits.
  std::vector<std::vector<std::ptrdiff_t>> trace;
  auto furthest = [&](std::ptrdiff_t d, std::ptrdiff_t k) {
    return trace[static_cast<size_t>(d)][static_cast<size_t>(k + d)];
  };
  // After d edits, diagonal k is reached by an insertion (down from k + 1) or a deletion (right
  // from k - 1), whichever got further.
  auto from_above = [&](std::ptrdiff_t d, std::ptrdiff_t k) {
    return k == -d || (k != d && furthest(d - 1, k - 1) < furthest(d - 1, k + 1));
  };
  bool done = n == 0 && m == 0;
  for (std::ptrdiff_t d = 0; !done; ++d) {
    if (d > kMaxEdits) return replace_middle(a, b);
    std::vector<std::ptrdiff_t> row(static_cast<size_t>(2 * d + 1));
    for (std::ptrdiff_t k = -d; k <= d; k += 2) {
      std::ptrdiff_t x = 0;
      if (d > 0) x = from_above(d, k) ? furthest(d - 1, k + 1) : furthest(d - 1, k - 1) + 1;
      std::ptrdiff_t y = x - k;
      while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) {
        ++x;
        ++y;
      }
      row[static_cast<size_t>(k + d)] = x;
      if (x >= n && y >= m) done = true;
    }
    trace.push_back(std::move(row));
  }
  std::vector<Op> ops;
  std::ptrdiff_t x = n;
  std::ptrdiff_t y = m;
  for (auto d = static_cast<std::ptrdiff_t>(trace.size()) - 1; d > 0; --d) {
    const std::ptrdiff_t k = x - y;
    const bool inserted = from_above(d, k);
    const std::ptrdiff_t previous_k = inserted ? k + 1 : k - 1;
    const std::ptrdiff_t previous_x = furthest(d - 1, previous_k);
    const std::ptrdiff_t previous_y = previous_x - previous_k;
    // The snake of equal lines after the edit, then the edit itself.
    while (x > previous_x && y > previous_y) {
      ops.push_back(Op::Keep);
      --x;
      --y;
    }
    ops.push_back(inserted ? Op::Insert : Op::Delete);
    x = previous_x;
    y = previous_y;
  }
  for (; x > 0; --x) ops.push_back(Op::Keep);
  std::reverse(ops.begin(), ops.end());
  return ops;
}

// `-start,count` or `+start,count`: an empty side names the line before it (0 before the first).
std::string hunk_range(size_t start, size_t count) {
  return fmt::format("{},{}", count == 0 ? start : start + 1, count);
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  const std::vector<std::string_view> old_lines = split_lines(before);
  const std::vector<std::string_view> new_lines = split_lines(after);
  const std::vector<Op> ops = edit_script(old_lines, new_lines);
  std::string out = fmt::format("--- a/{0}\n+++ b/{0}\n", path);
  auto line = [&](char mark, std::string_view text) {
    out += mark;
    out += text;
    if (!text.ends_with('\n')) out += "\n\\ No newline at end of file\n";
  };
  size_t i = 0;
  while (i < ops.size()) {
    if (ops[i] == Op::Keep) {
      ++i;
      continue;
    }
    // A hunk: from this change to the last one less than 2 * kContext + 1 kept lines after the
    // one before it, with kContext kept lines either side.
    const size_t first = i;
    size_t last = i;  // one past the hunk's last change
    for (size_t j = i; j < ops.size();) {
      if (ops[j] != Op::Keep) {
        last = ++j;
        continue;
      }
      size_t kept = j;
      while (kept < ops.size() && ops[kept] == Op::Keep) ++kept;
      if (kept == ops.size() || kept - j > 2 * kContext) break;
      j = kept;
    }
    const size_t begin = first - std::min(first, kContext);
    const size_t end = std::min(ops.size(), last + kContext);
    // Where the hunk starts in each file, and how many of its lines each has.
    size_t old_at = 0;
    size_t new_at = 0;
    for (size_t j = 0; j < begin; ++j) {
      if (ops[j] != Op::Insert) ++old_at;
      if (ops[j] != Op::Delete) ++new_at;
    }
    size_t old_count = 0;
    size_t new_count = 0;
    for (size_t j = begin; j < end; ++j) {
      if (ops[j] != Op::Insert) ++old_count;
      if (ops[j] != Op::Delete) ++new_count;
    }
    out += fmt::format("@@ -{} +{} @@\n", hunk_range(old_at, old_count),
                       hunk_range(new_at, new_count));
    size_t o = old_at;
    size_t n = new_at;
    for (size_t j = begin; j < end;) {
      if (ops[j] == Op::Keep) {
        line(' ', old_lines[o++]);
        ++n;
        ++j;
        continue;
      }
      // A run of changes: its deleted lines, then its inserted ones, as diff prints them.
      size_t run_end = j;
      while (run_end < end && ops[run_end] != Op::Keep) ++run_end;
      for (size_t r = j; r < run_end; ++r) {
        if (ops[r] == Op::Delete) line('-', old_lines[o++]);
      }
      for (size_t r = j; r < run_end; ++r) {
        if (ops[r] == Op::Insert) line('+', new_lines[n++]);
      }
      j = run_end;
    }
    i = end;
  }
  return out;
}

}  // namespace sealint
