// SPDX-License-Identifier: Apache-2.0
//
// coordinator_refusal(): the error a group request (JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups, ConsumerGroupHeartbeat, ...) gets
// before the coordinator sees it: NOT_COORDINATOR when it came to a broker other than the
// group's coordinator (Broker::coordinator_for(); --brokers), COORDINATOR_NOT_AVAILABLE when
// no broker coordinates it now, COORDINATOR_LOAD_IN_PROGRESS while the new coordinator loads
// the group's __consumer_offsets partition (Broker::coordinator_loading()), else an error a fault
// armed for the API and group injects (POST /v1/faults), else NONE.
// transaction_coordinator_refusal() is the same placement check for the transaction
// coordinator's APIs (transactional InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn,
// EndTxn): the leader of the transactional id's __transaction_state partition coordinates it.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <string_view>

#include "broker/handlers/request_context.h"
#include "protocol/api_key.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

protocol::ErrorCode coordinator_refusal(RequestContext& ctx, protocol::ApiKey api,
                                        std::string_view group_id);

// Only the placement part: NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
// COORDINATOR_LOAD_IN_PROGRESS or NONE; `transactional`: of transactional id `key`.
protocol::ErrorCode coordinator_placement_error(const RequestContext& ctx, std::string_view key,
                                                bool transactional = false);

// The placement error of a request for transactional id `transactional_id` (NONE when the
// receiving broker coordinates it and has loaded it).
protocol::ErrorCode transaction_coordinator_refusal(const RequestContext& ctx,
                                                    std::string_view transactional_id);

}  // namespace kgroups::broker::handlers
