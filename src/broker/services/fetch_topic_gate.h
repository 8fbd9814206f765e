// SPDX-License-Identifier: Apache-2.0
//
// FetchTopicGate: which topics one fetch may read, as its caller decides (the Fetch handler asks
// the authorizer). FetchService asks it for every partition it resolves, the fetch session's
// cached ones included, on every pass of a long poll; a partition of a topic it refuses answers
// TOPIC_AUTHORIZATION_FAILED without records. The gate keeps its own answers if asking is
// costly. Not thread-safe: one per request, on the broker's network thread.
#pragma once

#include <string_view>

namespace kgroups::broker {

class FetchTopicGate {
 public:
  virtual ~FetchTopicGate() = default;
  // Whether the fetch may read topic `topic`.
  virtual bool may_read(std::string_view topic) = 0;
};

}  // namespace kgroups::broker
