// SPDX-License-Identifier: Apache-2.0
//
// ShareSessionCache: the share sessions of ShareFetch and ShareAcknowledge (KIP-932), one
// per (group, member): the partitions a member fetches, kept between requests like a fetch
// session's. Epoch 0 opens a session (replacing the member's previous one) with the
// request's partitions; every later request must carry the next epoch (1, 2, ...; after
// INT32_MAX, 1 again), adds its partitions and drops its forgotten ones; -1 closes it.
// A request for a session that does not exist gets SHARE_SESSION_NOT_FOUND, one with another
// epoch INVALID_SHARE_SESSION_EPOCH, and a new session beyond max_sessions
// SHARE_SESSION_LIMIT_REACHED; a refused request changes nothing. All sessions together hold
// at most max_partitions partitions (more: SHARE_SESSION_LIMIT_REACHED), 20 bytes each.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/uuid.h"

namespace kgroups::broker {

struct SharePartitionRef {
  protocol::Uuid topic_id{};
  std::int32_t partition = 0;
  // clang-tidy 14 misreads a defaulted <=> as comparing with a literal 0.
  // NOLINTNEXTLINE(modernize-use-nullptr)
  auto operator<=>(const SharePartitionRef&) const = default;
};

inline constexpr std::int32_t kOpenShareSessionEpoch = 0;
inline constexpr std::int32_t kCloseShareSessionEpoch = -1;

class ShareSessionCache {
 public:
  ShareSessionCache(std::size_t max_sessions, std::size_t max_partitions)
      : max_sessions_(max_sessions), max_partitions_(max_partitions) {}

  struct Update {
    protocol::ErrorCode error = protocol::ErrorCode::kNone;
    std::string message;
    std::vector<SharePartitionRef> partitions;  // the session's partitions after the request
    bool closed = false;                        // epoch -1: the session is gone
  };

  // Applies a request's epoch, added and forgotten partitions.
  Update apply(std::string_view group_id, std::string_view member_id, std::int32_t epoch,
               const std::vector<SharePartitionRef>& added,
               const std::vector<SharePartitionRef>& forgotten);

  // Checks a request's epoch for a session without changing its partitions (ShareAcknowledge).
  Update touch(std::string_view group_id, std::string_view member_id, std::int32_t epoch) {
    return apply(group_id, member_id, epoch, {}, {});
  }

  // Forgets every session of the group's member (it left the group).
  void forget(std::string_view group_id, std::string_view member_id);

  // Forgets the sessions for which is_gone(group id, member id) is true (members no longer in
  // their group). Returns how many went. O(sessions).
  template <class IsGone>
  std::size_t forget_if(IsGone&& is_gone) {
    std::size_t gone = 0;
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      if (is_gone(it->first.first, it->first.second)) {
        partitions_ -= it->second.partitions.size();
        it = sessions_.erase(it);
        ++gone;
      } else {
        ++it;
      }
    }
    return gone;
  }

  [[nodiscard]] bool full() const { return sessions_.size() >= max_sessions_; }

  [[nodiscard]] std::size_t size() const { return sessions_.size(); }
  [[nodiscard]] std::size_t partitions() const { return partitions_; }

 private:
  struct Session {
    std::int32_t next_epoch = 1;
    std::vector<SharePartitionRef> partitions;  // sorted, unique
  };
  std::size_t max_sessions_;
  std::size_t max_partitions_;
  std::size_t partitions_ = 0;  // in all sessions
  std::map<std::pair<std::string, std::string>, Session, std::less<>> sessions_;
};

}  // namespace kgroups::broker
