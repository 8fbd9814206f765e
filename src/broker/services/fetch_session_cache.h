// SPDX-License-Identifier: Apache-2.0
//
// FetchSessionCache: the broker's incremental fetch sessions (KIP-227, Fetch v7+), with the
// rules of Kafka's broker-side FetchManager; handlers/fetch_handler.cc lists what a client
// sees per Fetch version.
//
// A Fetch names a session id and epoch:
// - id 0, epoch -1: a full, sessionless fetch (the answer's session id is 0).
// - epoch 0: a full fetch that asks for a new session (any session it names is closed). The
//   session is created when the answer is built, holding every partition of the request
//   with the high watermark, last stable offset and log start offset answered; its id is in the
//   answer and its next epoch is 1. With the cache full, the least recently used session is evicted
//   if it has been idle for kEvictionIdleMs; otherwise no session is created (id 0), as Kafka does.
// - epoch -1 with an id: the session is closed; the fetch is full and sessionless.
// - any other epoch: an incremental fetch of session `id`. Unknown id:
//   FETCH_SESSION_ID_NOT_FOUND; an epoch other than the session's: INVALID_FETCH_SESSION_EPOCH;
//   a session created with topic ids (v13+) used by a request without them, or the other way:
//   FETCH_SESSION_TOPIC_ID_ERROR. Otherwise the request's partitions are added to the session
//   or update its fetch parameters, its forgotten partitions are removed, the epoch moves on,
//   and the fetch covers every partition of the session. The answer lists only partitions
//   with records, an error, or a high watermark, last stable offset or log start offset other
//   than the one last answered (Kafka compares the first and the last; its last stable offset
//   moves only with a marker, which moves the high watermark too, so comparing it changes
//   nothing there and guards the rule here); partitions that got records move to the end of the
//   session (so that a response byte limit does not starve the later ones). A session left empty is
//   closed and the fetch is answered sessionless.
// - The partitions of all sessions together are bounded (`max_cached_partitions`, the
//   broker's --max-partitions), so a client cannot make the cache grow without bound: a full
//   fetch that would go beyond it gets no session, and an incremental fetch that would grow
//   its session beyond it closes the session and gets FETCH_SESSION_ID_NOT_FOUND (the client
//   then goes back to full fetches).
//
// Plain logic on a caller-given clock (now_ms); no I/O. Not thread-safe: the broker's network
// thread owns it.
#pragma once

#include <cstdint>
#include <list>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/uuid.h"

namespace kgroups::broker {

// A partition as a fetch names it: by topic id (v13+; name empty) or by name (id zero).
struct FetchPartitionKey {
  protocol::Uuid topic_id{};
  std::string topic;
  std::int32_t partition = 0;
  bool operator==(const FetchPartitionKey&) const = default;
};

struct FetchPartitionKeyHash {
  std::size_t operator()(const FetchPartitionKey& key) const noexcept;
};

// What a fetch asks of one partition.
struct FetchPartitionParams {
  std::int64_t fetch_offset = 0;
  std::int32_t partition_max_bytes = 0;
  std::int32_t current_leader_epoch = -1;  // v9+: the leader epoch the client knows; -1: any
};

struct FetchSessionPartition {
  FetchPartitionKey key;
  FetchPartitionParams params;
};

// What a fetch found in one partition, to decide what an incremental answer lists.
struct FetchPartitionOutcome {
  std::int64_t high_watermark = -1;
  std::int64_t last_stable_offset = -1;
  std::int64_t log_start_offset = -1;
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  bool has_records = false;
};

class FetchSessionCache {
 public:
  // Kafka's min.incremental.fetch.session.eviction.ms: a session idle for less is not evicted
  // to make room for a new one.
  static constexpr std::int64_t kEvictionIdleMs = 120000;

  static constexpr std::int32_t kInitialEpoch = 0;
  static constexpr std::int32_t kFinalEpoch = -1;

  // `max_sessions` 0 disables sessions (every fetch is answered sessionless);
  // `max_cached_partitions` bounds the partitions of all sessions together.
  explicit FetchSessionCache(std::size_t max_sessions, std::size_t max_cached_partitions,
                             std::uint64_t seed = std::random_device{}());

