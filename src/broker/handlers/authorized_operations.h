// SPDX-License-Identifier: Apache-2.0
//
// authorized_operations(): the bit set Kafka answers in the *_authorized_operations fields of
// Metadata, DescribeCluster, DescribeGroups, ConsumerGroupDescribe and ShareGroupDescribe: bit
// `code` set for each operation Kafka supports on the resource type (AclEntry.supportedOperations)
// that the client may perform; with the authorizer off every supported one, as Kafka answers
// without an authorizer. kAuthorizedOperationsOmitted is the schema's default, answered when the
// request did not ask for them.
// Not thread-safe: called on the broker's network thread.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "broker/handlers/request_context.h"

namespace kgroups::broker::handlers {

inline constexpr std::int32_t kAuthorizedOperationsOmitted =
    std::numeric_limits<std::int32_t>::min();

std::int32_t authorized_operations(const RequestContext& ctx, AclResourceType type,
                                   std::string_view name);

}  // namespace kgroups::broker::handlers
