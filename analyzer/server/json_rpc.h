#pragma once
// JSON-RPC 2.0 as LSP uses it: what an incoming body is (a request, a notification, a response to
// one of ours, or something the server must answer with an error), and the bodies the server
// sends. nlohmann-json parses without exceptions here (a malformed body is an answer, not a crash).
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace sealint::server {

using Json = nlohmann::json;

// JSON-RPC's and LSP's error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

struct Request {
  Json id;  // a number or a string, echoed in the response
  std::string method;
  Json params;  // null when absent
};

struct Notification {
  std::string method;
  Json params;
};

// The client's answer to a request the server sent (client/registerCapability): nothing waits on
// it, so its content is not kept.
struct Response {};

// A body that is no valid message: answered with this error (id null when none could be read).
struct Invalid {
  Json id;
  ErrorCode code = ErrorCode::InvalidRequest;
  std::string message;
};

using Incoming = std::variant<Request, Notification, Response, Invalid>;

[[nodiscard]] Incoming classify(std::string_view body);

// `{"jsonrpc":"2.0","id":...,"result":...}` and friends, serialised. Strings that are not valid
// UTF-8 (a message quoting a broken source line) are written with U+FFFD, never thrown on.
[[nodiscard]] std::string result_body(const Json& id, const Json& result);
[[nodiscard]] std::string error_body(const Json& id, ErrorCode code, std::string_view message);
[[nodiscard]] std::string notification_body(std::string_view method, const Json& params);
[[nodiscard]] std::string request_body(const Json& id, std::string_view method, const Json& params);

// Reading params without exceptions: the member at a path of keys, or nullptr when a step is
// missing or not an object.
[[nodiscard]] const Json* member(const Json& value, std::initializer_list<std::string_view> path);
[[nodiscard]] std::optional<std::string> string_member(
    const Json& value, std::initializer_list<std::string_view> path);
[[nodiscard]] std::optional<int64_t> integer_member(const Json& value,
                                                    std::initializer_list<std::string_view> path);
[[nodiscard]] bool bool_member(const Json& value, std::initializer_list<std::string_view> path);

}  // namespace sealint::server
