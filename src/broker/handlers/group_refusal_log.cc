// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/group_refusal_log.h"

#include <string>

#include "broker/runtime/log_throttle.h"
#include "broker/runtime/logger.h"

namespace kgroups::broker::handlers {
namespace {

// What a limit refusal means, or "" for errors that are not about limits.
std::string_view limit_reason(GroupError error) {
  switch (error) {
    case GroupError::kInvalidRequest:
      return "the client id is longer than --max-id-length";
    case GroupError::kGroupMaxSizeReached:
      return "the group has --group-max-size members, or its members' metadata and "
             "assignments would exceed --max-group-metadata-bytes";
    case GroupError::kPolicyViolation:
      return "--max-groups groups exist already";
    case GroupError::kCoordinatorLoadInProgress:
      return "the groups' share of --max-memory is full";
    case GroupError::kOffsetMetadataTooLarge:
      return "offset metadata is longer than --offset-metadata-max-bytes";
    default:
      return {};
  }
}

}  // namespace

void log_group_refusal(std::string_view peer, std::string_view api, std::string_view group,
                       GroupError error, std::string_view detail) {
  std::string_view reason = limit_reason(error);
  if (reason.empty()) return;
  if (!detail.empty()) reason = detail;
  static LogThrottle throttle;
  const auto left_out = throttle.admit(LogThrottle::Clock::now());
  if (!left_out) return;
  std::string line = std::string(peer) + " " + std::string(api) + " for group " + quote(group) +
                     " refused with " + std::string(group_error_name(error)) + ": " +
                     std::string(reason);
  if (*left_out > 0) line += " (" + std::to_string(*left_out) + " more refusals not logged)";
  log_warn(line);
}

}  // namespace kgroups::broker::handlers
