#pragma once
// Web frameworks that call a function once per request: Flask's `@app.route(...)`, FastAPI's
// `@app.post(...)`, a Blueprint's or an APIRouter's. Such a handler repeats as a loop body does,
// for as long as the server runs.
#include <string_view>

namespace sealint::knowledge {

// Is `qualified` (an import-resolved constructor: `flask.Flask`, `fastapi.APIRouter`) an
// application or router whose decorators register request handlers?
[[nodiscard]] bool is_request_router_class(std::string_view qualified);

// Is `method` (`route`, `get`, `post` ...) a router's decorator that registers a handler?
[[nodiscard]] bool is_request_route_decorator(std::string_view method);

}  // namespace sealint::knowledge
