// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/producer_registry.h"

#include <algorithm>

namespace kgroups::broker {

ProducerRegistry::ProducerRegistry(std::size_t max_idempotent_producers,
                                   std::size_t max_partition_states)
    : max_idempotent_producers_(std::max<std::size_t>(max_idempotent_producers, 1)),
      max_partition_states_(max_partition_states) {}

void ProducerRegistry::restore_issued_below(std::int64_t end) {
  next_producer_id_ = std::max(next_producer_id_, end);
  issued_before_restart_end_ = next_producer_id_;
  saved_block_end_ = next_producer_id_;  // the rest of the last block is not issued again
}

bool ProducerRegistry::ready_to_issue() {
  if (!save_id_block_ || next_producer_id_ < saved_block_end_) return true;
  const std::int64_t block_end = next_producer_id_ + kIdBlockSize;
  if (!save_id_block_(next_producer_id_, block_end)) return false;
  saved_block_end_ = block_end;
  return true;
}

std::int64_t ProducerRegistry::issue(bool transactional) {
  if (!ready_to_issue()) return -1;
  if (!transactional) {
    while (idempotent_count_ >= max_idempotent_producers_ && expire_least_recently_used(-1)) {
    }
    ++idempotent_count_;
  }
  const std::int64_t producer_id = next_producer_id_++;
  RegisteredProducer& producer = producers_[producer_id];
  producer.transactional = transactional;
  touch(producer);
  return producer_id;
}

RegisteredProducer* ProducerRegistry::find(std::int64_t producer_id) {
  const auto found = producers_.find(producer_id);
  return found == producers_.end() ? nullptr : &found->second;
}

bool ProducerRegistry::make_room_for_partition_state(std::int64_t producer_id) {
  while (partition_states_ >= max_partition_states_) {
    if (!expire_least_recently_used(producer_id)) return false;
  }
  return true;
}

void ProducerRegistry::added_partition_state(std::int64_t producer_id, ProducerStateTable& table) {
  RegisteredProducer* producer = find(producer_id);
  if (producer == nullptr) return;
  producer->partitions.push_back(&table);
  ++partition_states_;
}

void ProducerRegistry::adopt_idempotent(std::int64_t producer_id, std::int16_t epoch) {
  if (!producers_.contains(producer_id)) {
    // Within --max-producer-ids, as issue(): the least recently used idempotent one expires.
    while (idempotent_count_ >= max_idempotent_producers_ &&
           expire_least_recently_used(producer_id)) {
    }
  }
  const auto [found, added] = producers_.try_emplace(producer_id);
  RegisteredProducer& producer = found->second;
  if (added) {
    ++idempotent_count_;
    touch(producer);
    producer.epoch = epoch;
  }
  producer.epoch = std::max(producer.epoch, epoch);
  if (producer_id >= next_producer_id_) next_producer_id_ = producer_id + 1;
}

void ProducerRegistry::adopt_transactional(std::int64_t producer_id, std::int16_t epoch) {
  const auto [found, added] = producers_.try_emplace(producer_id);
  RegisteredProducer& producer = found->second;
  if (added) {
    producer.transactional = true;
    touch(producer);
  }
  producer.epoch = epoch;
  if (producer_id >= next_producer_id_) next_producer_id_ = producer_id + 1;
}

void ProducerRegistry::expire(std::int64_t producer_id) {
  const auto found = producers_.find(producer_id);
  if (found == producers_.end()) return;
  for (ProducerStateTable* table : found->second.partitions) {
    if (table->erase(producer_id)) --partition_states_;
  }
  if (!found->second.transactional) --idempotent_count_;
  producers_.erase(found);
}

void ProducerRegistry::forget_partition(const ProducerStateTable& table) {
  for (auto& [producer_id, producer] : producers_) {
    if (std::erase(producer.partitions, &table) > 0 && table.contains(producer_id)) {
      --partition_states_;
    }
  }
}

bool ProducerRegistry::expire_least_recently_used(std::int64_t keep) {
  auto oldest = producers_.end();
  for (auto it = producers_.begin(); it != producers_.end(); ++it) {
    if (it->second.transactional || it->first == keep) continue;
    if (oldest == producers_.end() || it->second.last_used < oldest->second.last_used) oldest = it;
  }
  if (oldest == producers_.end()) return false;
  expire(oldest->first);
  return true;
}

}  // namespace kgroups::broker
