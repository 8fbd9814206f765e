// SPDX-License-Identifier: Apache-2.0
//
// Topic: the facade. It validates arguments and options, takes the locks and
// delegates to PartitionLog (storage), KeyPartitioner (placement) and
// GroupRegistry / GroupState (membership, assignment, positions, committed
// offsets, rebalance history) with the assignor and offset reset policy the
// options name. Every throw happens before any state changes.
//
// Locks: each partition has a mutex guarding its log; each group has a mutex
// guarding its state; the registry's lock guards only the map of groups.
// Order: group mutex, then partition mutexes in ascending partition order.
// append takes only its partition's mutex, so appends to different partitions
// run in parallel. poll holds the group's mutex and all of the consumer's
// partition mutexes at once, so what it returns is one consistent cut.
#include "kgroups/topic.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "group/assignor_catalog.h"
#include "group/group_policy.h"
#include "group/group_registry.h"
#include "kgroups/errors.h"
#include "kgroups/partitioner.h"
#include "log/partition_log.h"
#include "partitioner/key_partitioner.h"
#include "share/share_group_registry.h"
#include "share/share_limits.h"
#include "topic/partition_mutex.h"

namespace kgroups {
namespace {

// One partition: its log and the mutex guarding it, on its own cache lines so
// that appends to neighbouring partitions do not contend.
struct alignas(64) Partition {
  explicit Partition(int index) : log(index) {}

  mutable PartitionMutex mutex;  // guards log
  PartitionLog log;
};

std::string quoted(std::string_view text) {
  std::string result;
  result.reserve(text.size() + 2);
  result.push_back('"');
  result.append(text);
  result.push_back('"');
  return result;
}

std::string partition_list(const std::vector<int>& partitions) {
  std::string text = "[";
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(partitions[i]);
  }
  return text + "]";
}

template <std::size_t kCount>
std::string choice_list(const std::array<std::string_view, kCount>& choices) {
  std::string text;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (i > 0) text += i + 1 == kCount ? " or " : ", ";
    text += quoted(choices[i]);
  }
  return text;
}

[[noreturn]] void throw_unknown_option(const char* option, std::string_view value,
                                       const std::string& choices) {
  throw std::invalid_argument("Topic: unknown " + std::string(option) + " " + quoted(value) +
                              "; choose " + choices);
}

// The options, checked in SPEC.md's order, turned into what the engine runs.
struct ParsedOptions {
  explicit ParsedOptions(const TopicOptions& options) {
    const std::optional<KeyHash> named_hash = key_hash_named(options.partitioner);
    if (!named_hash) {
      throw_unknown_option("partitioner", options.partitioner, choice_list(kPartitionerChoices));
    }
    hash = *named_hash;
    assignor = assignor_named(options.assignor);
    if (assignor == nullptr) {
      throw_unknown_option("assignor", options.assignor, choice_list(kAssignorChoices));
    }
    const std::optional<OffsetReset> named_reset = offset_reset_named(options.auto_offset_reset);
    if (!named_reset) {
      throw_unknown_option("auto_offset_reset", options.auto_offset_reset,
                           choice_list(kAutoOffsetResetChoices));
    }
    reset = *named_reset;
    if (std::find(kShareAutoOffsetResetChoices.begin(), kShareAutoOffsetResetChoices.end(),
                  options.share_auto_offset_reset) == kShareAutoOffsetResetChoices.end()) {
      throw_unknown_option("share_auto_offset_reset", options.share_auto_offset_reset,
                           choice_list(kShareAutoOffsetResetChoices));
    }
    share_latest = options.share_auto_offset_reset == "latest";
    check_range("record_lock_duration_ms", options.record_lock_duration_ms, 1,
                std::numeric_limits<std::int64_t>::max());
    check_range("delivery_count_limit", options.delivery_count_limit, share::kMinDeliveryCountLimit,
                share::kMaxDeliveryCountLimit);
    check_range("partition_max_record_locks", options.partition_max_record_locks,
                share::kMinPartitionMaxRecordLocks, share::kMaxPartitionMaxRecordLocks);
    share_limits = {options.record_lock_duration_ms, options.delivery_count_limit,
                    options.partition_max_record_locks};
  }

