#pragma once
// `sealint server`: a Language Server (LSP 3.17) over stdin and stdout. The main thread reads
// messages and answers requests at once from what was last published; analyses run on the
// scheduler's workers and publish diagnostics themselves. Nothing but protocol messages goes to
// stdout: stdout is moved to a private descriptor at start, and what anything else writes there
// lands on stderr, the log.
#include <chrono>
#include <string>

#include "analyzer/config/configurations.h"
#include "rules/registry.h"

namespace sealint::server {

struct ServerOptions {
  std::string version;                // serverInfo.version
  config::ConfigOverrides overrides;  // the command line's (`sealint --config x.toml server`)
  unsigned workers = 0;               // 0: by the cores, at least 2
  // How long a document must stay unchanged before it is analysed: typing does not start an
  // analysis per key.
  std::chrono::milliseconds debounce{200};
};

// Serves until `exit` or the end of stdin. The exit status LSP asks for: 0 after `shutdown` then
// `exit`, 1 when the client exits (or goes away) without `shutdown`; 2 when the server cannot
// start.
[[nodiscard]] int run_server(const rules::RuleRegistry& registry, const ServerOptions& options);

}  // namespace sealint::server
