// libFuzzer target: any bytes as what an editor writes to `sealint server`'s stdin, cut into reads
// of the sizes the first bytes choose: the framing reader, the JSON-RPC classification of each
// body, and LSP positions over each body as if it were a document.
#include <sys/types.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyzer/server/json_rpc.h"
#include "analyzer/server/line_index.h"
#include "analyzer/server/transport.h"

namespace {

void check_positions(std::string_view text) {
  using namespace sealint::server;
  for (PositionEncoding encoding :
       {PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32}) {
    const LineIndex index(text, encoding);
    for (size_t offset = 0; offset <= text.size(); offset += 1 + offset / 8) {
      const LspPosition position = index.position(offset);
      // Back to the start of the character holding the offset, or to the line's end when the
      // offset is inside a \r\n.
      if (index.offset(position) > offset) __builtin_trap();
      if (position.line >= index.line_count()) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sealint::server;
  if (size < 2) return 0;
  // The first two bytes: the largest read (1..256 bytes) and a small body limit, so that the
  // limit's path is reached too.
  const size_t piece = static_cast<size_t>(data[0]) + 1;
  const size_t limit = static_cast<size_t>(data[1]) * 64;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 2, size - 2);
  size_t at = 0;
  MessageReader reader(
      [&](char* into, size_t room) -> ssize_t {
        const size_t n = std::min({room, piece, stream.size() - at});
        std::copy_n(stream.data() + at, n, into);
        at += n;
        return static_cast<ssize_t>(n);
      },
      limit);
  while (true) {
    const ReadOutcome outcome = reader.next();
    if (outcome.kind == ReadOutcome::Kind::End) break;
    if (outcome.kind != ReadOutcome::Kind::Message) continue;
    (void)classify(outcome.text);
    check_positions(outcome.text);
  }
  return 0;
}
