// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/stored_bytes.h"

#include <memory>
#include <string>
#include <utility>

#include "broker/coordinator/classic_group.h"
#include "broker/coordinator/offset_store.h"

namespace kgroups::broker {

std::size_t group_entry_bytes(std::string_view group_id) {
  constexpr std::size_t kTableEntry =
      kHashNodeOverheadBytes + sizeof(std::string) + sizeof(std::unique_ptr<ClassicGroup>);
  constexpr std::size_t kDeadlineEntry =
      kTreeNodeOverheadBytes + sizeof(std::pair<Clock::TimePoint, std::string_view>) +
      kHashNodeOverheadBytes + sizeof(std::pair<std::string_view, Clock::TimePoint>);
  return sizeof(ClassicGroup) + kAllocationOverheadBytes + kTableEntry + kDeadlineEntry +
         2 * group_id.size();
}

std::size_t member_entry_bytes(const GroupMember& member) {
  constexpr std::size_t kMapEntry = kTreeNodeOverheadBytes + sizeof(std::string);
  constexpr std::size_t kPendingSyncEntry = kTreeNodeOverheadBytes + sizeof(std::string);
  constexpr std::size_t kStaticMemberEntry = kTreeNodeOverheadBytes + 2 * sizeof(std::string);
  const std::size_t static_bytes =
      member.group_instance_id ? kStaticMemberEntry + 2 * member.group_instance_id->size() : 0;
  return sizeof(GroupMember) + kMapEntry + kPendingSyncEntry +
         member_id_copies(member) * member.member_id.size() + static_bytes +
         member.client_id.size() + member.client_host.size() + member.protocol_type.size() +
         protocols_bytes(member.protocols) + member.assignment.size();
}

std::size_t member_id_copies(const GroupMember& member) { return member.group_instance_id ? 5 : 4; }

std::size_t protocols_bytes(const std::vector<GroupProtocol>& protocols) {
  std::size_t bytes = protocols.empty() ? 0 : kAllocationOverheadBytes;
  for (const GroupProtocol& protocol : protocols) {
    bytes += sizeof(GroupProtocol) + kAllocationOverheadBytes + 2 * protocol.name.size() +
             protocol.metadata.size();
  }
  return bytes;
}

std::size_t pending_member_bytes(std::string_view member_id) {
  return kTreeNodeOverheadBytes + sizeof(std::string) + sizeof(Clock::TimePoint) + member_id.size();
}

std::size_t offset_entry_bytes(std::string_view topic, std::string_view metadata) {
  return kTreeNodeOverheadBytes + sizeof(TopicPartition) + sizeof(CommittedOffset) + topic.size() +
         metadata.size();
}

std::size_t protocols_metadata_bytes(const std::vector<GroupProtocol>& protocols) {
  std::size_t bytes = 0;
  for (const GroupProtocol& protocol : protocols) {
    bytes += protocol.name.size() + protocol.metadata.size();
  }
  return bytes;
}

}  // namespace kgroups::broker
