#include "analyzer/ir/place_state.h"

#include <utility>

namespace sealint::ir {

namespace {

// A place present on one side of a merge only is unknown on the other; absent on both, absent.
std::optional<Fact> join_optional(const std::optional<Fact>& a, const std::optional<Fact>& b) {
  if (!a && !b) return std::nullopt;
  return join(a.value_or(Fact{}), b.value_or(Fact{}));
}

}  // namespace

const Fact* PlaceState::find(std::string_view key) const {
  auto it = facts_.find(key);
  return it == facts_.end() ? nullptr : &it->second;
}

std::optional<Fact> PlaceState::value_of(std::string_view key) const {
  const Fact* fact = find(key);
  return fact == nullptr ? std::nullopt : std::optional<Fact>(*fact);
}

void PlaceState::note_write(const std::string& key) {
  if (journals_.empty()) return;
  Journal& journal = journals_.back();
  if (!journal.contains(key)) journal.emplace(key, value_of(key));
}

void PlaceState::assign(const std::string& key, const std::optional<Fact>& value) {
  note_write(key);
  if (value)
    facts_[key] = *value;
  else
    facts_.erase(key);
}

void PlaceState::set(const std::string& key, const Fact& fact) {
  note_write(key);
  facts_[key] = fact;
}

void PlaceState::erase(const std::string& key) {
  if (!facts_.contains(key)) return;
  note_write(key);
  facts_.erase(key);
}

void PlaceState::erase_below(const std::string& key) {
  for (const char separator : {'.', '['}) {
    // Keys from "x." up to, not including, "x/" (the character after '.'); likewise "x[".
    const auto first = facts_.lower_bound(key + separator);
    const auto past = facts_.lower_bound(key + static_cast<char>(separator + 1));
    for (auto it = first; it != past; ++it) note_write(it->first);
    facts_.erase(first, past);
  }
}

void PlaceState::open_scope() {
  journals_.emplace_back();
}

void PlaceState::close_scope() {
  Journal closed = std::move(journals_.back());
  journals_.pop_back();
  if (journals_.empty()) return;
  // A place the enclosing scope had not written yet had, before the inner scope, the value the
  // enclosing scope opened with.
  journals_.back().merge(closed);
}

void PlaceState::join_with_scope_start() {
  const Journal& journal = journals_.back();
  for (const auto& [key, before] : journal) {
    if (auto joined = join_optional(before, value_of(key))) facts_[key] = *joined;
  }
}

PlaceState::Branch PlaceState::undo_scope() {
  Branch branch;
  Journal& journal = journals_.back();
  for (auto& [key, before] : journal) {
    branch.written.emplace_back(key, value_of(key));
    branch.written_keys.insert(key);
    if (before)
      facts_[key] = *before;
    else
      facts_.erase(key);
  }
  journal.clear();
  return branch;
}

void PlaceState::join_with_branch(const Branch& taken) {
  // What the other branch wrote is journaled in the scope (with the values before both
  // branches); what it did not write still holds the value before both.
  std::vector<std::pair<std::string, std::optional<Fact>>> joined;
  for (const auto& [key, taken_value] : taken.written)
    joined.emplace_back(key, join_optional(taken_value, value_of(key)));
  for (const auto& [key, before] : journals_.back()) {
    if (!taken.written_keys.contains(key))
      joined.emplace_back(key, join_optional(before, value_of(key)));
  }
  for (const auto& [key, value] : joined) assign(key, value);
}

}  // namespace sealint::ir
