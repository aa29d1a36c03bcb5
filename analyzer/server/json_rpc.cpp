#include "analyzer/server/json_rpc.h"

namespace sealint::server {

namespace {

bool valid_id(const Json& id) {
  return id.is_string() || id.is_number_integer();
}

std::string dump(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

Incoming classify(std::string_view body) {
  // No exceptions: a parse error is a discarded value.
  Json message = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return Invalid{nullptr, ErrorCode::ParseError, "invalid JSON"};
  if (!message.is_object()) {
    // Batches are JSON-RPC's, not LSP's: no client sends one.
    return Invalid{nullptr, ErrorCode::InvalidRequest,
                   message.is_array() ? "batches are not supported" : "a message is an object"};
  }
  Json id = nullptr;
  if (auto it = message.find("id"); it != message.end()) {
    if (!valid_id(*it)) return Invalid{nullptr, ErrorCode::InvalidRequest, "invalid id"};
    id = *it;
  }
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0")
    return Invalid{id, ErrorCode::InvalidRequest, "jsonrpc must be \"2.0\""};
  const auto method = message.find("method");
  if (method == message.end()) {
    if (message.contains("result") || message.contains("error")) return Response{};
    return Invalid{id, ErrorCode::InvalidRequest, "a message without a method"};
  }
  if (!method->is_string()) return Invalid{id, ErrorCode::InvalidRequest, "method is no string"};
  Json params = nullptr;
  if (auto it = message.find("params"); it != message.end()) {
    if (!it->is_object() && !it->is_array())
      return Invalid{id, ErrorCode::InvalidRequest, "params must be an object or an array"};
    params = std::move(*it);
  }
  if (id.is_null()) return Notification{method->get<std::string>(), std::move(params)};
  return Request{std::move(id), method->get<std::string>(), std::move(params)};
}

std::string result_body(const Json& id, const Json& result) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

std::string error_body(const Json& id, ErrorCode code, std::string_view message) {
  return dump({{"jsonrpc", "2.0"},
               {"id", id},
               {"error", {{"code", static_cast<int>(code)}, {"message", message}}}});
}

std::string notification_body(std::string_view method, const Json& params) {
  return dump({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

std::string request_body(const Json& id, std::string_view method, const Json& params) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

const Json* member(const Json& value, std::initializer_list<std::string_view> path) {
  const Json* at = &value;
  for (std::string_view key : path) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::optional<std::string> string_member(const Json& value,
                                         std::initializer_list<std::string_view> path) {
  const Json* at = member(value, path);
  if (at == nullptr || !at->is_string()) return std::nullopt;
  return at->get<std::string>();
}

std::optional<int64_t> integer_member(const Json& value,
                                      std::initializer_list<std::string_view> path) {
  const Json* at = member(value, path);
  if (at == nullptr || !at->is_number_integer()) return std::nullopt;
  return at->get<int64_t>();
}

bool bool_member(const Json& value, std::initializer_list<std::string_view> path) {
  const Json* at = member(value, path);
  return at != nullptr && at->is_boolean() && at->get<bool>();
}

}  // namespace sealint::server
