// SPDX-License-Identifier: Apache-2.0
//
// BrokerConfig: the settings kgroupsd starts with (its command line), as plain data.
// Not synchronized: filled in once before the broker starts, then only read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kgroups::broker {

// A topic to create at start-up (`--topic name:partitions`).
struct SeedTopic {
  std::string name;
  std::int32_t partitions = 0;  // >= 1
};

struct BrokerConfig {
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 9092;   // 0 picks a free port
  std::string advertised_host;        // empty: the listening address
  std::uint16_t advertised_port = 0;  // 0: the port actually bound
  std::int32_t node_id = 0;           // this broker's id in Metadata; it is also the controller
  std::string cluster_id = "kgroupsd";
  std::int32_t default_partitions = 6;  // partitions of auto-created topics
  bool auto_create_topics = true;       // Metadata and Produce create unknown topics
  std::int32_t max_message_bytes =
      1048588;  // largest record batch Produce accepts (Kafka's default)
  std::int32_t max_frame_bytes =
      104857600;  // largest request frame; larger ones close the connection
  std::int32_t max_fetch_wait_ms = 30000;  // cap on a Fetch's max_wait_ms
  std::vector<SeedTopic> seed_topics;
  // Consumer groups (issue 6): JoinGroup's session timeout bounds (Kafka's defaults), and
  // how long a new group's first rebalance waits for more members (Kafka: 3000).
  std::int32_t group_min_session_timeout_ms = 6000;
  std::int32_t group_max_session_timeout_ms = 1800000;
  std::int32_t initial_rebalance_delay_ms = 0;
};

}  // namespace kgroups::broker
