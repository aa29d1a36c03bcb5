#include "analyzer/core/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "analyzer/core/descriptor.h"

namespace sealint {

namespace {

// strerror says "Permission denied"; our messages start lowercase (STYLE.md §5).
std::string system_reason(int error) {
  std::string text = std::strerror(error);
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

Error cannot_read(const std::string& shown, int error) {
  return make_error(fmt::format("cannot read '{}': {}", shown, system_reason(error)));
}

Error too_large(const std::string& shown, size_t limit) {
  return make_error(fmt::format("'{}' is larger than {} MiB; not analysed", shown, limit >> 20));
}

}  // namespace

Result<std::string> read_descriptor_bounded(int fd, const std::string& shown, size_t limit) {
  std::string bytes;
  constexpr size_t kChunk = 1 << 16;
  while (true) {
    const size_t at = bytes.size();
    bytes.resize(at + kChunk);
    const ssize_t got = ::read(fd, bytes.data() + at, kChunk);
    if (got < 0) {
      bytes.resize(at);
      if (errno == EINTR) continue;
      return cannot_read(shown, errno);
    }
    bytes.resize(at + static_cast<size_t>(got));
    if (got == 0) return bytes;
    if (bytes.size() > limit) return too_large(shown, limit);
  }
}

namespace {

enum class Kinds { Any, RegularOnly };

Result<std::string> read_bounded(const std::string& path, const std::string& shown, size_t limit,
                                 Kinds kinds) {
  // O_NONBLOCK: opening a FIFO for reading waits for a writer; without one it now reads as empty.
  // O_NOCTTY: a terminal named as input does not become sealint's controlling terminal.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == EISDIR) return make_error(fmt::format("cannot read '{}': is a folder", shown));
    return cannot_read(shown, errno);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return cannot_read(shown, errno);
  if (S_ISDIR(info.st_mode)) return make_error(fmt::format("cannot read '{}': is a folder", shown));
  if (kinds == Kinds::RegularOnly && !S_ISREG(info.st_mode))
    return make_error(fmt::format("cannot read '{}': not a regular file", shown));
  if (S_ISREG(info.st_mode) && static_cast<uintmax_t>(info.st_size) > limit)
    return too_large(shown, limit);
  // Reads block again once open: a FIFO with a writer (`sealint <(cat x)`) is read to its end.
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) (void)::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return read_descriptor_bounded(fd.get(), shown, limit);
}

}  // namespace

Result<std::string> read_file_bounded(const std::string& path, const std::string& shown,
                                      size_t limit) {
  return read_bounded(path, shown, limit, Kinds::Any);
}

Result<std::string> read_regular_file_bounded(const std::string& path, const std::string& shown,
                                              size_t limit) {
  return read_bounded(path, shown, limit, Kinds::RegularOnly);
}

}  // namespace sealint