  KeyHash hash = KeyHash::kFnv1a;
  const Assignor* assignor = nullptr;
  OffsetReset reset = OffsetReset::kEarliest;
  bool share_latest = true;  // share_auto_offset_reset "latest"
  share::ShareLimits share_limits;

 private:
  static void check_range(const char* option, std::int64_t value, std::int64_t min,
                          std::int64_t max) {
    if (value >= min && value <= max) return;
    const std::string range = max == std::numeric_limits<std::int64_t>::max()
                                  ? "at least " + std::to_string(min)
                                  : "in " + std::to_string(min) + ".." + std::to_string(max);
    throw std::invalid_argument("Topic: " + std::string(option) + " must be " + range + ", got " +
                                std::to_string(value));
  }
};

// Unlocks partition mutexes locked in ascending order, also on exceptions.
class PartitionLocks {
 public:
  PartitionLocks(const std::vector<std::unique_ptr<Partition>>& partitions,
                 const std::vector<int>& indices)
      : partitions_(partitions), indices_(indices) {
    for (const int index : indices_) partitions_[static_cast<std::size_t>(index)]->mutex.lock();
  }
  ~PartitionLocks() {
    for (const int index : indices_) partitions_[static_cast<std::size_t>(index)]->mutex.unlock();
  }
  PartitionLocks(const PartitionLocks&) = delete;
  PartitionLocks& operator=(const PartitionLocks&) = delete;

 private:
  const std::vector<std::unique_ptr<Partition>>& partitions_;
  const std::vector<int>& indices_;
};

}  // namespace

static_assert(GroupState::kHistoryCapacity == Topic::kRebalanceHistory);

struct Topic::Impl final : EndOffsets {
  Impl(int num_partitions, TopicOptions topic_options, const ParsedOptions& parsed)
      : options(std::move(topic_options)),
        partitioner(num_partitions, parsed.hash),
        groups(num_partitions, GroupPolicy{parsed.assignor, parsed.reset, this}),
        share_groups(num_partitions, parsed.share_limits),
        share_latest(parsed.share_latest) {
    partitions.reserve(static_cast<std::size_t>(num_partitions));
    for (int index = 0; index < num_partitions; ++index) {
      partitions.push_back(std::make_unique<Partition>(index));
    }
  }

  [[nodiscard]] int num_partitions() const noexcept { return static_cast<int>(partitions.size()); }

  [[nodiscard]] Partition& partition(int index) const noexcept {
    return *partitions[static_cast<std::size_t>(index)];
  }

  void check_partition(const char* operation, int index) const {
    if (index < 0 || index >= num_partitions()) {
      throw std::out_of_range(std::string(operation) + ": partition " + std::to_string(index) +
                              " is out of range; this topic has partitions 0.." +
                              std::to_string(num_partitions() - 1));
    }
  }

  [[nodiscard]] std::int64_t end_offset(int index) const override {
    const Partition& entry = partition(index);
    const std::lock_guard lock(entry.mutex);
    return entry.log.end_offset();
  }

  // The consumer group with this name, created if new; throws std::invalid_argument
  // (creating nothing) if a share group has the name.
  Group& consumer_group(std::string_view name) {
    if (Group* entry = groups.find(name)) return *entry;
    const std::lock_guard lock(names_mutex);
    if (share_groups.find(name) != nullptr) throw_name_taken("join", name, "share", "consumer");
    return groups.find_or_create(name);
  }

  // The share group with this name, created if new; throws std::invalid_argument
  // (creating nothing) if a consumer group has the name.
  share::LockedShareGroup& share_group(std::string_view name) {
    if (share::LockedShareGroup* entry = share_groups.find(name)) return *entry;
    const std::lock_guard lock(names_mutex);
    if (groups.find(name) != nullptr) throw_name_taken("share_join", name, "consumer", "share");
    return share_groups.find_or_create(name);
  }

  [[noreturn]] static void throw_name_taken(const char* operation, std::string_view name,
                                            const char* kind, const char* wanted) {
    throw std::invalid_argument(std::string(operation) + ": group " + quoted(name) + " is a " +
                                kind + " group; a " + wanted +
                                " group needs a name no group of the other kind uses (consumer "
                                "groups and share groups share one namespace)");
  }

