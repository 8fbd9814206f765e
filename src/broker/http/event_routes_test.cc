// SPDX-License-Identifier: Apache-2.0
//
// GET /v1/events (server-sent events, through a recording HttpStream in place of the HTTP
// server's connection) and GET /v1/events/log (JSON), dispatched by the HttpRouter.
#include "broker/http/event_routes.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kgroups::broker::http {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// The client's side of a stream: keeps what the route sends; refuses once `accept` runs out.
class RecordingStream : public HttpStream {
 public:
  bool send(std::string_view bytes) override {
    if (closed_) return false;
    if (accept_ == 0) {
      closed_ = true;  // as the server closes a stream that falls behind
      return false;
    }
    if (accept_ > 0) --accept_;
    received_ += bytes;
    return true;
  }
  [[nodiscard]] bool closed() const override { return closed_; }

  void accept_only(int sends) { accept_ = sends; }
  void close() { closed_ = true; }
  [[nodiscard]] const std::string& received() const { return received_; }

 private:
  std::string received_;
  int accept_ = -1;  // -1: every send
  bool closed_ = false;
};

HttpRequest get(std::string path, std::string query = {}) {
  HttpRequest request;
  request.method = "GET";
  request.path = std::move(path);
  request.query = std::move(query);
  return request;
}

class EventRoutes : public ::testing::Test {
 protected:
  EventRoutes() : broker_(BrokerConfig{}, kMachineBytes) {
    add_event_routes(router_, broker_, io_.get_executor(),
                     EventRouteOptions{.keep_alive_interval = std::chrono::milliseconds(20)});
  }

  // Publishes an event of group `group` ("": a topic event) with a field naming it.
  void publish(const std::string& type, const std::string& group) {
    Json payload = Json::object();
    if (!group.empty()) payload["group_id"] = group;
    broker_.events().publish(type, group, payload);
  }

  // Opens a stream for `query`; returns the client's side.
  std::shared_ptr<RecordingStream> open(const std::string& query) {
    HttpRequest request = get("/v1/events", query);
    HttpRouter::Match match = router_.dispatch(request);
    EXPECT_NE(match.stream, nullptr);
    EXPECT_EQ(match.response.content_type, "text/event-stream");
    auto stream = std::make_shared<RecordingStream>();
    if (match.stream != nullptr) (*match.stream)(request, stream);
    return stream;
  }

  // The SSE frame the stream must carry for event `id`.
  std::string frame(std::uint64_t id) {
    for (const Event* event : broker_.events().since(id - 1)) {
      if (event->id == id) {
        return "id: " + std::to_string(id) + "\nevent: " + event->type + "\ndata: " + event->json +
               "\n\n";
      }
    }
    ADD_FAILURE() << "no event " << id;
    return {};
  }

  asio::io_context io_;
  Broker broker_;
  HttpRouter router_;
};

TEST_F(EventRoutes, LogAnswersTheKeptEventsAsAJsonArray) {
  publish("topic_created", "");
  publish("member_joined", "g1");
  publish("member_joined", "g2");
  HttpRequest all = get("/v1/events/log");
  HttpResponse answer = router_.dispatch(all).response;
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.content_type, "application/json");
  const Json events = Json::parse(answer.body);
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events[0]["type"], "topic_created");
  EXPECT_EQ(events[2]["group_id"], "g2");

  HttpRequest after = get("/v1/events/log", "since=1&group=g2");
  const Json filtered = Json::parse(router_.dispatch(after).response.body);
  ASSERT_EQ(filtered.size(), 1U);
  EXPECT_EQ(filtered[0]["id"], 3);

  HttpRequest topics_pass = get("/v1/events/log", "group=g1");
  EXPECT_EQ(Json::parse(router_.dispatch(topics_pass).response.body).size(), 2U);

  HttpRequest none = get("/v1/events/log", "since=3");
  EXPECT_EQ(router_.dispatch(none).response.body, "[]");
}

TEST_F(EventRoutes, LogRefusesASinceThatIsNotAnId) {
  for (const std::string query : {"since=abc", "since=-1", "since=", "since=1x"}) {
    HttpRequest request = get("/v1/events/log", query);
    const HttpResponse answer = router_.dispatch(request).response;
    EXPECT_EQ(answer.status, 400) << query;
    EXPECT_NE(answer.body.find("since must be an event id"), std::string::npos) << answer.body;
  }
}

