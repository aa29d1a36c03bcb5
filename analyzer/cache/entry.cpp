#include "analyzer/cache/entry.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analyzer/cache/hmac.h"
#include "analyzer/core/fixes.h"

namespace sealint::cache {

namespace {

using Json = nlohmann::json;

// Deeper than any entry encode_entry writes (a diagnostic's position is five levels down): a
// hostile entry nested a million deep would otherwise recurse in nlohmann's CBOR reader.
constexpr size_t kMaxDepth = 16;

// nlohmann's DOM builder behind a depth bound: past it, the parse stops (nlohmann's CBOR reader
// returns before it recurses when a start_* callback says no).
class BoundedDom final : public nlohmann::json_sax<Json> {
 public:
  explicit BoundedDom(Json& root) : dom_(root, false) {}
  bool null() override { return dom_.null(); }
  bool boolean(bool value) override { return dom_.boolean(value); }
  bool number_integer(number_integer_t value) override { return dom_.number_integer(value); }
  bool number_unsigned(number_unsigned_t value) override { return dom_.number_unsigned(value); }
  bool number_float(number_float_t value, const string_t& text) override {
    return dom_.number_float(value, text);
  }
  bool string(string_t& value) override { return dom_.string(value); }
  bool binary(binary_t& value) override { return dom_.binary(value); }
  bool start_object(std::size_t elements) override {
    return ++depth_ <= kMaxDepth && dom_.start_object(elements);
  }
  bool key(string_t& value) override { return dom_.key(value); }
  bool end_object() override {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t elements) override {
    return ++depth_ <= kMaxDepth && dom_.start_array(elements);
  }
  bool end_array() override {
    --depth_;
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& error) override {
    return dom_.parse_error(position, token, error);
  }

