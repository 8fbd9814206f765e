// SPDX-License-Identifier: Apache-2.0
//
// Broker: the state every request handler works on — the configuration (with the advertised
// address resolved once the listener is bound), the topics (Cluster), and the notifier that
// wakes long-polling fetches. Issue 6 adds the group coordinator here.
//
// Threading model: the whole broker runs on ONE thread, the thread running its
// asio::io_context. The acceptor, every connection's coroutines, every handler and all state
// live there, so no state is locked. A handler runs until its first co_await without
// interruption; only Fetch suspends (long polling), and it re-reads state after waking.
// Not thread-safe: touch a Broker only from its io_context's thread.
#pragma once

#include "broker/append_notifier.h"
#include "broker/broker_config.h"
#include "broker/cluster.h"
#include "broker/coordinator_service.h"

namespace kgroups::broker {

class Broker {
 public:
  // Creates the seed topics of `config`. Throws std::invalid_argument naming the seed if one
  // is invalid or repeated, and then creates nothing.
  explicit Broker(BrokerConfig config);

  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;

  [[nodiscard]] const BrokerConfig& config() const { return config_; }
  // Sets the address Metadata gives clients (host and port they should connect to).
  void set_advertised_address(std::string host, std::uint16_t port);

  Cluster& cluster() { return cluster_; }
  AppendNotifier& append_notifier() { return append_notifier_; }
  CoordinatorService& groups() { return groups_; }

 private:
  BrokerConfig config_;
  Cluster cluster_;
  AppendNotifier append_notifier_;
  CoordinatorService groups_;  // consumer groups and committed offsets (issue 6)
};

}  // namespace kgroups::broker
