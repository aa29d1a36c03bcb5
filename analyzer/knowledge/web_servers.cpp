#include "analyzer/knowledge/web_servers.h"

#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

bool is_request_router_class(std::string_view qualified) {
  static constexpr auto kRouters =
      sorted_names("fastapi.APIRouter", "fastapi.FastAPI", "flask.Blueprint", "flask.Flask",
                   "quart.Blueprint", "quart.Quart", "sanic.Blueprint", "sanic.Sanic");
  return kRouters.contains(qualified);
}

bool is_request_route_decorator(std::string_view method) {
  static constexpr auto kRoutes =
      sorted_names("api_route", "delete", "get", "patch", "post", "put", "route", "websocket");
  return kRoutes.contains(method);
}

}  // namespace sealint::knowledge
