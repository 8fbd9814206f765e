// SPDX-License-Identifier: Apache-2.0
//
// ProduceService: what a Produce does, for handlers/produce_handler.cc (whose header comment
// lists the behaviour per version): validates each partition's batch, auto-creates topics,
// appends, wakes the fetches waiting on the partitions appended to, and logs refusals.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <string_view>
#include <vector>

#include "broker/config/broker_config.h"
#include "broker/faults/partition_faults.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/replication_controller.h"
#include "broker/transactions/producer_writes.h"
#include "protocol/messages/produce.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

// An acks=all write stored on the leader that is acknowledged only once the high watermark
// reaches `end_offset` (every in-sync replica has it).
struct AwaitedReplication {
  std::size_t topic_index = 0;      // in response.responses
  std::size_t partition_index = 0;  // in that topic's partition_responses
  std::string_view topic;           // views the request
  std::int32_t partition = 0;
  std::int64_t end_offset = 0;    // one past the batch's last offset
  std::int32_t leader_epoch = 0;  // the epoch it was appended at
  bool stale_leader = false;      // appended by a fenced leader: never replicated
  std::int32_t min_insync_replicas = 1;
};

struct ProduceOutcome {
  protocol::ProduceResponse response;
  // acks=all writes waiting for their replicas (ProduceService::settle_replication()).
  std::vector<AwaitedReplication> awaited;
  // The first partition's error, if any was refused (with acks=0 the connection then closes).
  protocol::ErrorCode first_error = protocol::ErrorCode::kNone;
};

class ProduceService {
 public:
  // All references must outlive the service.
  ProduceService(const BrokerConfig& config, Cluster& cluster, protocol::RecordValidator& validator,
                 ProducerWrites& writes, AppendNotifier& notifier);

  // Stores what `request` carries; `peer` names the client in log lines. A partition that
  // `faults` (when given) has an error for answers it and is not stored.
  // `node` is the broker it came to (--brokers): a partition it does not lead answers
  // NOT_LEADER_OR_FOLLOWER; acks=all needs min.insync.replicas in the ISR
  // (NOT_ENOUGH_REPLICAS) and waits for them (outcome.awaited); a stale leader acknowledges
  // acks=1 writes without storing them (they are lost) and never completes acks=all ones.
  ProduceOutcome produce(const protocol::ProduceRequest& request, std::string_view peer,
                         PartitionFaults* faults = nullptr, std::int32_t node = 0);

  // Settles `outcome.awaited` as far as it can now: a write whose high watermark arrived
  // succeeds (NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR shrank below min.insync.replicas
  // meanwhile), one whose partition changed leader answers NOT_LEADER_OR_FOLLOWER, and with
  // `timed_out` every one left answers REQUEST_TIMED_OUT. Returns whether none is left.
  bool settle_replication(ProduceOutcome& outcome, bool timed_out);

  // The brokers (--brokers); nullptr: one broker.
  void set_replication(ReplicationController* replication) { replication_ = replication; }

 private:
  const BrokerConfig& config_;
  Cluster& cluster_;
  protocol::RecordValidator& validator_;
  ProducerWrites& writes_;
  AppendNotifier& notifier_;
  ReplicationController* replication_ = nullptr;  // not owned
};

}  // namespace kgroups::broker
