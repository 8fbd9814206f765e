// SPDX-License-Identifier: Apache-2.0
//
// What DescribeGroups and ListGroups report about groups: plain snapshots, copied
// out of the coordinator, so they stay valid after later calls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/group_error.h"

namespace kgroups::broker {

struct MemberSummary {
  std::string member_id;
  std::string client_id;
  std::string client_host;
  std::vector<std::uint8_t> metadata;            // for the selected protocol; empty unless Stable
  std::vector<std::uint8_t> assignment;          // empty unless Stable
  std::optional<std::string> group_instance_id;  // set for a static member (v4+)
};

struct GroupSummary {
  GroupError error = GroupError::kNone;
  std::string group_id;
  std::string state;  // Kafka's name: "Empty", "PreparingRebalance", ..., "Dead"
  std::string protocol_type;
  std::string protocol_name;  // empty unless Stable
  std::vector<MemberSummary> members;
};

struct GroupListing {
  std::string group_id;
  std::string protocol_type;
  std::string state;  // Kafka's name, for ListGroups v4+
};

}  // namespace kgroups::broker