  // Where a share-partition starts when first assigned (share_auto_offset_reset).
  [[nodiscard]] std::int64_t share_start_offset(int index) const {
    return share_latest ? end_offset(index) : 0;
  }

  // A share-partition's state (a valid partition), or what share_auto_offset_reset would
  // give it now if the group was never assigned it.
  [[nodiscard]] Topic::SharePartitionState share_state(std::string_view group, int index) const {
    Topic::SharePartitionState state;
    share::LockedShareGroup* entry = share_groups.find(group);
    const std::unique_lock lock =
        entry != nullptr ? std::unique_lock(entry->mutex) : std::unique_lock<std::mutex>();
    const share::SharePartition* share = entry != nullptr ? entry->group.partition(index) : nullptr;
    if (share == nullptr) {
      state.start_offset = share_start_offset(index);
      state.end_offset = state.start_offset;
      return state;
    }
    const share::InFlightCounts counts = share->in_flight();
    state.start_offset = share->start_offset();
    state.end_offset = share->end_offset();
    state.available = counts.available;
    state.acquired = counts.acquired;
    state.acknowledged = counts.acknowledged;
    state.archived = counts.archived;
    state.deliveries = share->totals().deliveries;
    state.redeliveries = share->totals().redeliveries;
    return state;
  }

  [[nodiscard]] std::int64_t now() const noexcept {
    return clock_ms.load(std::memory_order_acquire);
  }

  TopicOptions options;
  KeyPartitioner partitioner;
  std::vector<std::unique_ptr<Partition>> partitions;
  GroupRegistry groups;
  std::mutex names_mutex;  // held while creating a group of either kind (one namespace)
  share::ShareGroupRegistry share_groups;
  bool share_latest;
  std::mutex clock_mutex;  // serializes advance_clock
  std::atomic<std::int64_t> clock_ms{0};
};

namespace {

int checked_partition_count(int num_partitions) {
  if (num_partitions < 1) {
    throw std::invalid_argument("Topic: num_partitions must be at least 1, got " +
                                std::to_string(num_partitions));
  }
  return num_partitions;
}

}  // namespace

Topic::Topic(int num_partitions) : Topic(num_partitions, TopicOptions{}) {}
// num_partitions is checked before the options (SPEC.md, "Options"), in a
// statement of its own: the order of a call's arguments is unspecified.
Topic::Topic(int num_partitions, const TopicOptions& options) {
  const int checked_num_partitions = checked_partition_count(num_partitions);
  const ParsedOptions parsed(options);
  impl_ = std::make_unique<Impl>(checked_num_partitions, options, parsed);
}
Topic::~Topic() = default;
Topic::Topic(Topic&&) noexcept = default;
Topic& Topic::operator=(Topic&&) noexcept = default;

int Topic::num_partitions() const noexcept { return impl_->num_partitions(); }
const TopicOptions& Topic::options() const noexcept { return impl_->options; }

std::pair<int, std::int64_t> Topic::append(std::string_view key, std::string_view value,
                                           Encoding key_encoding, Encoding value_encoding) {
  const int index = impl_->partitioner.partition(key);
  Partition& entry = impl_->partition(index);
  const std::lock_guard lock(entry.mutex);
  return {index, entry.log.append(key, value, key_encoding, value_encoding)};
}

std::int64_t Topic::end_offset(int partition) const {
  impl_->check_partition("end_offset", partition);
  return impl_->end_offset(partition);
}

void Topic::join(std::string_view group, std::string_view consumer) {
  Group& entry = impl_->consumer_group(group);
  const std::lock_guard lock(entry.mutex);
  entry.state.join(consumer);
}

void Topic::leave(std::string_view group, std::string_view consumer) {
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr) return;
  const std::lock_guard lock(entry->mutex);
  entry->state.leave(consumer);
}

std::vector<int> Topic::assignment(std::string_view group, std::string_view consumer) const {
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr) return {};
  const std::lock_guard lock(entry->mutex);
  const Member* member = entry->state.find(consumer);
  return member == nullptr ? std::vector<int>{} : member->partitions;
}

