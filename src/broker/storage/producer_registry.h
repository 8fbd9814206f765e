// SPDX-License-Identifier: Apache-2.0
//
// ProducerRegistry: the producer ids this broker issued (InitProducerId), with each one's
// epoch and the partitions that hold state for it. Produce accepts a producer id only if it is
// registered here. Bounded: at most `max_idempotent_producers` ids of producers without a
// transactional id (at the limit, issuing one more expires the least recently used, as Kafka
// expires producers idle for producer.id.expiration.ms), and at most `max_partition_states`
// per-partition entries of all producers together (at the limit, the least recently used
// idempotent producer expires; if there is none other, the write is refused). An expired
// producer's state leaves every partition; its next Produce gets UNKNOWN_PRODUCER_ID, and
// clients then ask for a new id. Transactional producers' ids are the transaction
// coordinator's to release (it bounds transactional ids).
// With --log-dirs, ids are issued from blocks of 1000 that are saved before the first of them
// is issued (Kafka's controller keeps the blocks in its metadata log): after a restart, new ids
// start past the last saved block, so no id is issued twice, and a producer that got its id
// before the restart may still write (its first write registers it again).
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "broker/storage/producer_state.h"

namespace kgroups::broker {

struct RegisteredProducer {
  // Idempotent producers: the epoch issued (0); clients may bump it themselves (KIP-360), so
  // any epoch at or above it is theirs. Transactional producers: the current epoch; others are
  // fenced.
  std::int16_t epoch = 0;
  bool transactional = false;
  std::uint64_t last_used = 0;                  // the registry's use counter at its last use
  std::vector<ProducerStateTable*> partitions;  // the tables with an entry for it
};

class ProducerRegistry {
 public:
  ProducerRegistry(std::size_t max_idempotent_producers, std::size_t max_partition_states);
  ProducerRegistry(const ProducerRegistry&) = delete;
  ProducerRegistry& operator=(const ProducerRegistry&) = delete;

  // Ids per saved block (Kafka's ProducerIdsBlock size).
  static constexpr std::int64_t kIdBlockSize = 1000;
  // Saves that ids up to `block_end` (exclusive) may be issued, from `block_start`, before
  // any of them is; false when it could not be saved (nothing is issued then).
  using SaveIdBlock = std::function<bool(std::int64_t block_start, std::int64_t block_end)>;
  void save_id_blocks_with(SaveIdBlock save) { save_id_block_ = std::move(save); }
  // At a restart, after adopting the producers the logs name: ids below `end` were issued
  // before (a saved block's end), and new ones start at or past it.
  void restore_issued_below(std::int64_t end);
  // Whether `producer_id` was issued before the restart (it may write without being
  // registered: adopt_idempotent then registers it).
  [[nodiscard]] bool issued_before_restart(std::int64_t producer_id) const {
    return producer_id >= 0 && producer_id < issued_before_restart_end_;
  }

  // Whether the next id can be issued: with a block saver, the block holding it is saved
  // first. False when saving failed; issue() would then return -1.
  bool ready_to_issue();
  // Issues a new producer id at epoch 0, or -1 if ready_to_issue() fails. An idempotent one
  // at the limit first expires the least recently used idempotent producer.
  std::int64_t issue(bool transactional);

  // Registers `producer_id` as a transactional producer at `epoch` (a transaction coordinator
  // loading its log: the id was issued before); an id registered already takes the epoch.
  // Ids issued later are above it.
  void adopt_transactional(std::int64_t producer_id, std::int16_t epoch);

  // Registers `producer_id` as an idempotent producer at `epoch` or above (a restart found its
  // batches in the logs); an id registered already keeps its kind and takes the larger epoch.
  // Ids issued later are above it.
  void adopt_idempotent(std::int64_t producer_id, std::int16_t epoch);

  // The producer registered as `producer_id`, or nullptr.
  RegisteredProducer* find(std::int64_t producer_id);

  // Marks the producer used now (it becomes the last to expire).
  void touch(RegisteredProducer& producer) { producer.last_used = ++use_counter_; }

  // Before a write creates the producer's entry in a partition: makes room for one more
  // entry, expiring least recently used idempotent producers other than `producer_id`.
  // Returns false when there is no room (nothing may be stored then).
  bool make_room_for_partition_state(std::int64_t producer_id);
  // After ProducerStateTable::record() created an entry for the producer in `table`.
  void added_partition_state(std::int64_t producer_id, ProducerStateTable& table);

  // Forgets the producer and removes its entries from every partition.
  void expire(std::int64_t producer_id);

  // Before `table`'s partition is deleted (DeleteTopics): drops every producer's reference to
  // it and its entries from the count. The producers stay registered.
  void forget_partition(const ProducerStateTable& table);

  [[nodiscard]] std::size_t size() const { return producers_.size(); }
  [[nodiscard]] std::size_t idempotent_count() const { return idempotent_count_; }
  [[nodiscard]] std::size_t partition_state_count() const { return partition_states_; }

 private:
  // Expires the least recently used idempotent producer other than `keep`; false if none.
  bool expire_least_recently_used(std::int64_t keep);

  std::size_t max_idempotent_producers_;
  std::size_t max_partition_states_;
  std::unordered_map<std::int64_t, RegisteredProducer> producers_;
  std::int64_t next_producer_id_ = 0;
  SaveIdBlock save_id_block_;
  std::int64_t saved_block_end_ = 0;  // ids below it are covered by a saved block
  std::int64_t issued_before_restart_end_ = 0;
  std::uint64_t use_counter_ = 0;
  std::size_t idempotent_count_ = 0;
  std::size_t partition_states_ = 0;  // entries of all producers in all partitions
};

}  // namespace kgroups::broker