TEST_F(EventRoutes, StreamWithoutSinceSendsOnlyNewEvents) {
  publish("topic_created", "");
  const std::shared_ptr<RecordingStream> stream = open("");
  EXPECT_EQ(stream->received(), "");
  publish("member_joined", "g1");
  publish("member_left", "g1");
  EXPECT_EQ(stream->received(), frame(2) + frame(3));
}

TEST_F(EventRoutes, StreamWithSinceSendsTheHistoryAfterItThenNewEvents) {
  publish("a", "");
  publish("b", "");
  publish("c", "");
  const std::shared_ptr<RecordingStream> from_start = open("since=0");
  const std::shared_ptr<RecordingStream> resumed = open("since=2");
  EXPECT_EQ(from_start->received(), frame(1) + frame(2) + frame(3));
  EXPECT_EQ(resumed->received(), frame(3));
  publish("d", "");
  EXPECT_EQ(resumed->received(), frame(3) + frame(4));
  EXPECT_EQ(frame(4).rfind("id: 4\nevent: d\ndata: {\"id\":4,", 0), 0U) << frame(4);
}

TEST_F(EventRoutes, StreamOfOneGroupGetsItsEventsAndTopicEvents) {
  const std::shared_ptr<RecordingStream> stream = open("group=g1");
  publish("member_joined", "g1");
  publish("member_joined", "g2");
  publish("topic_created", "");
  publish("member_left", "g1");
  EXPECT_EQ(stream->received(), frame(1) + frame(3) + frame(4));
}

TEST_F(EventRoutes, AStreamThatRefusesASendIsDropped) {
  const std::shared_ptr<RecordingStream> stream = open("");
  EXPECT_EQ(broker_.events().subscriber_count(), 1U);
  stream->accept_only(1);
  publish("a", "");
  publish("b", "");  // refused: the stream is dropped
  publish("c", "");
  EXPECT_EQ(stream->received(), frame(1));
  EXPECT_EQ(broker_.events().subscriber_count(), 0U);
}

TEST_F(EventRoutes, AStreamThatRefusesTheHistoryIsNotSubscribed) {
  publish("a", "");
  publish("b", "");
  HttpRequest request = get("/v1/events", "since=0");
  HttpRouter::Match match = router_.dispatch(request);
  auto stream = std::make_shared<RecordingStream>();
  stream->accept_only(1);
  (*match.stream)(request, stream);
  EXPECT_EQ(stream->received(), frame(1));
  EXPECT_EQ(broker_.events().subscriber_count(), 0U);
}

TEST_F(EventRoutes, StreamWithABadSinceGetsAnErrorEventAndNoSubscription) {
  const std::shared_ptr<RecordingStream> stream = open("since=soon");
  EXPECT_EQ(stream->received().rfind("event: error\ndata: {\"error\":{", 0), 0U)
      << stream->received();
  EXPECT_NE(stream->received().find("since must be an event id"), std::string::npos);
  EXPECT_EQ(broker_.events().subscriber_count(), 0U);
}

TEST_F(EventRoutes, KeepAliveCommentsFlowUntilTheStreamCloses) {
  const std::shared_ptr<RecordingStream> stream = open("");
  // Intervals of 20 ms: two keep-alives come after about 40 ms; a loaded machine may take
  // longer, so the loop waits for them (up to 5 s) instead of for a fixed time.
  const std::string& received = stream->received();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (received.size() < 2 * std::string(": keep-alive\n\n").size() &&
         std::chrono::steady_clock::now() < deadline) {
    io_.run_for(std::chrono::milliseconds(10));
  }
  EXPECT_GE(received.size(), 2 * std::string(": keep-alive\n\n").size()) << received;
  EXPECT_EQ(received.rfind(": keep-alive\n\n", 0), 0U) << received;
  EXPECT_EQ(broker_.events().subscriber_count(), 1U);

  stream->close();
  // The next keep-alive finds it closed and ends, leaving the io_context without work: it
  // returns long before the 2 s.
  const auto start = std::chrono::steady_clock::now();
  io_.run_for(std::chrono::seconds(2));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(broker_.events().subscriber_count(), 0U);
}

TEST_F(EventRoutes, UnknownMethodsAreRefused) {
  HttpRequest post = get("/v1/events");
  post.method = "POST";
  EXPECT_EQ(router_.dispatch(post).response.status, 405);
}

}  // namespace
}  // namespace kgroups::broker::http
