#pragma once
// Reading an input never reads more than a limit. sealint reads what a repository or a pipe gives
// it, and a character device (`/dev/zero`), a FIFO or `yes | sealint -` has no size to check
// before reading: the limit is checked while reading instead.
#include <cstddef>
#include <string>

#include "analyzer/core/result.h"

namespace sealint {

// The file's bytes, or an error naming `shown`: past `limit` bytes ("larger than N MiB"), a folder,
// or what the system said. A FIFO without a writer reads as empty instead of blocking for ever.
[[nodiscard]] Result<std::string> read_file_bounded(const std::string& path,
                                                    const std::string& shown, size_t limit);

// The same for a file that must be a regular file (a configuration the repository commits, such
// as compile_commands.json): a device, a FIFO or a socket is refused without reading a byte.
[[nodiscard]] Result<std::string> read_regular_file_bounded(const std::string& path,
                                                            const std::string& shown, size_t limit);

// All of an open descriptor's bytes (stdin), with the same limit and messages.
[[nodiscard]] Result<std::string> read_descriptor_bounded(int fd, const std::string& shown,
                                                          size_t limit);

}  // namespace sealint
