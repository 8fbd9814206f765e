// SPDX-License-Identifier: Apache-2.0
//
// TopicReadGate: the FetchTopicGate of Fetch, ShareFetch and ShareAcknowledge with the
// authorizer on: READ on each topic, asked of the authorizer once per topic per request (the
// services ask for every partition, on every pass of a long poll). A follower's fetch is
// decided for every topic at once (answer_all: its CLUSTER_ACTION on the cluster).
// Not thread-safe: one per request, on the broker's network thread.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "broker/handlers/request_context.h"
#include "broker/services/fetch_topic_gate.h"

namespace kgroups::broker::handlers {

class TopicReadGate final : public FetchTopicGate {
 public:
  explicit TopicReadGate(const RequestContext& ctx) : ctx_(ctx) {}

  // Every topic gets `answer`, nothing is looked up.
  void answer_all(bool answer) { fixed_answer_ = answer; }

  bool may_read(std::string_view topic) override {
    if (fixed_answer_) return *fixed_answer_;
    if (const auto known = decided_.find(topic); known != decided_.end()) return known->second;
    const bool allowed = ctx_.allowed(AclOperation::kRead, AclResourceType::kTopic, topic);
    decided_.emplace(std::string(topic), allowed);
    return allowed;
  }

 private:
  const RequestContext& ctx_;
  std::optional<bool> fixed_answer_;
  std::map<std::string, bool, std::less<>> decided_;
};

}  // namespace kgroups::broker::handlers
