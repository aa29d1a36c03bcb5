#pragma once
// The server's log: stderr, which every LSP client keeps apart from the protocol (Neovim's
// lsp.log, VS Code's output channel). One whole line per write, since workers log too.
#include <cstdio>
#include <string>
#include <string_view>

namespace sealint::server {

inline void log_line(std::string_view message) {
  std::string line = "sealint server: ";
  line += message;
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace sealint::server
