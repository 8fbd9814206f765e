// SPDX-License-Identifier: Apache-2.0
//
// ProduceService: what a Produce does, for handlers/produce_handler.cc (whose header comment
// lists the behaviour per version): validates each partition's batch, auto-creates topics,
// appends, wakes the fetches waiting on the partitions appended to, and logs refusals.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <string_view>

#include "broker/config/broker_config.h"
#include "broker/faults/partition_faults.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/transactions/producer_writes.h"
#include "protocol/messages/produce.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

struct ProduceOutcome {
  protocol::ProduceResponse response;
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
  ProduceOutcome produce(const protocol::ProduceRequest& request, std::string_view peer,
                         PartitionFaults* faults = nullptr);

 private:
  const BrokerConfig& config_;
  Cluster& cluster_;
  protocol::RecordValidator& validator_;
  ProducerWrites& writes_;
  AppendNotifier& notifier_;
};

}  // namespace kgroups::broker
