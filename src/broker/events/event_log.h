// SPDX-License-Identifier: Apache-2.0
//
// EventLog: the broker's record of what happened to its groups and topics (the HTTP API's
// /v1/events). Each event has an id (1, 2, 3, ... in publication order, never reused), the
// wall-clock time it was published, a type ("member_joined", ...), the group it concerns, and
// its JSON text: one object with "id", "time_ms", "type" and then the payload's fields.
//
// Bounded: it keeps the newest `max_events` events, and fewer when their JSON would take more
// than `max_bytes` (the newest event is always kept); older ones are forgotten.
//
// Subscribers: publish() hands each new event to every subscriber, synchronously, in
// subscription order, before it returns. A subscriber returns false to unsubscribe; it may
// also subscribe or unsubscribe others (a subscription made during a publication starts with
// the next event), but must not publish.
//
// Not thread-safe: lives on the broker's network thread like the rest of Broker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups::broker {

struct Event {
  std::uint64_t id = 0;      // from 1, one more than the event before
  std::int64_t time_ms = 0;  // wall clock when published, ms since the Unix epoch
  std::string type;          // "member_joined", "topic_created", ...
  std::string group_id;      // the group the event concerns; "" for a topic event
  std::string json;          // the whole event: {"id": ..., "time_ms": ..., "type": ..., ...}
};

struct EventLogLimits {
  std::size_t max_events = 1000;        // events kept (>= 1)
  std::size_t max_bytes = 16ULL << 20;  // JSON bytes of the events kept
};

class EventLog {
 public:
  // Returns the wall-clock time in ms since the Unix epoch.
  using WallClock = std::function<std::int64_t()>;
  // Receives each event; returns false to be unsubscribed.
  using Subscriber = std::function<bool(const Event& event)>;
  using SubscriptionId = std::uint64_t;

  // `wall_clock` defaults to the system clock.
  explicit EventLog(EventLogLimits limits = {}, WallClock wall_clock = {});

  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Records an event of `type` concerning `group_id` ("" for none), whose fields are those of
  // `payload` (a JSON object; its "id", "time_ms" and "type" keys, if any, are overwritten),
  // forgets the oldest events beyond the limits, and hands it to every subscriber. Returns
  // the event's id.
  std::uint64_t publish(std::string_view type, std::string_view group_id,
                        const nlohmann::ordered_json& payload);

  // Returns the kept events whose id is above `after_id`, oldest first (after_id 0: every
  // kept event). The pointers are valid until the next publish().
  [[nodiscard]] std::vector<const Event*> since(std::uint64_t after_id) const;

  // Adds a subscriber for the events published from now on; returns its id.
  SubscriptionId subscribe(Subscriber subscriber);
  // Removes a subscriber (an unknown id is ignored). From within a publication, it gets no
  // further events.
  void unsubscribe(SubscriptionId id);
  [[nodiscard]] std::size_t subscriber_count() const;

  // The id of the newest event, or 0 if none was published.
  [[nodiscard]] std::uint64_t last_id() const { return next_id_ - 1; }
  [[nodiscard]] std::size_t size() const { return events_.size(); }
  // JSON bytes of the kept events.
  [[nodiscard]] std::size_t bytes() const { return bytes_; }
  [[nodiscard]] const EventLogLimits& limits() const { return limits_; }

 private:
  // Drops the subscribers unsubscribed during a publication.
  void sweep_unsubscribed();

  EventLogLimits limits_;
  WallClock wall_clock_;
  std::deque<Event> events_;  // oldest first; ids consecutive
  std::size_t bytes_ = 0;     // sum of json.size() over events_
  std::uint64_t next_id_ = 1;
  std::map<SubscriptionId, Subscriber> subscribers_;  // in subscription order
  std::vector<SubscriptionId> unsubscribed_;          // during a publication, dropped after it
  SubscriptionId next_subscription_id_ = 1;
  bool publishing_ = false;
};

}  // namespace kgroups::broker
