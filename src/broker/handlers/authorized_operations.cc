// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/authorized_operations.h"

#include <array>
#include <span>

namespace kgroups::broker::handlers {
namespace {

using enum AclOperation;

constexpr std::array kTopicOperations{kRead,   kWrite, kCreate,          kDescribe,
                                      kDelete, kAlter, kDescribeConfigs, kAlterConfigs};
constexpr std::array kGroupOperations{kRead, kDescribe, kDelete, kDescribeConfigs, kAlterConfigs};
constexpr std::array kClusterOperations{
    kCreate, kClusterAction, kDescribeConfigs, kAlterConfigs, kIdempotentWrite, kAlter, kDescribe};
constexpr std::array kTransactionalIdOperations{kDescribe, kWrite, kTwoPhaseCommit};
constexpr std::array kDelegationTokenOperations{kDescribe};
constexpr std::array kUserOperations{kCreateTokens, kDescribeTokens};

// Kafka's AclEntry.supportedOperations.
std::span<const AclOperation> supported_operations(AclResourceType type) {
  switch (type) {
    case AclResourceType::kTopic:
      return kTopicOperations;
    case AclResourceType::kGroup:
      return kGroupOperations;
    case AclResourceType::kCluster:
      return kClusterOperations;
    case AclResourceType::kTransactionalId:
      return kTransactionalIdOperations;
    case AclResourceType::kDelegationToken:
      return kDelegationTokenOperations;
    case AclResourceType::kUser:
      return kUserOperations;
    default:
      return {};
  }
}

}  // namespace

std::int32_t authorized_operations(const RequestContext& ctx, AclResourceType type,
                                   std::string_view name) {
  std::uint32_t bits = 0;
  for (const AclOperation operation : supported_operations(type)) {
    if (ctx.allowed(operation, type, name)) bits |= 1U << static_cast<unsigned>(operation);
  }
  return static_cast<std::int32_t>(bits);
}

}  // namespace kgroups::broker::handlers
