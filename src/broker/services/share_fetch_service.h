// SPDX-License-Identifier: Apache-2.0
//
// ShareFetchService: what ShareFetch and ShareAcknowledge (KIP-932) do, for their handlers
// (whose header comments list the behaviour per version): the share session
// (ShareSessionCache), the acknowledgements a request carries, and — for ShareFetch — the
// acquisition of records from the session's partitions, batch by batch from each
// share-partition's next acquirable offset, answered as the stored batches that hold them
// with the acquired offset ranges (AcquiredRecords). The record rules are the share group
// coordinator's (CoordinatorService::share(), share::SharePartition).
//
// Limits: a fetch acquires at most max_records records (and at least one whole batch's
// records, as Kafka), and batch bytes within max_bytes (at most --fetch-max-bytes) and the
// room left in the broker's share for unsent responses; a fetch with nothing to acquire
// waits (long polling, woken by appends) until max_wait_ms (at most --max-fetch-wait-ms).
// Control batches (transaction markers) are never delivered: their offsets are archived as
// gaps as they are reached.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <asio/awaitable.hpp>
#include <cstdint>
#include <optional>

#include "broker/config/broker_config.h"
#include "broker/groups/coordinator_service.h"
#include "broker/runtime/byte_budget.h"
#include "broker/services/fetch_topic_gate.h"
#include "broker/services/share_session_cache.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/replication_controller.h"
#include "protocol/messages/share_acknowledge.h"
#include "protocol/messages/share_fetch.h"

namespace kgroups::broker {

class ShareFetchService {
 public:
  // All references must outlive the service.
  ShareFetchService(const BrokerConfig& config, Cluster& cluster, AppendNotifier& notifier,
                    const ByteBudget& response_memory, CoordinatorService& groups);

  // The answer to `request`, once ready (at once with records or an error, else when the wait
  // ends); its records view stored batches: encode it before anything else runs. nullopt if
  // the calling coroutine was cancelled while waiting. `node`: the broker asked. With `gate`
  // (it must outlive the call), a partition of a topic it refuses answers
  // TOPIC_AUTHORIZATION_FAILED, nothing acquired or acknowledged.
  asio::awaitable<std::optional<protocol::ShareFetchResponse>> fetch(
      const protocol::ShareFetchRequest& request, std::int16_t version, std::int32_t node = 0,
      FetchTopicGate* gate = nullptr);

  protocol::ShareAcknowledgeResponse acknowledge(const protocol::ShareAcknowledgeRequest& request,
                                                 std::int16_t version, std::int32_t node = 0,
                                                 FetchTopicGate* gate = nullptr);

  // Which broker leads each partition (--brokers); nullptr: one broker, no checks.
  void set_replication(const ReplicationController* replication) { replication_ = replication; }

  ShareSessionCache& sessions() { return sessions_; }

 private:
  const BrokerConfig& config_;
  Cluster& cluster_;
  AppendNotifier& notifier_;
  const ByteBudget& response_memory_;
  CoordinatorService& groups_;
  const ReplicationController* replication_ = nullptr;
  ShareSessionCache sessions_;
};

}  // namespace kgroups::broker
