#include "analyzer/server/server.h"

#include <unistd.h>

#include <csignal>

#include <fmt/format.h>

#include "analyzer/server/language_server.h"
#include "analyzer/server/log.h"
#include "analyzer/server/transport.h"

namespace sealint::server {

namespace {

// The protocol's own descriptor: a copy of stdout, which itself becomes a copy of stderr, so that
// a stray print (a library's, a Clang message) can never corrupt the stream the client parses.
int take_stdout() {
  const int protocol = ::dup(STDOUT_FILENO);
  if (protocol < 0) return -1;
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    ::close(protocol);
    return -1;
  }
  return protocol;
}

}  // namespace

int run_server(const rules::RuleRegistry& registry, const ServerOptions& options) {
  auto grammar = python::PythonGrammar::load();
  if (!grammar) {
    log_line(fmt::format("error: {}", grammar.error()));
    return 2;
  }
  const int protocol = take_stdout();
  if (protocol < 0) {
    log_line("error: cannot set up stdout for the protocol");
    return 2;
  }
  if (::isatty(STDIN_FILENO) != 0) {
    log_line("speaks LSP on stdin and stdout: an editor starts it (docs/editors.md)");
  }
  // A client that goes away mid-write must not kill the server with SIGPIPE: the write fails,
  // and reading ends at the closed stdin.
  std::signal(SIGPIPE, SIG_IGN);
  MessageWriter writer(protocol);
  std::optional<int> status;
  {
    ServerSettings settings;
    settings.overrides = options.overrides;
    LanguageServer server(
        registry, *grammar, writer,
        {options.version, std::move(settings), options.workers, options.debounce});
    MessageReader reader = MessageReader::from_descriptor(STDIN_FILENO);
    while (!server.exit_code()) {
      ReadOutcome outcome = reader.next();
      if (!outcome.skipped.empty()) log_line(fmt::format("bad input: {}", outcome.skipped));
      if (outcome.kind == ReadOutcome::Kind::End) break;
      if (outcome.kind == ReadOutcome::Kind::BadHeader) {
        log_line(fmt::format("bad message header: {}", outcome.text));
        continue;
      }
      server.handle(outcome.text);
    }
    // The input ended without `exit`: the client is gone. LSP's rule for `exit` applies.
    status = server.exit_code().value_or(server.shut_down() ? 0 : 1);
  }  // the scheduler's workers stop here, after what is running
  ::close(protocol);
  return *status;
}

}  // namespace sealint::server
