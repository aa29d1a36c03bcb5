#pragma once
// The Language Server Protocol's base protocol: each message is `Content-Length: N\r\n`, optional
// other headers, a blank line, then N bytes of JSON. Written here because no Debian package offers
// LSP framing for C++ (clangd keeps its own in clang-tools-extra, not a library Debian ships; the
// JSON-RPC libraries Debian has, such as libjsonrpccpp, speak HTTP or raw sockets, not this).
#include <sys/types.h>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace sealint::server {

// A message body is at most this long: a document is at most 64 MiB (kMaxFileBytes), and JSON
// escaping can double it.
inline constexpr size_t kMaxMessageBytes = 256ULL * 1024 * 1024;
// A header line longer than this is no header: the stream is garbage, or not LSP at all.
inline constexpr size_t kMaxHeaderLineBytes = 8 * 1024;

struct ReadOutcome {
  enum class Kind {
    Message,    // `text` is a body
    BadHeader,  // `text` says what was wrong; reading goes on with the next header block
    End,        // the input closed
  };
  Kind kind = Kind::End;
  std::string text;
  // Bytes skipped before this message's header (what a broken message left), for the log.
  std::string skipped;
};

// Reads framed messages from a byte source (`read(2)`'s shape: bytes read, 0 at the end, -1 on
// an error), buffering what one read returns beyond the current message: a client may split a
// header across reads or send several messages in one.
class MessageReader {
 public:
  using Source = std::function<ssize_t(char* into, size_t size)>;
  // `max_message`: bodies past it are skipped (a test gives a small one).
  explicit MessageReader(Source source, size_t max_message = kMaxMessageBytes)
      : source_(std::move(source)), max_message_(max_message) {}
  // Reads from a file descriptor (stdin), retrying on EINTR.
  [[nodiscard]] static MessageReader from_descriptor(int fd);

  [[nodiscard]] ReadOutcome next();

 private:
  // Makes `buffer_` hold at least `size` unread bytes; false when the input ends first.
  bool fill(size_t size);
  // One header line without its line end (\r\n or \n); false at the end of the input.
  // `too_long`: the line was past kMaxHeaderLineBytes and was dropped.
  bool read_line(std::string& line, bool& too_long);
  void discard(size_t size);

  Source source_;
  size_t max_message_;
  std::string buffer_;
  size_t start_ = 0;  // the first unread byte of buffer_
};

// Writes framed messages to a file descriptor. Workers publish diagnostics while the main thread
// answers requests: one lock keeps each message whole.
class MessageWriter {
 public:
  explicit MessageWriter(int fd) : fd_(fd) {}
  // False once a write failed (the client closed its end): later writes do nothing.
  bool send(std::string_view body);

 private:
  std::mutex mutex_;
  int fd_;
  bool broken_ = false;
};

// `Content-Length: N\r\n\r\n` + body: one message as it goes on the wire.
[[nodiscard]] std::string frame(std::string_view body);

}  // namespace sealint::server
