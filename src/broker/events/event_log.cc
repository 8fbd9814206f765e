// SPDX-License-Identifier: Apache-2.0
#include "broker/events/event_log.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

namespace kgroups::broker {
namespace {

std::int64_t system_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

EventLog::EventLog(EventLogLimits limits, WallClock wall_clock)
    : limits_(limits),
      wall_clock_(wall_clock ? std::move(wall_clock) : WallClock(system_clock_ms)) {
  limits_.max_events = std::max<std::size_t>(limits_.max_events, 1);
}

std::uint64_t EventLog::publish(std::string_view type, std::string_view group_id,
                                const nlohmann::ordered_json& payload) {
  Event& event = events_.emplace_back();
  event.id = next_id_++;
  event.time_ms = wall_clock_();
  event.type = std::string(type);
  event.group_id = std::string(group_id);
  nlohmann::ordered_json json = {{"id", event.id}, {"time_ms", event.time_ms}, {"type", type}};
  if (payload.is_object()) {
    for (const auto& [key, value] : payload.items()) {
      if (key != "id" && key != "time_ms" && key != "type") json[key] = value;
    }
  }
  // Invalid UTF-8 (ids are client bytes) is replaced, not thrown.
  event.json = json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  bytes_ += event.json.size();
  while (events_.size() > limits_.max_events ||
         (bytes_ > limits_.max_bytes && events_.size() > 1)) {
    bytes_ -= events_.front().json.size();
    events_.pop_front();
  }

  const std::uint64_t id = events_.back().id;
  const bool outermost = !publishing_;
  publishing_ = true;
  // Subscriptions made from here on start with the next event.
  const SubscriptionId end = next_subscription_id_;
  for (auto entry = subscribers_.begin(); entry != subscribers_.end() && entry->first < end;
       ++entry) {
    if (std::find(unsubscribed_.begin(), unsubscribed_.end(), entry->first) !=
        unsubscribed_.end()) {
      continue;
    }
    if (!entry->second(events_.back())) unsubscribe(entry->first);
  }
  if (outermost) {
    publishing_ = false;
    sweep_unsubscribed();
  }
  return id;
}

std::vector<const Event*> EventLog::since(std::uint64_t after_id) const {
  std::vector<const Event*> events;
  if (events_.empty() || after_id >= events_.back().id) return events;
  // Ids are consecutive: the first event after `after_id` is at a known position.
  const std::uint64_t first_id = events_.front().id;
  const std::size_t start =
      after_id < first_id ? 0 : static_cast<std::size_t>(after_id - first_id + 1);
  events.reserve(events_.size() - start);
  for (std::size_t i = start; i < events_.size(); ++i) events.push_back(&events_[i]);
  return events;
}

EventLog::SubscriptionId EventLog::subscribe(Subscriber subscriber) {
  const SubscriptionId id = next_subscription_id_++;
  subscribers_.emplace(id, std::move(subscriber));
  return id;
}

void EventLog::unsubscribe(SubscriptionId id) {
  if (!subscribers_.contains(id)) return;
  if (!publishing_) {
    subscribers_.erase(id);
    return;
  }
  // The subscriber may be the one running: destroy it after the publication.
  if (std::find(unsubscribed_.begin(), unsubscribed_.end(), id) == unsubscribed_.end()) {
    unsubscribed_.push_back(id);
  }
}

std::size_t EventLog::subscriber_count() const {
  return subscribers_.size() - unsubscribed_.size();
}

void EventLog::sweep_unsubscribed() {
  for (SubscriptionId id : unsubscribed_) subscribers_.erase(id);
  unsubscribed_.clear();
}

}  // namespace kgroups::broker