std::vector<Record> Topic::poll(std::string_view group, std::string_view consumer,
                                int max_records) {
  if (max_records < 0) {
    throw std::invalid_argument("poll: max_records must be 0 or more, got " +
                                std::to_string(max_records));
  }
  std::vector<Record> records;
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr || max_records == 0) return records;
  const std::lock_guard lock(entry->mutex);
  Member* member = entry->state.find(consumer);
  if (member == nullptr || member->partitions.empty()) return records;
  if (std::vector<int> unresolved; !entry->state.resolve_positions(*member, unresolved)) {
    std::string message = "poll: group " + quoted(group) +
                          " has no committed offset for partitions " + partition_list(unresolved) +
                          " of consumer " + quoted(consumer) +
                          R"( and auto_offset_reset is "none"; commit a starting offset for )"
                          R"(them (commit with offsets) or use auto_offset_reset "earliest" )"
                          R"(or "latest")";
    throw NoOffsetError(message, std::move(unresolved));
  }

  const PartitionLocks locks(impl_->partitions, member->partitions);
  std::int64_t wanted = 0;
  for (std::size_t i = 0; i < member->partitions.size() && wanted < max_records; ++i) {
    wanted += impl_->partition(member->partitions[i]).log.end_offset() - member->positions[i];
  }
  records.reserve(static_cast<std::size_t>(std::min<std::int64_t>(wanted, max_records)));
  // From here on nothing throws: read within the reserved capacity, then advance.
  std::int64_t remaining = max_records;
  for (std::size_t i = 0; i < member->partitions.size() && remaining > 0; ++i) {
    const PartitionLog& log = impl_->partition(member->partitions[i]).log;
    std::int64_t& position = member->positions[i];
    const std::int64_t count = std::min(log.end_offset() - position, remaining);
    if (count <= 0) continue;
    log.read_into(position, count, records);
    position += count;
    remaining -= count;
  }
  return records;
}

void Topic::commit(std::string_view group, std::string_view consumer) {
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr) return;
  const std::lock_guard lock(entry->mutex);
  if (const Member* member = entry->state.find(consumer)) entry->state.commit_positions(*member);
}

void Topic::commit(std::string_view group, std::string_view consumer,
                   const std::map<int, std::int64_t>& offsets) {
  if (offsets.empty()) return;
  Group* entry = impl_->groups.find(group);
  const std::unique_lock lock =
      entry != nullptr ? std::unique_lock(entry->mutex) : std::unique_lock<std::mutex>();
  const Member* member = entry != nullptr ? entry->state.find(consumer) : nullptr;
  static const std::vector<int> kNoPartitions;
  const std::vector<int>& assigned = member != nullptr ? member->partitions : kNoPartitions;

  for (const auto& [partition, offset] : offsets) {
    if (!std::binary_search(assigned.begin(), assigned.end(), partition)) {
      throw NotAssignedError("commit: partition " + std::to_string(partition) +
                                 " is not assigned to consumer " + quoted(consumer) + " in group " +
                                 quoted(group) + " (its partitions: " + partition_list(assigned) +
                                 "); commit only the partitions assigned to this consumer now, "
                                 "for example after polling them",
                             partition);
    }
  }
  for (const auto& [partition, offset] : offsets) {
    const std::int64_t end = impl_->end_offset(partition);
    if (offset < 0 || offset > end) {
      throw std::invalid_argument("commit: offset " + std::to_string(offset) + " for partition " +
                                  std::to_string(partition) + " is outside 0.." +
                                  std::to_string(end) + " (0 up to the partition's end offset)");
    }
  }
  for (const auto& [partition, offset] : offsets) entry->state.set_committed(partition, offset);
}

std::map<int, std::int64_t> Topic::lag(std::string_view group) const {
  std::map<int, std::int64_t> lags;
  Group* entry = impl_->groups.find(group);
  const std::unique_lock lock =
      entry != nullptr ? std::unique_lock(entry->mutex) : std::unique_lock<std::mutex>();
  for (int partition = 0; partition < impl_->num_partitions(); ++partition) {
    const std::int64_t committed = entry != nullptr ? entry->state.committed(partition) : 0;
    lags.emplace_hint(lags.end(), partition, impl_->end_offset(partition) - committed);
  }
  return lags;
}