 private:
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  size_t depth_ = 0;
};

// Thrown by the readers below on a value encode_entry would not have written; caught (with
// nlohmann's own exceptions) in decode_entry, the adapter.
struct Malformed {};

const Json& at(const Json& object, std::string_view name) {
  if (!object.is_object()) throw Malformed{};
  auto it = object.find(name);
  if (it == object.end()) throw Malformed{};
  return *it;
}

uint64_t u64(const Json& value) {
  if (!value.is_number_unsigned()) throw Malformed{};
  return value.get<uint64_t>();
}

uint32_t u32(const Json& value) {
  const uint64_t wide = u64(value);
  if (wide > std::numeric_limits<uint32_t>::max()) throw Malformed{};
  return static_cast<uint32_t>(wide);
}

bool boolean(const Json& value) {
  if (!value.is_boolean()) throw Malformed{};
  return value.get<bool>();
}

std::string text(const Json& value) {
  if (!value.is_string()) throw Malformed{};
  return value.get<std::string>();
}

const Json& array(const Json& value, size_t size = std::numeric_limits<size_t>::max()) {
  if (!value.is_array() || (size != std::numeric_limits<size_t>::max() && value.size() != size))
    throw Malformed{};
  return value;
}

std::vector<std::string> texts(const Json& value) {
  std::vector<std::string> out;
  for (const Json& item : array(value)) out.push_back(text(item));
  return out;
}

// An enum stored as its underlying number: `last` is its greatest enumerator.
template <class E>
E enumerator(const Json& value, E last) {
  const uint64_t number = u64(value);
  if (number > static_cast<uint64_t>(last)) throw Malformed{};
  return static_cast<E>(number);
}

template <class E>
Json number_of(E value) {
  return static_cast<uint64_t>(value);
}

Json position_json(const Position& p) {
  return Json::array({p.line, p.column, p.utf16_column, p.offset, p.cell});
}

Position position_from(const Json& value) {
  const Json& a = array(value, 5);
  return {u32(a[0]), u32(a[1]), u32(a[2]), u32(a[3]), u32(a[4])};
}

Json span_json(const Span& span) {
  return Json::array({position_json(span.begin), position_json(span.end)});
}

Span span_from(const Json& value) {
  const Json& a = array(value, 2);
  return {position_from(a[0]), position_from(a[1])};
}

Json fix_json(const Fix& fix) {
  Json edits = Json::array();
  for (const Edit& edit : fix.edits) {
    edits.push_back({{"range", {edit.range.begin, edit.range.end}},
                     {"span", span_json(edit.span)},
                     {"replacement", edit.replacement}});
  }
  return {{"title", fix.title}, {"safe", fix.safe}, {"edits", std::move(edits)}};
}

Fix fix_from(const Json& value) {
  Fix fix{text(at(value, "title")), boolean(at(value, "safe")), {}};
  for (const Json& item : array(at(value, "edits"))) {
    const Json& range = array(at(item, "range"), 2);
    Edit edit{
        {u32(range[0]), u32(range[1])}, span_from(at(item, "span")), text(at(item, "replacement"))};
    if (edit.range.begin > edit.range.end) throw Malformed{};
    fix.edits.push_back(std::move(edit));
  }
  return fix;
}

Json probe_json(const ProbeHint& probe) {
  return {{"measure", number_of(probe.measure)},
          {"loop_line", probe.loop_line},
          {"loop_end_line", probe.loop_end_line},
          {"variables", probe.variables},
          {"region", number_of(probe.region)},
          {"function", probe.function},
          {"length_of", probe.length_of},
          {"count_of", probe.count_of},
          {"count", probe.count},
          {"loop_repeats", probe.loop_repeats}};
}

ProbeHint probe_from(const Json& value) {
  ProbeHint probe;
  probe.measure = enumerator(at(value, "measure"), ProbeMeasure::Graph);
  probe.loop_line = u32(at(value, "loop_line"));
  probe.loop_end_line = u32(at(value, "loop_end_line"));
  probe.variables = texts(at(value, "variables"));
  probe.region = enumerator(at(value, "region"), ProbeRegion::Calls);
  probe.function = text(at(value, "function"));
  probe.length_of = text(at(value, "length_of"));
  probe.count_of = text(at(value, "count_of"));
  probe.count = u64(at(value, "count"));
  probe.loop_repeats = boolean(at(value, "loop_repeats"));
  return probe;
}

Json diagnostic_json(const Diagnostic& d) {
  // Lint results never carry confirm mode's verdicts; an entry that dropped one would not give
  // back what was stored.
  assert(!d.confirmation && !d.after_fix && "only lint results are cached");
  Json related = Json::array();
  for (const RelatedLocation& r : d.related)
    related.push_back({{"span", span_json(r.span)}, {"message", r.message}});
  Json out = {
      {"rule_id", d.rule_id}, {"rule_name", d.rule_name},      {"severity", number_of(d.severity)},
      {"path", d.path},       {"span", span_json(d.span)},     {"message", d.message},
      {"help", d.help},       {"related", std::move(related)}, {"suppressed", d.suppressed}};
  if (d.fix) out["fix"] = fix_json(*d.fix);
  if (d.probe) out["probe"] = probe_json(*d.probe);
  return out;
}

Diagnostic diagnostic_from(const Json& value) {
  Diagnostic d;
  d.rule_id = text(at(value, "rule_id"));
  d.rule_name = text(at(value, "rule_name"));
  d.severity = enumerator(at(value, "severity"), Severity::Error);
  d.path = text(at(value, "path"));
  d.span = span_from(at(value, "span"));
  d.message = text(at(value, "message"));
  d.help = text(at(value, "help"));
  for (const Json& item : array(at(value, "related")))
    d.related.push_back({span_from(at(item, "span")), text(at(item, "message"))});
  d.suppressed = boolean(at(value, "suppressed"));
  if (value.contains("fix")) d.fix = fix_from(value["fix"]);
  if (value.contains("probe")) d.probe = probe_from(value["probe"]);
  return d;
}

Json error_json(const InputError& e) {
  Json out = {{"path", e.path},
              {"message", e.message},
              {"warning", e.warning},
              {"once_a_run", e.once_a_run}};
  if (e.at) out["at"] = position_json(*e.at);
  if (!e.missing_headers.empty()) out["missing_headers"] = e.missing_headers;
  return out;
}

InputError error_from(const Json& value) {
  InputError e{text(at(value, "path")), std::nullopt, text(at(value, "message")),
               boolean(at(value, "warning")), boolean(at(value, "once_a_run"))};
  if (value.contains("at")) e.at = position_from(value["at"]);
  if (value.contains("missing_headers")) e.missing_headers = texts(value["missing_headers"]);
  return e;
}

Json left_out_json(const LeftOutTest& t) {
  return {{"path", t.path}, {"function", t.function}, {"line", t.line}, {"rules", t.rules}};
}

LeftOutTest left_out_from(const Json& value) {
  return {text(at(value, "path")), text(at(value, "function")), u32(at(value, "line")),
          texts(at(value, "rules"))};
}

Json dependencies_json(const project::ProjectDependencies& deps) {
  Json lookups = Json::array();
  for (const project::ImportLookup& l : deps.lookups)
    lookups.push_back({l.importer, l.dotted, l.file, l.member});
  Json files = Json::array();
  for (const auto& [file, digest] : deps.files)
    files.push_back({file, digest ? Json(*digest) : Json()});
  return {{"lookups", std::move(lookups)}, {"files", std::move(files)}};
}

project::ProjectDependencies dependencies_from(const Json& value) {
  project::ProjectDependencies deps;
  for (const Json& item : array(at(value, "lookups"))) {
    const Json& l = array(item, 4);
    deps.lookups.insert({text(l[0]), text(l[1]), text(l[2]), text(l[3])});
  }
  for (const Json& item : array(at(value, "files"))) {
    const Json& f = array(item, 2);
    deps.files.emplace(text(f[0]), f[1].is_null() ? project::IndexedDigest() : u64(f[1]));
  }
  return deps;
}

Json key_json(const EntryKey& key) {
  return {{"path", key.path},
          {"shown", key.shown},
          {"absolute", key.absolute},
          {"digest", key.digest},
          {"size", key.size},
          {"config", key.config},
          {"project_scope", key.project_scope}};
}

EntryKey key_from(const Json& value) {
  return {text(at(value, "path")),
          text(at(value, "shown")),
          text(at(value, "absolute")),
          u64(at(value, "digest")),
          u64(at(value, "size")),
          u64(at(value, "config")),
          boolean(at(value, "project_scope"))};
}

// The seal of an entry's body: only a holder of `secret` can make it.
Digest seal(const Secret& secret, std::string_view body) {
  return hmac_sha256(secret, body);
}

}  // namespace

std::string entry_name(const EntryKey& key) {
  uint64_t digest = content_digest(key.absolute);
  digest = content_digest(std::string_view("\0", 1), digest);
  digest = content_digest(key.shown, digest);
  digest = content_digest(std::string_view("\0", 1), digest);
  digest = content_digest(key.path, digest);
  return fmt::format("{:016x}", digest);
}

std::string encode_entry(const Entry& entry, const Secret& secret) {
  Json diagnostics = Json::array();
  for (const Diagnostic& d : entry.outcome.diagnostics) diagnostics.push_back(diagnostic_json(d));
  Json errors = Json::array();
  for (const InputError& e : entry.outcome.errors) errors.push_back(error_json(e));
  Json left_out = Json::array();
  for (const LeftOutTest& t : entry.outcome.left_out_tests) left_out.push_back(left_out_json(t));
  const Json document = {{"version", entry.identity.version},
                         {"build", entry.identity.build},
                         {"key", key_json(entry.key)},
                         {"dependencies", dependencies_json(entry.outcome.dependencies)},
                         {"diagnostics", std::move(diagnostics)},
                         {"errors", std::move(errors)},
                         {"left_out_tests", std::move(left_out)}};
  const std::vector<uint8_t> payload = Json::to_cbor(document);
  std::string out(kEntryMagic);
  const std::string_view body(reinterpret_cast<const char*>(payload.data()), payload.size());
  const Digest sealed = seal(secret, body);
  out.append(reinterpret_cast<const char*>(sealed.data()), sealed.size());
  out.append(body);
  return out;
}

std::optional<Entry> decode_entry(std::string_view bytes, const Secret& secret) {
  constexpr size_t kHeader = kEntryMagic.size() + sizeof(Digest);
  if (bytes.size() < kHeader || !bytes.starts_with(kEntryMagic)) return std::nullopt;
  const std::string_view body = bytes.substr(kHeader);
  Digest stored{};
  std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(kEntryMagic.size()), stored.size(),
              reinterpret_cast<char*>(stored.data()));
  if (!same_digest(stored, seal(secret, body))) return std::nullopt;
  try {
    Json document;
    BoundedDom dom(document);
    const bool parsed = Json::sax_parse(body.begin(), body.end(), &dom, Json::input_format_t::cbor,
                                        /*strict=*/true);
    if (!parsed || document.is_discarded()) return std::nullopt;
    Entry entry;
    entry.identity = {text(at(document, "version")), text(at(document, "build"))};
    entry.key = key_from(at(document, "key"));
    entry.outcome.dependencies = dependencies_from(at(document, "dependencies"));
    for (const Json& item : array(at(document, "diagnostics")))
      entry.outcome.diagnostics.push_back(diagnostic_from(item));
    for (const Json& item : array(at(document, "errors")))
      entry.outcome.errors.push_back(error_from(item));
    for (const Json& item : array(at(document, "left_out_tests")))
      entry.outcome.left_out_tests.push_back(left_out_from(item));
    return entry;
  } catch (const Malformed&) {
    return std::nullopt;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace sealint::cache