  struct Request {
    std::int32_t session_id = 0;
    std::int32_t session_epoch = kFinalEpoch;
    bool uses_topic_ids = false;                    // Fetch v13+
    std::vector<FetchSessionPartition> partitions;  // as named, repeats allowed (last wins)
    std::vector<FetchPartitionKey> forgotten;
  };

  enum class Kind { kError, kSessionless, kFull, kIncremental };

  // What one fetch covers. Opened by open(), closed by answer().
  struct Context {
    Kind kind = Kind::kSessionless;
    protocol::ErrorCode error = protocol::ErrorCode::kNone;  // kError only
    std::int32_t session_id = 0;                             // kIncremental: the session
    std::int32_t expected_epoch = 0;  // kIncremental: the session's epoch after this fetch
    bool uses_topic_ids = false;
    // The partitions to fetch, once each: the request's in the order first named (full and
    // sessionless), or the session's (incremental).
    std::vector<FetchSessionPartition> partitions;
  };

  // Applies the request's session metadata (see the file comment).
  Context open(Request request, std::int64_t now_ms);

  struct Answer {
    protocol::ErrorCode error = protocol::ErrorCode::kNone;  // top level
    std::int32_t session_id = 0;
    std::vector<bool> include;  // per context partition: whether the answer lists it
  };

  // Decides the answer to `context` given what each of its partitions holds (`outcomes`, one
  // per context.partitions), creating the session of a full fetch and updating the cached
  // state of an incremental one. An incremental fetch whose session moved on meanwhile (a
  // duplicate request) gets INVALID_FETCH_SESSION_EPOCH and lists nothing; one whose session
  // was evicted meanwhile gets FETCH_SESSION_ID_NOT_FOUND.
  Answer answer(const Context& context, std::span<const FetchPartitionOutcome> outcomes,
                std::int64_t now_ms);

  [[nodiscard]] std::size_t size() const { return sessions_.size(); }
  [[nodiscard]] std::size_t max_sessions() const { return max_sessions_; }
  // Partitions held by all sessions.
  [[nodiscard]] std::size_t cached_partitions() const { return cached_partitions_; }

  // The epoch after `epoch`: 1 after INT32_MAX, as Kafka's FetchMetadata.nextEpoch.
  static std::int32_t next_epoch(std::int32_t epoch);

 private:
  struct KeyView {
    protocol::Uuid topic_id{};
    std::string_view topic;
    std::int32_t partition = 0;
    bool operator==(const KeyView&) const = default;
  };
  struct KeyViewHash {
    std::size_t operator()(const KeyView& key) const noexcept;
  };
  static KeyView view(const FetchPartitionKey& key) {
    return {.topic_id = key.topic_id, .topic = key.topic, .partition = key.partition};
  }

  struct CachedPartition {
    FetchSessionPartition partition;
    std::int64_t high_watermark = -1;  // as last answered
    std::int64_t last_stable_offset = -1;
    std::int64_t log_start_offset = -1;
  };
  struct Session {
    std::int32_t id = 0;
    std::int32_t epoch = 1;
    bool uses_topic_ids = false;
    std::int64_t last_used_ms = 0;
    std::list<CachedPartition> partitions;  // fetch order
    // Keyed by views of the keys in `partitions` (list nodes never move), so that a topic
    // name is stored once.
    std::unordered_map<KeyView, std::list<CachedPartition>::iterator, KeyViewHash> index;
    std::list<std::int32_t>::iterator lru;  // position in lru_
  };

  void remove(std::int32_t id);
  void touch(Session& session, std::int64_t now_ms);
  // Makes room for one session if possible; false when the cache is full of recent sessions.
  bool make_room(std::int64_t now_ms);
  std::int32_t new_session_id();

  std::size_t max_sessions_;
  std::size_t max_cached_partitions_;
  std::size_t cached_partitions_ = 0;
  std::unordered_map<std::int32_t, Session> sessions_;
  std::list<std::int32_t> lru_;  // session ids, least recently used first
  std::mt19937 random_;
};

}  // namespace kgroups::broker
