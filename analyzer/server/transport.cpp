#include "analyzer/server/transport.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <optional>

#include <fmt/format.h>

namespace sealint::server {

namespace {

constexpr std::string_view kContentLength = "content-length:";
constexpr size_t kReadChunk = 64 * 1024;

// Where `Content-Length:` starts in `line`, whatever its case, or npos.
size_t find_content_length(std::string_view line) {
  auto it =
      std::search(line.begin(), line.end(), kContentLength.begin(), kContentLength.end(),
                  [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it == line.end() ? std::string_view::npos : static_cast<size_t>(it - line.begin());
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A header's value as a byte count; nullopt when it is not a plain decimal number.
std::optional<size_t> parse_length(std::string_view value) {
  value = trim(value);
  if (value.empty() || value.size() > 19) return std::nullopt;
  size_t length = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + static_cast<size_t>(c - '0');
  }
  return length;
}

// A line quoted in a log message: short, and printable.
std::string quoted(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 60)) {
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  return line.size() > 60 ? out + "..." : out;
}

}  // namespace

MessageReader MessageReader::from_descriptor(int fd) {
  return MessageReader([fd](char* into, size_t size) -> ssize_t {
    while (true) {
      const ssize_t got = ::read(fd, into, size);
      if (got >= 0 || errno != EINTR) return got;
    }
  });
}

bool MessageReader::fill(size_t size) {
  // Consumed bytes are dropped once they are most of the buffer, so it never grows past about
  // twice the largest message.
  if (start_ > 0 && start_ >= buffer_.size() / 2) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  while (buffer_.size() - start_ < size) {
    const size_t want = std::max(kReadChunk, size - (buffer_.size() - start_));
    const size_t old = buffer_.size();
    buffer_.resize(old + want);
    const ssize_t got = source_(buffer_.data() + old, want);
    buffer_.resize(old + (got > 0 ? static_cast<size_t>(got) : 0));
    if (got <= 0) return false;
  }
  return true;
}

void MessageReader::discard(size_t size) {
  // A body too large to keep is read in chunks and dropped.
  while (size > 0) {
    const size_t chunk = std::min(size, kReadChunk);
    if (!fill(chunk)) {
      start_ = buffer_.size();
      return;
    }
    start_ += chunk;
    size -= chunk;
  }
}

bool MessageReader::read_line(std::string& line, bool& too_long) {
  too_long = false;
  size_t scanned = 0;  // bytes after start_ known to hold no line end
  while (true) {
    const size_t end = buffer_.find('\n', start_ + scanned);
    if (end != std::string::npos) {
      if (!too_long) line.assign(buffer_, start_, end - start_);
      start_ = end + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    scanned = buffer_.size() - start_;
    if (scanned > kMaxHeaderLineBytes) {
      // Not a header: drop what is buffered and keep reading up to the line's end.
      too_long = true;
      line.clear();
      start_ = buffer_.size();
      scanned = 0;
    }
    if (!fill(buffer_.size() - start_ + 1)) return false;
  }
}

ReadOutcome MessageReader::next() {
  std::optional<size_t> length;
  std::string problem;  // what is wrong with this header block
  std::string skipped;  // junk before it, left by a broken message
  bool in_header = false;
  while (true) {
    std::string line;
    bool too_long = false;
    if (!read_line(line, too_long)) return {ReadOutcome::Kind::End, {}, {}};
    if (too_long) {
      problem = fmt::format("a header line longer than {} bytes", kMaxHeaderLineBytes);
      in_header = true;
      continue;
    }
    if (line.empty()) {
      if (!in_header) continue;  // blank lines between messages
      break;
    }
    in_header = true;
    const size_t at = find_content_length(line);
    if (at != std::string_view::npos) {
      // A message starts here. Whatever came before it in the block (a broken message's body,
      // which can share a line with the next header) is skipped, said in a note, and reading
      // picks up from here: one bad message does not cost the ones after it.
      if (at != 0 || !problem.empty()) {
        skipped = problem.empty() ? fmt::format("skipped '{}'", quoted(line.substr(0, at)))
                                  : fmt::format("skipped {}", problem);
        problem.clear();
      }
      length = parse_length(std::string_view(line).substr(at + kContentLength.size()));
      if (!length) problem = fmt::format("a Content-Length that is no number: '{}'", quoted(line));
    } else if (line.find(':') == std::string::npos) {
      if (problem.empty()) problem = fmt::format("not a header: '{}'", quoted(line));
    }  // another header (Content-Type): its value does not change how the body is read
  }
  if (!length) {
    if (problem.empty()) problem = "a header block without Content-Length";
    return {ReadOutcome::Kind::BadHeader, std::move(problem), std::move(skipped)};
  }
  if (*length > max_message_) {
    discard(*length);
    return {ReadOutcome::Kind::BadHeader,
            fmt::format("a message of {} bytes, past the limit of {} bytes", *length, max_message_),
            std::move(skipped)};
  }
  if (!fill(*length)) return {ReadOutcome::Kind::End, {}, {}};
  std::string body = buffer_.substr(start_, *length);
  start_ += *length;
  if (!problem.empty())
    return {ReadOutcome::Kind::BadHeader, std::move(problem), std::move(skipped)};
  return {ReadOutcome::Kind::Message, std::move(body), std::move(skipped)};
}

std::string frame(std::string_view body) {
  return fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
}

bool MessageWriter::send(std::string_view body) {
  const std::string message = frame(body);
  const std::lock_guard lock(mutex_);
  if (broken_) return false;
  size_t written = 0;
  while (written < message.size()) {
    const ssize_t n = ::write(fd_, message.data() + written, message.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken_ = true;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace sealint::server
