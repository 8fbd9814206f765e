// SPDX-License-Identifier: Apache-2.0
//
// GroupObserverList: one GroupObserver that hands every observation to several, in the order
// they were added — the coordinators take one observer, and the Broker has two (its
// EventRecorder and its ReplayTracker).
// The observers are not owned and must outlive the list. Not thread-safe: called on the
// coordinators' thread.
#pragma once

#include <vector>

#include "broker/coordinator/group_observer.h"

namespace kgroups::broker {

class GroupObserverList : public GroupObserver {
 public:
  // Adds `observer` (not nullptr) after those already added.
  void add(GroupObserver* observer) { observers_.push_back(observer); }

  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override {
    for (GroupObserver* observer : observers_) observer->on_member_joined(type, group_id, member);
  }
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view reason) override {
    for (GroupObserver* observer : observers_) {
      observer->on_member_left(type, group_id, member, reason);
    }
  }
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view reason) override {
    for (GroupObserver* observer : observers_) {
      observer->on_member_expired(type, group_id, member, reason);
    }
  }
  void on_member_updated(GroupType type, std::string_view group_id, std::string_view member_id,
                         MemberUpdate update) override {
    for (GroupObserver* observer : observers_) {
      observer->on_member_updated(type, group_id, member_id, update);
    }
  }
  void on_rebalance_started(GroupType type, std::string_view group_id, std::int32_t generation,
                            std::string_view reason) override {
    for (GroupObserver* observer : observers_) {
      observer->on_rebalance_started(type, group_id, generation, reason);
    }
  }
  void on_rebalance_completed(const ObservedRebalance& rebalance) override {
    for (GroupObserver* observer : observers_) observer->on_rebalance_completed(rebalance);
  }
  void on_offsets_committed(GroupType type, std::string_view group_id, std::string_view member_id,
                            std::span<const PartitionOffset> offsets) override {
    for (GroupObserver* observer : observers_) {
      observer->on_offsets_committed(type, group_id, member_id, offsets);
    }
  }
  void on_group_deleted(GroupType type, std::string_view group_id) override {
    for (GroupObserver* observer : observers_) observer->on_group_deleted(type, group_id);
  }
  void on_group_forgotten(GroupType type, std::string_view group_id) override {
    for (GroupObserver* observer : observers_) observer->on_group_forgotten(type, group_id);
  }
  void on_records_released(const ObservedRelease& release) override {
    for (GroupObserver* observer : observers_) observer->on_records_released(release);
  }

 private:
  std::vector<GroupObserver*> observers_;  // in the order added; none is nullptr
};

}  // namespace kgroups::broker
