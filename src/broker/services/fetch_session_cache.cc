// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_session_cache.h"

#include <functional>
#include <limits>
#include <string_view>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

// The request's partitions once each, with the parameters named last, in the order first
// named (Kafka keeps them in a LinkedHashMap).
std::vector<FetchSessionPartition> distinct(std::vector<FetchSessionPartition> partitions) {
  std::vector<FetchSessionPartition> out;
  std::unordered_map<FetchPartitionKey, std::size_t, FetchPartitionKeyHash> position;
  for (FetchSessionPartition& partition : partitions) {
    const auto [found, inserted] = position.try_emplace(partition.key, out.size());
    if (inserted) {
      out.push_back(std::move(partition));
    } else {
      out[found->second].params = partition.params;
    }
  }
  return out;
}

}  // namespace

std::size_t FetchPartitionKeyHash::operator()(const FetchPartitionKey& key) const noexcept {
  std::size_t hash = std::hash<std::string_view>{}(
      std::string_view(reinterpret_cast<const char*>(key.topic_id.data()), key.topic_id.size()));
  hash = hash * 31 + std::hash<std::string_view>{}(key.topic);
  return hash * 31 + std::hash<std::int32_t>{}(key.partition);
}

std::size_t FetchSessionCache::KeyViewHash::operator()(const KeyView& key) const noexcept {
  std::size_t hash = std::hash<std::string_view>{}(
      std::string_view(reinterpret_cast<const char*>(key.topic_id.data()), key.topic_id.size()));
  hash = hash * 31 + std::hash<std::string_view>{}(key.topic);
  return hash * 31 + std::hash<std::int32_t>{}(key.partition);
}

FetchSessionCache::FetchSessionCache(std::size_t max_sessions, std::size_t max_cached_partitions,
                                     std::uint64_t seed)
    : max_sessions_(max_sessions),
      max_cached_partitions_(max_cached_partitions),
      random_(static_cast<std::mt19937::result_type>(seed)) {}

std::int32_t FetchSessionCache::next_epoch(std::int32_t epoch) {
  if (epoch < 0) return kFinalEpoch;
  if (epoch == std::numeric_limits<std::int32_t>::max()) return 1;
  return epoch + 1;
}

FetchSessionCache::Context FetchSessionCache::open(Request request, std::int64_t now_ms) {
  Context context;
  context.uses_topic_ids = request.uses_topic_ids;
  const bool full = request.session_epoch == kInitialEpoch || request.session_epoch == kFinalEpoch;
  if (full) {
    if (request.session_id != 0) remove(request.session_id);  // a full fetch closes it
    context.kind = request.session_epoch == kFinalEpoch ? Kind::kSessionless : Kind::kFull;
    context.partitions = distinct(std::move(request.partitions));
    return context;
  }
  const auto found = sessions_.find(request.session_id);
  if (found == sessions_.end()) {
    context.kind = Kind::kError;
    context.error = ErrorCode::kFetchSessionIdNotFound;
    return context;
  }
  Session& session = found->second;
  if (session.epoch != request.session_epoch) {
    context.kind = Kind::kError;
    context.error = ErrorCode::kInvalidFetchSessionEpoch;
    return context;
  }
  if (session.uses_topic_ids != request.uses_topic_ids) {
    context.kind = Kind::kError;
    context.error = ErrorCode::kFetchSessionTopicIdError;
    return context;
  }
  for (const FetchSessionPartition& partition : request.partitions) {
    const auto cached = session.index.find(view(partition.key));
    if (cached != session.index.end()) {
      cached->second->partition.params = partition.params;
      continue;
    }
    session.partitions.push_back(CachedPartition{.partition = partition});
    const auto added = std::prev(session.partitions.end());
    session.index.emplace(view(added->partition.key), added);
    ++cached_partitions_;
  }
  for (const FetchPartitionKey& key : request.forgotten) {
    const auto cached = session.index.find(view(key));
    if (cached == session.index.end()) continue;
    const auto node = cached->second;
    session.index.erase(cached);  // before the node its key views
    session.partitions.erase(node);
    --cached_partitions_;
  }
  if (cached_partitions_ > max_cached_partitions_) {
    remove(session.id);
    context.kind = Kind::kError;
    context.error = ErrorCode::kFetchSessionIdNotFound;
    return context;
  }
  if (session.partitions.empty()) {
    remove(session.id);
    context.kind = Kind::kSessionless;
    context.partitions = distinct(std::move(request.partitions));
    return context;
  }
  touch(session, now_ms);
  session.epoch = next_epoch(session.epoch);
  context.kind = Kind::kIncremental;
  context.session_id = session.id;
  context.expected_epoch = session.epoch;
  context.partitions.reserve(session.partitions.size());
  for (const CachedPartition& cached : session.partitions) {
    context.partitions.push_back(cached.partition);
  }
  return context;
}

