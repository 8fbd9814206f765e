// SPDX-License-Identifier: Apache-2.0
//
// TopicObserver: what the Cluster tells whoever watches its topics — a topic created (at
// start-up, by CreateTopics, or on first use by Metadata or Produce) or deleted. The broker's
// EventRecorder (broker/events/) turns these into events. Every method is a no-op by default.
// Lifetimes: `topic` is valid only during the call. An observer must not change the Cluster
// from within a call, and must not throw.
// Not thread-safe: called on the broker's thread.
#pragma once

namespace kgroups::broker {

struct StoredTopic;

class TopicObserver {
 public:
  virtual ~TopicObserver() = default;
  // `topic` was just created, with its partitions.
  virtual void on_topic_created(const StoredTopic& /*topic*/) {}
  // `topic` is about to be deleted (it is still whole).
  virtual void on_topic_deleted(const StoredTopic& /*topic*/) {}
};

}  // namespace kgroups::broker
