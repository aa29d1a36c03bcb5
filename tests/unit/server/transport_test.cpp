#include "analyzer/server/transport.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

// A byte source that hands out `input` in the pieces given, one per read: what a pipe does when
// the client writes slowly.
MessageReader reader_of(std::vector<std::string> pieces, size_t max_message = kMaxMessageBytes) {
  struct State {
    std::vector<std::string> parts;
    size_t part = 0;
    size_t at = 0;  // in parts[part]
  };
  auto state = std::make_shared<State>(State{std::move(pieces)});
  auto source = [state](char* into, size_t size) -> ssize_t {
    if (state->part == state->parts.size()) return 0;
    const std::string& part = state->parts[state->part];
    const size_t n = std::min(size, part.size() - state->at);
    std::copy_n(part.data() + state->at, n, into);
    state->at += n;
    if (state->at == part.size()) {
      ++state->part;
      state->at = 0;
    }
    return static_cast<ssize_t>(n);
  };
  return MessageReader(source, max_message);
}

TEST(TransportTest, ReadsAMessageSplitAcrossReads) {
  MessageReader reader = reader_of({"Content", "-Length: 2\r", "\n\r", "\n{", "}"});
  const ReadOutcome outcome = reader.next();
  EXPECT_EQ(outcome.kind, ReadOutcome::Kind::Message);
  EXPECT_EQ(outcome.text, "{}");
  EXPECT_EQ(reader.next().kind, ReadOutcome::Kind::End);
}

TEST(TransportTest, ReadsSeveralMessagesFromOneRead) {
  MessageReader reader = reader_of({frame("[1]") + frame("{\"a\":2}") + frame("")});
  EXPECT_EQ(reader.next().text, "[1]");
  EXPECT_EQ(reader.next().text, "{\"a\":2}");
  const ReadOutcome empty = reader.next();
  EXPECT_EQ(empty.kind, ReadOutcome::Kind::Message);
  EXPECT_EQ(empty.text, "");
  EXPECT_EQ(reader.next().kind, ReadOutcome::Kind::End);
}

TEST(TransportTest, ReadsHeadersWhateverTheirCaseAndSkipsOthers) {
  MessageReader reader = reader_of(
      {"content-LENGTH:3\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\nabc"});
  EXPECT_EQ(reader.next().text, "abc");
}

TEST(TransportTest, ReportsAHeaderBlockWithoutLengthAndRecoversAtTheNextHeader) {
  // The broken message's body and the next header share a line: the next message is still read.
  MessageReader reader =
      reader_of({"Content-Type: x\r\n\r\n{\"broken\":1}Content-Length: 2\r\n\r\nok"});
  const ReadOutcome bad = reader.next();
  EXPECT_EQ(bad.kind, ReadOutcome::Kind::BadHeader);
  EXPECT_EQ(bad.text, "a header block without Content-Length");
  const ReadOutcome good = reader.next();
  EXPECT_EQ(good.kind, ReadOutcome::Kind::Message);
  EXPECT_EQ(good.text, "ok");
  EXPECT_EQ(good.skipped, "skipped '{\"broken\":1}'");
}

TEST(TransportTest, ReportsALengthThatIsNoNumber) {
  MessageReader reader = reader_of({"Content-Length: -5\r\n\r\n"});
  const ReadOutcome bad = reader.next();
  EXPECT_EQ(bad.kind, ReadOutcome::Kind::BadHeader);
  EXPECT_EQ(bad.text, "a Content-Length that is no number: 'Content-Length: -5'");
}

TEST(TransportTest, SkipsAMessagePastTheLimitAndReadsTheNext) {
  const size_t limit = 1000;
  MessageReader reader =
      reader_of({frame(std::string(200000, 'x')), frame(std::string(limit, 'y'))}, limit);
  const ReadOutcome skipped = reader.next();
  EXPECT_EQ(skipped.kind, ReadOutcome::Kind::BadHeader);
  EXPECT_EQ(skipped.text, "a message of 200000 bytes, past the limit of 1000 bytes");
  EXPECT_EQ(reader.next().text, std::string(limit, 'y'));
}

TEST(TransportTest, DropsAHeaderLinePastTheLimit) {
  MessageReader reader =
      reader_of({std::string(kMaxHeaderLineBytes * 3, 'x'), "\r\n\r\n", frame("1")});
  const ReadOutcome bad = reader.next();
  EXPECT_EQ(bad.kind, ReadOutcome::Kind::BadHeader);
  EXPECT_EQ(reader.next().text, "1");
}

TEST(TransportTest, EndsWhenTheInputEndsInsideABody) {
  MessageReader reader = reader_of({"Content-Length: 10\r\n\r\nabc"});
  EXPECT_EQ(reader.next().kind, ReadOutcome::Kind::End);
}

TEST(TransportTest, WritesFramedMessages) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  MessageWriter writer(fds[1]);
  EXPECT_TRUE(writer.send("{\"x\":\"é\"}"));
  ::close(fds[1]);
  std::string written(64, '\0');
  const ssize_t n = ::read(fds[0], written.data(), written.size());
  ::close(fds[0]);
  ASSERT_GT(n, 0);
  written.resize(static_cast<size_t>(n));
  EXPECT_EQ(written, "Content-Length: 10\r\n\r\n{\"x\":\"é\"}");
}

TEST(TransportTest, ReportsAWriteToAClosedPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  MessageWriter writer(fds[1]);
  // SIGPIPE is ignored by the server; here the test ignores it for the one write.
  auto* previous = std::signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(writer.send("{}"));
  EXPECT_FALSE(writer.send("{}"));
  std::signal(SIGPIPE, previous);
  ::close(fds[1]);
}

}  // namespace
}  // namespace sealint::server