std::vector<Rebalance> Topic::rebalances(std::string_view group) const {
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr) return {};
  const std::lock_guard lock(entry->mutex);
  return entry->state.rebalances();
}

std::int64_t Topic::committed(std::string_view group, int partition) const {
  impl_->check_partition("committed", partition);
  Group* entry = impl_->groups.find(group);
  if (entry == nullptr) return 0;
  const std::lock_guard lock(entry->mutex);
  return entry->state.committed(partition);
}

// ---- Share groups ----
// Locks: the share group's mutex, then partition mutexes in ascending order (as for consumer
// groups). Every call on a share group first releases the locks that ran out by the clock,
// so a record whose lock expired is never acknowledged, also while advance_clock is still
// on its way to the group.

namespace {

std::string not_a_member(const char* operation, std::string_view group, std::string_view member) {
  return std::string(operation) + ": member " + quoted(member) + " is not in share group " +
         quoted(group) + "; call share_join first";
}

void check_acknowledge_type(AcknowledgeType type) {
  switch (type) {
    case AcknowledgeType::kAccept:
    case AcknowledgeType::kRelease:
    case AcknowledgeType::kReject:
      return;
    case AcknowledgeType::kGap:
      break;
  }
  throw std::invalid_argument(
      "acknowledge: type " + std::to_string(static_cast<int>(type)) +
      " is not a record's acknowledgement (kGap is the wire's value for a gap in a batch); use "
      "kAccept, kRelease or kReject");
}

}  // namespace

void Topic::share_join(std::string_view group, std::string_view member) {
  share::LockedShareGroup& entry = impl_->share_group(group);
  const std::lock_guard lock(entry.mutex);
  entry.group.expire_locks(impl_->now());
  entry.group.join(member, [this](int index) { return impl_->share_start_offset(index); });
}

void Topic::share_leave(std::string_view group, std::string_view member) {
  share::LockedShareGroup* entry = impl_->share_groups.find(group);
  if (entry == nullptr) return;
  const std::lock_guard lock(entry->mutex);
  entry->group.expire_locks(impl_->now());
  entry->group.leave(member, [this](int index) { return impl_->share_start_offset(index); });
}

std::vector<int> Topic::share_assignment(std::string_view group, std::string_view member) const {
  share::LockedShareGroup* entry = impl_->share_groups.find(group);
  if (entry == nullptr) return {};
  const std::lock_guard lock(entry->mutex);
  const share::ShareMember* found = entry->group.find(member);
  return found == nullptr ? std::vector<int>{} : found->partitions;
}

std::vector<ShareRecord> Topic::share_poll(std::string_view group, std::string_view member,
                                           int max_records) {
  if (max_records < 0) {
    throw std::invalid_argument("share_poll: max_records must be 0 or more, got " +
                                std::to_string(max_records));
  }
  share::LockedShareGroup* entry = impl_->share_groups.find(group);
  if (entry == nullptr) throw std::invalid_argument(not_a_member("share_poll", group, member));
  const std::lock_guard lock(entry->mutex);
  const share::ShareMember* found = entry->group.find(member);
  if (found == nullptr) throw std::invalid_argument(not_a_member("share_poll", group, member));
  const std::int64_t now = impl_->now();
  entry->group.expire_locks(now);
  std::vector<ShareRecord> records;
  if (max_records == 0 || found->partitions.empty()) return records;

  // One consistent cut of the member's partitions, as poll takes.
  const PartitionLocks locks(impl_->partitions, found->partitions);
  std::int64_t bound = 0;  // the most records the member could acquire now
  for (const int index : found->partitions) {
    const std::int64_t in_reach =
        impl_->partition(index).log.end_offset() - entry->group.partition(index)->start_offset();
    bound += std::min<std::int64_t>(in_reach, impl_->options.partition_max_record_locks);
  }
  const auto wanted = static_cast<std::size_t>(std::min<std::int64_t>(bound, max_records));
  records.reserve(wanted);
  std::vector<share::AcquiredRange>& ranges = entry->group.ranges_scratch();
  ranges.reserve(wanted);
  // From here on nothing throws: acquire, then read what was acquired within the capacity.
  int remaining = max_records;
  for (std::size_t i = 0; i < found->partitions.size() && remaining > 0; ++i) {
    const PartitionLog& log = impl_->partition(found->partitions[i]).log;
    ranges.clear();
    remaining -= entry->group.acquire(*found, found->partitions[i], log.end_offset(), remaining,
                                      now, ranges);
    for (const share::AcquiredRange& range : ranges) {
      log.read_into(range.first_offset, range.last_offset - range.first_offset + 1,
                    range.delivery_count, records);
    }
  }
  return records;
}

