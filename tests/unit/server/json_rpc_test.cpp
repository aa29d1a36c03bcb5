#include "analyzer/server/json_rpc.h"

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

TEST(JsonRpcTest, ReadsARequest) {
  const Incoming incoming =
      classify(R"({"jsonrpc":"2.0","id":"a1","method":"shutdown","params":{"x":1}})");
  const auto* request = std::get_if<Request>(&incoming);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->id, "a1");
  EXPECT_EQ(request->method, "shutdown");
  EXPECT_EQ(request->params["x"], 1);
}

TEST(JsonRpcTest, ReadsANotificationAndAResponse) {
  EXPECT_TRUE(std::holds_alternative<Notification>(classify(R"({"jsonrpc":"2.0","method":"x"})")));
  EXPECT_TRUE(
      std::holds_alternative<Response>(classify(R"({"jsonrpc":"2.0","id":3,"result":null})")));
}

TEST(JsonRpcTest, CallsInvalidJsonAParseError) {
  const Incoming incoming = classify("{\"jsonrpc\":");
  const auto* invalid = std::get_if<Invalid>(&incoming);
  ASSERT_NE(invalid, nullptr);
  EXPECT_EQ(invalid->code, ErrorCode::ParseError);
  EXPECT_TRUE(invalid->id.is_null());
}

TEST(JsonRpcTest, CallsAMessageOfTheWrongShapeAnInvalidRequestWithItsId) {
  for (const char* body : {R"({"id":4,"method":"x"})", R"({"jsonrpc":"1.0","id":4,"method":"x"})",
                           R"({"jsonrpc":"2.0","id":4})", R"({"jsonrpc":"2.0","id":4,"method":[]})",
                           R"({"jsonrpc":"2.0","id":4,"method":"x","params":"p"})"}) {
    const Incoming incoming = classify(body);
    const auto* invalid = std::get_if<Invalid>(&incoming);
    ASSERT_NE(invalid, nullptr) << body;
    EXPECT_EQ(invalid->code, ErrorCode::InvalidRequest) << body;
    EXPECT_EQ(invalid->id, 4) << body;
  }
}

TEST(JsonRpcTest, RefusesBatchesAndIdsThatAreNeitherNumbersNorStrings) {
  for (const char* body : {"[]", R"([{"jsonrpc":"2.0","method":"x"}])",
                           R"({"jsonrpc":"2.0","id":1.5,"method":"x"})", "3"}) {
    const Incoming incoming = classify(body);
    const auto* invalid = std::get_if<Invalid>(&incoming);
    ASSERT_NE(invalid, nullptr) << body;
    EXPECT_EQ(invalid->code, ErrorCode::InvalidRequest) << body;
    EXPECT_TRUE(invalid->id.is_null()) << body;
  }
}

TEST(JsonRpcTest, WritesInvalidUtf8AsReplacementCharacters) {
  EXPECT_EQ(notification_body("m", {{"text", "a\xFF"}}),
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"text\":\"a\xEF\xBF\xBD\"}}");
}

TEST(JsonRpcTest, ReadsMembersWithoutThrowing) {
  const Json value = Json::parse(R"({"a":{"b":"text","n":3,"t":true},"list":[1]})");
  EXPECT_EQ(string_member(value, {"a", "b"}), "text");
  EXPECT_EQ(string_member(value, {"a", "n"}), std::nullopt);
  EXPECT_EQ(integer_member(value, {"a", "n"}), 3);
  EXPECT_TRUE(bool_member(value, {"a", "t"}));
  EXPECT_FALSE(bool_member(value, {"a", "b"}));
  EXPECT_EQ(member(value, {"list", "x"}), nullptr);
  EXPECT_EQ(member(value, {"a", "b", "c"}), nullptr);
}

}  // namespace
}  // namespace sealint::server
