// SPDX-License-Identifier: Apache-2.0
#include "broker/services/share_session_cache.h"

#include <algorithm>
#include <limits>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

ShareSessionCache::Update refused(ErrorCode error, std::string message) {
  ShareSessionCache::Update update;
  update.error = error;
  update.message = std::move(message);
  return update;
}

std::vector<SharePartitionRef> merged(std::vector<SharePartitionRef> partitions,
                                      const std::vector<SharePartitionRef>& added,
                                      const std::vector<SharePartitionRef>& forgotten) {
  partitions.insert(partitions.end(), added.begin(), added.end());
  std::sort(partitions.begin(), partitions.end());
  partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
  std::erase_if(partitions, [&](const SharePartitionRef& partition) {
    return std::find(forgotten.begin(), forgotten.end(), partition) != forgotten.end();
  });
  return partitions;
}

}  // namespace

ShareSessionCache::Update ShareSessionCache::apply(
    std::string_view group_id, std::string_view member_id, std::int32_t epoch,
    const std::vector<SharePartitionRef>& added, const std::vector<SharePartitionRef>& forgotten) {
  const auto key = std::make_pair(std::string(group_id), std::string(member_id));
  auto found = sessions_.find(key);
  if (epoch == kOpenShareSessionEpoch) {
    if (found == sessions_.end() && sessions_.size() >= max_sessions_) {
      return refused(ErrorCode::kShareSessionLimitReached,
                     "the broker holds its most share sessions already");
    }
    std::vector<SharePartitionRef> partitions = merged({}, added, forgotten);
    const std::size_t kept = found == sessions_.end() ? 0 : found->second.partitions.size();
    if (partitions_ - kept + partitions.size() > max_partitions_) {
      return refused(ErrorCode::kShareSessionLimitReached,
                     "the share sessions hold --max-partitions partitions already");
    }
    partitions_ = partitions_ - kept + partitions.size();
    Session& session = sessions_[key];
    session.next_epoch = 1;
    session.partitions = std::move(partitions);
    Update update;
    update.partitions = session.partitions;
    return update;
  }
  if (found == sessions_.end()) {
    return refused(
        ErrorCode::kShareSessionNotFound,
        "no share session for member " + std::string(member_id) + ": open one with epoch 0");
  }
  Session& session = found->second;
  if (epoch == kCloseShareSessionEpoch) {
    Update update;
    partitions_ -= session.partitions.size();
    update.partitions = std::move(session.partitions);
    update.closed = true;
    sessions_.erase(found);
    return update;
  }
  if (epoch != session.next_epoch) {
    return refused(ErrorCode::kInvalidShareSessionEpoch,
                   "share session epoch " + std::to_string(epoch) + " is not the expected " +
                       std::to_string(session.next_epoch));
  }
  std::vector<SharePartitionRef> partitions = merged(session.partitions, added, forgotten);
  if (partitions_ - session.partitions.size() + partitions.size() > max_partitions_) {
    return refused(ErrorCode::kShareSessionLimitReached,
                   "the share sessions hold --max-partitions partitions already");
  }
  partitions_ = partitions_ - session.partitions.size() + partitions.size();
  session.partitions = std::move(partitions);
  session.next_epoch =
      session.next_epoch == std::numeric_limits<std::int32_t>::max() ? 1 : session.next_epoch + 1;
  Update update;
  update.partitions = session.partitions;
  return update;
}

void ShareSessionCache::forget(std::string_view group_id, std::string_view member_id) {
  const auto found = sessions_.find(std::make_pair(std::string(group_id), std::string(member_id)));
  if (found == sessions_.end()) return;
  partitions_ -= found->second.partitions.size();
  sessions_.erase(found);
}

}  // namespace kgroups::broker