void Topic::acknowledge(std::string_view group, std::string_view member,
                        const std::vector<std::pair<int, std::int64_t>>& records,
                        AcknowledgeType type) {
  check_acknowledge_type(type);
  if (records.empty()) return;
  share::LockedShareGroup* entry = impl_->share_groups.find(group);
  const std::unique_lock lock =
      entry != nullptr ? std::unique_lock(entry->mutex) : std::unique_lock<std::mutex>();
  const share::ShareMember* found = nullptr;
  if (entry != nullptr) {
    entry->group.expire_locks(impl_->now());
    found = entry->group.find(member);
  }
  const std::optional<std::pair<int, std::int64_t>> missing =
      found != nullptr ? entry->group.first_not_held(*found, records)
                       : std::optional<std::pair<int, std::int64_t>>(records.front());
  if (missing) {
    const auto [partition, offset] = *missing;
    throw NotAcquiredError(
        "acknowledge: the record at partition " + std::to_string(partition) + " offset " +
            std::to_string(offset) + " is not held by member " + quoted(member) +
            " of share group " + quoted(group) +
            " (never acquired, acquired by another member, already acknowledged, or its lock "
            "ran out); poll it first; its lock may have expired. Nothing was acknowledged",
        partition, offset);
  }
  entry->group.acknowledge(*found, records, type);
}

void Topic::acknowledge(std::string_view group, std::string_view member, AcknowledgeType type) {
  check_acknowledge_type(type);
  share::LockedShareGroup* entry = impl_->share_groups.find(group);
  if (entry == nullptr) return;
  const std::lock_guard lock(entry->mutex);
  entry->group.expire_locks(impl_->now());
  if (const share::ShareMember* found = entry->group.find(member)) {
    entry->group.acknowledge_all(*found, type);
  }
}

void Topic::advance_clock(std::int64_t milliseconds) {
  if (milliseconds < 0) {
    throw std::invalid_argument("advance_clock: milliseconds must be 0 or more, got " +
                                std::to_string(milliseconds));
  }
  std::int64_t now = 0;
  {
    const std::lock_guard lock(impl_->clock_mutex);
    const std::int64_t limit =
        std::numeric_limits<std::int64_t>::max() - impl_->options.record_lock_duration_ms;
    const std::int64_t clock = impl_->now();
    if (milliseconds > limit - clock) {
      throw std::invalid_argument("advance_clock: the clock would pass " + std::to_string(limit) +
                                  " ms, beyond which a record's lock deadline cannot be kept");
    }
    now = clock + milliseconds;
    impl_->clock_ms.store(now, std::memory_order_release);
  }
  for (share::LockedShareGroup* entry : impl_->share_groups.all()) {
    const std::lock_guard lock(entry->mutex);
    entry->group.expire_locks(impl_->now());
  }
}

std::int64_t Topic::clock() const noexcept { return impl_->now(); }

std::int64_t Topic::share_start_offset(std::string_view group, int partition) const {
  impl_->check_partition("share_start_offset", partition);
  return impl_->share_state(group, partition).start_offset;
}

Topic::SharePartitionState Topic::share_partition_state(std::string_view group,
                                                        int partition) const {
  impl_->check_partition("share_partition_state", partition);
  return impl_->share_state(group, partition);
}

}  // namespace kgroups