FetchSessionCache::Answer FetchSessionCache::answer(const Context& context,
                                                    std::span<const FetchPartitionOutcome> outcomes,
                                                    std::int64_t now_ms) {
  Answer answer;
  switch (context.kind) {
    case Kind::kError:
      answer.error = context.error;
      return answer;
    case Kind::kSessionless:
      answer.include.assign(context.partitions.size(), true);
      return answer;
    case Kind::kFull: {
      answer.include.assign(context.partitions.size(), true);
      if (context.partitions.size() > max_cached_partitions_ - cached_partitions_ ||
          !make_room(now_ms)) {
        return answer;  // no room for its partitions, or full of recent sessions: sessionless
      }
      const std::int32_t id = new_session_id();
      Session& session = sessions_[id];
      session.id = id;
      session.epoch = next_epoch(kInitialEpoch);
      session.uses_topic_ids = context.uses_topic_ids;
      lru_.push_back(id);
      session.lru = std::prev(lru_.end());
      session.last_used_ms = now_ms;
      for (std::size_t i = 0; i < context.partitions.size(); ++i) {
        const FetchPartitionOutcome& outcome = outcomes[i];
        session.partitions.push_back(CachedPartition{
            .partition = context.partitions[i],
            .high_watermark = outcome.error == ErrorCode::kNone ? outcome.high_watermark : -1,
            .last_stable_offset = outcome.last_stable_offset,
            .log_start_offset = outcome.log_start_offset});
        const auto added = std::prev(session.partitions.end());
        session.index.emplace(view(added->partition.key), added);
      }
      cached_partitions_ += context.partitions.size();
      answer.session_id = id;
      return answer;
    }
    case Kind::kIncremental:
      break;
  }
  const auto found = sessions_.find(context.session_id);
  if (found == sessions_.end()) {
    answer.error = ErrorCode::kFetchSessionIdNotFound;
    return answer;
  }
  Session& session = found->second;
  answer.session_id = session.id;
  if (session.epoch != context.expected_epoch) {
    answer.error = ErrorCode::kInvalidFetchSessionEpoch;
    return answer;
  }
  touch(session, now_ms);
  answer.include.assign(context.partitions.size(), false);
  std::vector<std::list<CachedPartition>::iterator> got_records;
  for (std::size_t i = 0; i < context.partitions.size(); ++i) {
    const FetchPartitionOutcome& outcome = outcomes[i];
    const auto cached = session.index.find(view(context.partitions[i].key));
    if (cached == session.index.end()) continue;  // cannot happen: the epoch did not move
    CachedPartition& state = *cached->second;
    bool include = outcome.has_records;
    if (state.high_watermark != outcome.high_watermark) {
      include = true;
      state.high_watermark = outcome.high_watermark;
    }
    if (state.last_stable_offset != outcome.last_stable_offset) {
      include = true;
      state.last_stable_offset = outcome.last_stable_offset;
    }
    if (state.log_start_offset != outcome.log_start_offset) {
      include = true;
      state.log_start_offset = outcome.log_start_offset;
    }
    if (outcome.error != ErrorCode::kNone) {
      include = true;
      state.high_watermark = -1;  // answered again once the error is gone
    }
    answer.include[i] = include;
    if (outcome.has_records) got_records.push_back(cached->second);
  }
  for (const auto& moved : got_records) {
    session.partitions.splice(session.partitions.end(), session.partitions, moved);
  }
  return answer;
}

void FetchSessionCache::remove(std::int32_t id) {
  const auto found = sessions_.find(id);
  if (found == sessions_.end()) return;
  lru_.erase(found->second.lru);
  cached_partitions_ -= found->second.partitions.size();
  sessions_.erase(found);
}

void FetchSessionCache::touch(Session& session, std::int64_t now_ms) {
  session.last_used_ms = now_ms;
  lru_.splice(lru_.end(), lru_, session.lru);
}

bool FetchSessionCache::make_room(std::int64_t now_ms) {
  if (max_sessions_ == 0) return false;
  if (sessions_.size() < max_sessions_) return true;
  const auto oldest = sessions_.find(lru_.front());
  if (now_ms - oldest->second.last_used_ms < kEvictionIdleMs) return false;
  remove(oldest->first);
  return true;
}

std::int32_t FetchSessionCache::new_session_id() {
  std::uniform_int_distribution<std::int32_t> ids(1, std::numeric_limits<std::int32_t>::max());
  for (;;) {
    const std::int32_t id = ids(random_);
    if (!sessions_.contains(id)) return id;
  }
}

}  // namespace kgroups::broker
