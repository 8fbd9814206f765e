// SPDX-License-Identifier: Apache-2.0
//
// Topic administration: what a CreateTopics does, for handlers/create_topics_handler.cc
// (whose header comment lists the behaviour per version). Per topic, in request order: a
// topic named twice in the request, explicit replica assignments, a replication factor other
// than 1 or -1, and invalid configs are refused; then the Cluster's caps (an existing or
// illegal name, partition counts, --max-topics, --max-partitions) and the partitions the
// whole request may create (--max-partitions-per-request); a topic that passes is created
// with its configs stored as given (unless validate_only) and echoed with every topic config
// and its source. error_message is given for the first kMaxErrorMessages refused topics
// only, so a request of many bad topics cannot make a response much larger than itself.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "broker/storage/cluster.h"
#include "protocol/messages/create_topics.h"

namespace kgroups::broker {

inline constexpr std::size_t kMaxErrorMessages = 64;

// The answer to `request` (its version's fields are left to the encoder), having created the
// topics that passed unless it is validate_only. `max_partitions_per_request` bounds the
// partitions of all the request's topics together.
protocol::CreateTopicsResponse create_topics(Cluster& cluster,
                                             std::int64_t max_partitions_per_request,
                                             const protocol::CreateTopicsRequest& request);

}  // namespace kgroups::broker
