// SPDX-License-Identifier: Apache-2.0
//
// FetchService: what a Fetch does, for handlers/fetch_handler.cc (whose header comment lists
// the behaviour per version): opens the request's fetch session (FetchSessionCache), reads
// the partitions within the byte limits, waits for min_bytes (long polling, woken by
// AppendNotifier) and builds the answer the session calls for.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <asio/awaitable.hpp>
#include <cstdint>
#include <optional>

#include "broker/config/broker_config.h"
#include "broker/faults/partition_faults.h"
#include "broker/runtime/byte_budget.h"
#include "broker/services/fetch_session_cache.h"
#include "broker/services/fetch_topic_gate.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/fetch_delivery_observer.h"
#include "broker/storage/replication_controller.h"
#include "broker/storage/segment_pins.h"
#include "protocol/messages/fetch.h"

namespace kgroups::broker {

class FetchService {
 public:
  // `response_memory` is the broker's share for unsent responses: record bytes never exceed
  // what is left of it. All references must outlive the service.
  FetchService(const BrokerConfig& config, Cluster& cluster, AppendNotifier& notifier,
               const ByteBudget& response_memory);

  // The answer to `request` at `version`, once it is ready: at once on an error or with
  // min_bytes of records, else when records arrive or the wait (max_wait_ms, at most
  // --max-fetch-wait-ms) ends. Its records view the partitions' stored batches: encode it
  // before anything else runs on this thread. std::nullopt if the calling coroutine was
  // cancelled while waiting (the connection is closing). A partition that `faults` (when
  // given; it must outlive the call) has an error for answers it at once, without records.
  // With `client` (it must outlive the call) and a delivery observer, a consumer fetch (replica
  // id -1) tells the observer each partition it answers records of, as it answers.
  // With `pins` (it must outlive the call), the segments the answer's records lie in are
  // added to it: while it holds them, the records stay valid whatever the logs do.
  // With `gate` (it must outlive the call), a partition of a topic the gate refuses answers
  // TOPIC_AUTHORIZATION_FAILED (after UNKNOWN_TOPIC_ID for an unknown id, before anything else).
  asio::awaitable<std::optional<protocol::FetchResponse>> fetch(
      const protocol::FetchRequest& request, std::int16_t version,
      PartitionFaults* faults = nullptr, const FetchingClient* client = nullptr,
      SegmentPins* pins = nullptr, std::int32_t node = 0, FetchTopicGate* gate = nullptr);

  // Which broker leads each partition (--brokers): a fetch sent to broker `node` (fetch()'s
  // last argument) that does not lead a partition answers NOT_LEADER_OR_FOLLOWER for it, a
  // stale leader serves up to the high watermark it froze at, and current_leader_epoch is
  // checked (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH). nullptr: one broker, no checks.
  void set_replication(const ReplicationController* replication) { replication_ = replication; }

  // Tells `observer` (nullptr: no one) the records each consumer fetch delivers from now on.
  // It must outlive the service, or be replaced first.
  void set_delivery_observer(FetchDeliveryObserver* observer) { delivery_observer_ = observer; }

  FetchSessionCache& sessions() { return sessions_; }

 private:
  const BrokerConfig& config_;
  Cluster& cluster_;
  AppendNotifier& notifier_;
  const ByteBudget& response_memory_;
  FetchSessionCache sessions_;
  FetchDeliveryObserver* delivery_observer_ = nullptr;  // not owned; nullptr: nobody observes
  const ReplicationController* replication_ = nullptr;  // not owned
};

}  // namespace kgroups::broker
