// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/playground.h"

#include "broker/config/memory_plan.h"
#include "broker/coordinator/stored_bytes.h"
#include "broker/events/replay_tracker.h"

#include <algorithm>
#include <utility>

#include "group/assignor_catalog.h"

namespace kgroups::broker::playground {
namespace {

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

}  // namespace

Playground::Playground(Broker& broker, asio::any_io_executor executor, PlaygroundTiming timing)
    : broker_(broker),
      executor_(std::move(executor)),
      timing_(timing),
      delivered_(broker.groups_memory_charge()) {}

Playground::~Playground() {
  for (const auto& consumer : consumers_) consumer->crash();
  for (const auto& producer : producers_) producer->stop();
}

const SimulatedConsumer& Playground::add_consumer(const ConsumerRequest& request) {
  check_consumer_request(request);
  ensure_topic(request.topic);
  ConsumerSettings settings{request.group, request.topic, assignor_named(request.assignor),
                            request.session_timeout_ms};
  auto consumer = std::make_shared<SimulatedConsumer>(next_consumer_id_++, std::move(settings),
                                                      broker_, delivered_, executor_, timing_);
  consumers_.push_back(consumer);
  forget_oldest_stopped_consumers();
  consumer->start();
  return *consumer;
}

void Playground::check_consumer_request(const ConsumerRequest& request) const {
  const Assignor* assignor = assignor_named(request.assignor);
  if (assignor == nullptr) {
    throw PlaygroundRefusal(400,
                            "assignor must be one of \"range\", \"roundrobin\", \"sticky\", "
                            "\"cooperative-sticky\"; got " +
                                quoted(request.assignor));
  }
  const auto max_id = static_cast<std::size_t>(broker_.config().max_id_length);
  if (request.group.empty() || request.group.size() > max_id) {
    throw PlaygroundRefusal(
        400, "group must be a non-empty string of at most " + std::to_string(max_id) + " bytes");
  }
  if (!Cluster::is_valid_topic_name(request.topic)) {
    throw PlaygroundRefusal(400, "topic " + quoted(request.topic) +
                                     " is not a legal topic name (1-249 characters of "
                                     "[a-zA-Z0-9._-], not \".\" or \"..\")");
  }
  const BrokerConfig& config = broker_.config();
  if (request.session_timeout_ms < config.group_min_session_timeout_ms ||
      request.session_timeout_ms > config.group_max_session_timeout_ms) {
    throw PlaygroundRefusal(400, "session_timeout_ms must be from " +
                                     std::to_string(config.group_min_session_timeout_ms) + " to " +
                                     std::to_string(config.group_max_session_timeout_ms) +
                                     " (the broker's group.min/max.session.timeout.ms); got " +
                                     std::to_string(request.session_timeout_ms));
  }
  if (running_consumers() >= kMaxConsumers) {
    throw PlaygroundRefusal(409, "the playground runs " + std::to_string(kMaxConsumers) +
                                     " consumers already, its limit; stop one first "
                                     "(DELETE /v1/playground/consumers/{id})");
  }
  for (const auto& running : consumers_) {
    if (running->state() == SimulatedConsumer::State::kStopped ||
        running->settings().group != request.group || running->settings().assignor == assignor) {
      continue;
    }
    throw PlaygroundRefusal(
        409, "group " + quoted(request.group) + " has simulated consumers with assignor " +
                 quoted(std::string(running->settings().assignor->name())) +
                 "; a member with another assignor would be refused "
                 "(INCONSISTENT_GROUP_PROTOCOL): use that assignor or another group");
  }
  check_delivered_offsets_room(request);
}

void Playground::check_delivered_offsets_room(const ConsumerRequest& request) const {
  // A new group's consumers will track every partition of the topic they read, commit an
  // offset for each, and the replay tracker will mark each, all in the groups' share: refuse
  // now rather than have them stall later (their commits would get
  // COORDINATOR_LOAD_IN_PROGRESS and their replays would go unseen).
  const bool known_group = std::any_of(
      consumers_.begin(), consumers_.end(),
      [&request](const auto& consumer) { return consumer->settings().group == request.group; });
  if (known_group) return;
  const std::int32_t existing = broker_.cluster().partition_count(request.topic);
  const auto partitions = static_cast<std::size_t>(existing > 0 ? existing : kTopicPartitions);
  const std::size_t per_partition =
      DeliveredOffsets::kPartitionEntryBytes + offset_entry_bytes(request.topic, "") +
      ReplayTracker::mark_bytes(request.topic) + ReplayTracker::claim_bytes(request.topic);
  const std::size_t needed = DeliveredOffsets::kGroupEntryBytes + group_entry_bytes(request.group) +
                             partitions * per_partition;
  if (needed > broker_.groups().room_bytes()) {
    throw PlaygroundRefusal(
        503, "the groups' share of --max-memory cannot hold what group " + quoted(request.group) +
                 " would commit and track for the " + std::to_string(partitions) +
                 " partitions of " + quoted(request.topic) + " (" +
                 format_bytes(static_cast<std::int64_t>(needed)) +
                 "): stop simulated consumers of other groups or delete groups, or raise "
                 "--max-memory");
  }
}

void Playground::ensure_topic(const std::string& topic) {
  if (broker_.cluster().find_topic(topic) != nullptr) return;
  const protocol::ErrorCode error = broker_.cluster().create_topic(topic, kTopicPartitions);
  if (error != protocol::ErrorCode::kNone) {
    throw PlaygroundRefusal(409, "cannot create topic " + quoted(topic) + " with " +
                                     std::to_string(kTopicPartitions) + " partitions (" +
                                     std::string(protocol::error_name(error)) +
                                     "); create it first or use an existing topic");
  }
}

std::shared_ptr<const SimulatedConsumer> Playground::stop_consumer(int id, bool crash) {
  const auto found = std::find_if(consumers_.begin(), consumers_.end(),
                                  [id](const auto& consumer) { return consumer->id() == id; });
  if (found == consumers_.end()) {
    throw PlaygroundRefusal(
        404, "no simulated consumer " + std::to_string(id) + "; GET /v1/playground lists them");
  }
  if (crash) {
    (*found)->crash();
  } else {
    (*found)->leave();
  }
  std::shared_ptr<const SimulatedConsumer> stopped = *found;
  forget_oldest_stopped_consumers();
  return stopped;
}

const SimulatedProducer& Playground::add_producer(const ProducerRequest& request) {
  if (request.rate < kMinRate || request.rate > kMaxRate) {
    throw PlaygroundRefusal(400, "rate must be from " + std::to_string(kMinRate) + " to " +
                                     std::to_string(kMaxRate) + " records per second; got " +
                                     std::to_string(request.rate));
  }
  if (!Cluster::is_valid_topic_name(request.topic)) {
    throw PlaygroundRefusal(400, "topic " + quoted(request.topic) +
                                     " is not a legal topic name (1-249 characters of "
                                     "[a-zA-Z0-9._-], not \".\" or \"..\")");
  }
  if (producers_.size() >= kMaxProducers) {
    throw PlaygroundRefusal(409, "the playground runs " + std::to_string(kMaxProducers) +
                                     " producers already, its limit; stop one first "
                                     "(DELETE /v1/playground/producers/{id})");
  }
  ensure_topic(request.topic);
  auto producer = std::make_shared<SimulatedProducer>(next_producer_id_++, request.topic,
                                                      request.rate, broker_, executor_, timing_);
  producers_.push_back(producer);
  producer->start();
  return *producer;
}

void Playground::stop_producer(int id) {
  const auto found = std::find_if(producers_.begin(), producers_.end(),
                                  [id](const auto& producer) { return producer->id() == id; });
  if (found == producers_.end()) {
    throw PlaygroundRefusal(
        404, "no simulated producer " + std::to_string(id) + "; GET /v1/playground lists them");
  }
  (*found)->stop();
  producers_.erase(found);
}

std::size_t Playground::running_consumers() const {
  return static_cast<std::size_t>(
      std::count_if(consumers_.begin(), consumers_.end(), [](const auto& consumer) {
        return consumer->state() != SimulatedConsumer::State::kStopped;
      }));
}

void Playground::forget_oldest_stopped_consumers() {
  std::size_t stopped = consumers_.size() - running_consumers();
  for (auto it = consumers_.begin(); it != consumers_.end() && stopped > kMaxStoppedConsumers;) {
    if ((*it)->state() == SimulatedConsumer::State::kStopped) {
      it = consumers_.erase(it);
      --stopped;
    } else {
      ++it;
    }
  }
  // What was delivered to a group goes with the last consumer of it the playground keeps.
  delivered_.forget_groups_except([this](std::string_view group_id) {
    return std::any_of(consumers_.begin(), consumers_.end(), [group_id](const auto& consumer) {
      return consumer->settings().group == group_id;
    });
  });
}

}  // namespace kgroups::broker::playground
