#pragma once
// Functions a web framework calls once per request (knowledge/web_servers.h): decorated with a
// route of an application or router the file makes (`app = Flask(__name__)` and
// `@app.route("/inpaint", methods=["POST"])`). A server runs them for as long as it runs, so what
// they do per call repeats as a loop body does.
#include "analyzer/ir/ir.h"

namespace sealint::semantic {

// The route decorator that registers `function` as a request handler, or nullptr.
[[nodiscard]] const ir::Expr* request_route(const ir::Module& module, const ir::Function& function);

}  // namespace sealint::semantic
