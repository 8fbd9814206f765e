// SPDX-License-Identifier: Apache-2.0
//
// Stored bytes: how many bytes the coordinator counts for each thing it keeps, the
// unit of CoordinatorConfig::max_stored_bytes. An entry costs its strings and byte
// vectors at their size plus a fixed overhead for the structs, container nodes and
// allocator headers that hold it (figures for 64-bit libstdc++ and glibc malloc).
// Copies the coordinator may make later (a member id as the group's leader id or
// pending-sync entry, a protocol name as the group's selected protocol) are charged
// when the original is stored, so steps that no call paid for (timers) never grow
// the total. Thread-safe: pure functions.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "broker/coordinator/group_member.h"
#include "broker/coordinator/join_group.h"

namespace kgroups::broker {

// A std::map/std::set node's three links and colour plus its allocation header.
constexpr std::size_t kTreeNodeOverheadBytes = 48;
// An unordered_map node's next link and cached hash, its bucket slot, and its
// allocation header.
constexpr std::size_t kHashNodeOverheadBytes = 40;
// The header glibc malloc puts before each allocation.
constexpr std::size_t kAllocationOverheadBytes = 16;

// A group with this id and nothing else: the ClassicGroup, its place in the coordinator's
// table and deadline index, the id twice (table key and ClassicGroup).
std::size_t group_entry_bytes(std::string_view group_id);

// A member: the GroupMember and its map node, its id member_id_copies() times,
// client id and host, protocol type, protocols, assignment; for a static member
// also its instance id twice (field, and key of the group's instance id map) with
// that map's node.
std::size_t member_entry_bytes(const GroupMember& member);

// How many copies of its member id a member costs: four (key, field, leader id,
// pending-sync entry), five for a static member (the instance id map's value).
std::size_t member_id_copies(const GroupMember& member);

// A member's protocols, each name counted twice (the group may select it).
std::size_t protocols_bytes(const std::vector<GroupProtocol>& protocols);

// A member id handed out with MEMBER_ID_REQUIRED, with its expiry.
std::size_t pending_member_bytes(std::string_view member_id);

// One committed partition: its map node, topic name and metadata.
std::size_t offset_entry_bytes(std::string_view topic, std::string_view metadata);

// What max_group_metadata_bytes bounds for one member's protocols: every protocol's
// name and metadata.
std::size_t protocols_metadata_bytes(const std::vector<GroupProtocol>& protocols);

}  // namespace kgroups::broker
