// SPDX-License-Identifier: Apache-2.0
#include "broker/security/auth_failure_backoff.h"

#include <algorithm>

namespace kgroups::broker {

std::chrono::milliseconds AuthFailureBackoff::failed(std::string_view address,
                                                     Clock::time_point now) {
  auto found = failures_.find(address);
  if (found == failures_.end()) {
    make_room(now);
    found = failures_.emplace(std::string(address), Window{.started = now}).first;
  }
  Window& window = found->second;
  if (now - window.started >= std::chrono::seconds(1)) window = Window{.started = now};
  ++window.failures;
  const std::int32_t beyond = window.failures - max_per_second_;
  if (beyond <= 0) return base_delay_;
  std::chrono::milliseconds delay = std::max(base_delay_, std::chrono::milliseconds(1));
  for (std::int32_t i = 0; i < beyond && delay < kMaxDelay; ++i) delay *= 2;
  return std::min(delay, kMaxDelay);
}

void AuthFailureBackoff::make_room(Clock::time_point now) {
  if (failures_.size() < kMaxAddresses) return;
  std::erase_if(failures_, [now](const auto& entry) {
    return now - entry.second.started >= std::chrono::seconds(1);
  });
  if (failures_.size() < kMaxAddresses) return;
  const auto oldest = std::min_element(
      failures_.begin(), failures_.end(),
      [](const auto& a, const auto& b) { return a.second.started < b.second.started; });
  failures_.erase(oldest);
}

}  // namespace kgroups::broker
