// SPDX-License-Identifier: Apache-2.0
//
// BrokerConfig: the settings kgroupsd starts with (its command line), as plain data. The
// limits that bound what clients can make the broker spend are listed, with their flags,
// defaults and Kafka equivalents, in limit_table.h (and docs/LIMITS.md).
// Not synchronized: filled in once before the broker starts, then only read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "broker/config/listener_config.h"
#include "broker/config/security_config.h"

namespace kgroups::broker {

// A topic to create at start-up (`--topic name:partitions`).
struct SeedTopic {
  std::string name;
  std::int32_t partitions = 0;  // >= 1
};

inline constexpr std::int64_t kMiB = std::int64_t{1} << 20;

struct BrokerConfig {
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 9092;   // 0 picks a free port
  std::string advertised_host;        // empty: the listening address
  std::uint16_t advertised_port = 0;  // 0: the port actually bound
  // Every broker's listeners (--listeners, or --listen as PLAINTEXT ones), by node id; empty:
  // one PLAINTEXT listener on listen_host:listen_port. Metadata gives a client the brokers'
  // addresses on the listener it came in on (the same index in every broker's list).
  BrokerListeners listeners;
  SecurityConfig security;
  // What unauthenticated and failing clients can make the broker spend, and the stores' bounds
  // (limit_table.cc).
  // sasl.server.max.receive.size: the largest frame read before authentication completes.
  std::int32_t sasl_max_receive_bytes = 524'288;
  // The TLS handshake and SASL exchange must end within this long after connecting.
  std::int64_t authentication_timeout_ms = 10'000;
  // Connections still in their TLS handshake or SASL exchange, in the whole process.
  std::int32_t max_unauthenticated_connections = 256;
  // connection.failed.authentication.delay.ms: a failed authentication's answer waits this
  // long; an address failing more than max_failed_authentications_per_second in a second
  // waits longer (doubling, up to 5 s; AuthFailureBackoff).
  std::int32_t failed_authentication_delay_ms = 100;
  std::int32_t max_failed_authentications_per_second = 10;
  // Bounds on the stores: SCRAM users and ACLs.
  std::int32_t max_scram_users = 10'000;
  std::int32_t max_acls = 10'000;
  std::int32_t node_id = 0;  // the broker DescribeConfigs describes; node ids are 0..brokers-1
  std::string cluster_id = "kgroupsd";
  // Replication (--brokers N: N brokers in one process; replication_controller.h).
  std::int32_t brokers = 1;
  std::int32_t default_replication_factor = 1;   // default.replication.factor
  std::int32_t min_insync_replicas = 1;          // min.insync.replicas (topic default)
  std::int64_t replica_lag_time_max_ms = 30000;  // replica.lag.time.max.ms
  bool unclean_leader_election = false;          // unclean.leader.election.enable (default)
  std::int32_t default_partitions = 6;           // partitions of auto-created topics
  bool auto_create_topics = true;                // Metadata and Produce create unknown topics
  std::vector<SeedTopic> seed_topics;
  // Consumer groups: JoinGroup's session timeout bounds (Kafka's defaults), and how long a new
  // group's first rebalance waits for more members. Kafka waits 3000 ms, which a test suite
  // pays for every group; 30 ms still puts members that subscribe up to about 20 ms apart in
  // one generation, and two librdkafka members are assigned after about 65 ms
  // (bench/broker/group_join_latency.py, docs/PERFORMANCE.md). 0 forms the first generation
  // with whoever is there.
  std::int32_t group_min_session_timeout_ms = 6000;
  std::int32_t group_max_session_timeout_ms = 1800000;
  std::int32_t initial_rebalance_delay_ms = 30;
  // Consumer-group protocol (KIP-848) groups: the broker sets the session timeout and the
  // heartbeat interval (Kafka's group.consumer.session.timeout.ms and
  // group.consumer.heartbeat.interval.ms defaults).
  std::int32_t consumer_group_session_timeout_ms = 45000;
  std::int32_t consumer_group_heartbeat_interval_ms = 5000;
  // Share groups (KIP-932), with Kafka's names and defaults: group.share.session.timeout.ms,
  // group.share.heartbeat.interval.ms, group.share.record.lock.duration.ms,
  // group.share.delivery.count.limit, group.share.partition.max.record.locks (Kafka 4.1+),
  // group.share.max.size (members per share group). A share group may override the lock
  // duration, the delivery count limit, the record locks and share.auto.offset.reset with
  // IncrementalAlterConfigs on its group resource.
  std::int32_t share_group_session_timeout_ms = 45000;
  std::int32_t share_group_heartbeat_interval_ms = 5000;
  std::int32_t share_group_record_lock_duration_ms = 30000;
  std::int32_t share_group_delivery_count_limit = 5;
  std::int32_t share_group_partition_max_record_locks = 2000;
  std::int32_t share_group_max_size = 200;
  // The internal topic __consumer_offsets, created on a group's first use: its partitions
  // (Kafka's offsets.topic.num.partitions) and the replication factor asked for it
  // (offsets.topic.replication.factor; kept for when the broker has replicas).
  std::int32_t offsets_topic_num_partitions = 50;
  std::int16_t offsets_topic_replication_factor = 3;
  // The internal topic __transaction_state, created on a transactional id's first use: its
  // partitions (transaction.state.log.num.partitions) and replication factor
  // (transaction.state.log.replication.factor, at most --brokers).
  std::int32_t transaction_state_log_num_partitions = 50;
  std::int16_t transaction_state_log_replication_factor = 3;

  // Records.
  std::int32_t max_message_bytes = 1048588;       // largest record batch Produce accepts
  std::int64_t max_uncompressed_batch_bytes = 0;  // 0: min(64 MiB, max_memory / 16)
  std::int32_t fetch_max_bytes = 57671680;        // record bytes in one Fetch response
  std::int32_t max_fetch_wait_ms = 30000;         // cap on a Fetch's max_wait_ms
  std::int32_t max_fetch_sessions = 1000;         // incremental fetch sessions (Fetch v7+)
  std::int32_t max_share_sessions = 2000;         // share sessions (ShareFetch, KIP-932)

  // Memory (0: derived from max_memory_bytes by resolve_memory_plan()).
  std::int64_t max_memory_bytes = 0;          // 0: a quarter of the machine's (or cgroup's) memory
  std::int64_t queued_max_request_bytes = 0;  // requests being received, all connections
  std::int64_t max_unsent_bytes = 0;          // responses not yet sent, all connections
  std::int64_t connection_max_unsent_bytes = 8 * kMiB;  // one connection stops being read above

  // Retention (broker defaults; topics may override them).
  std::int64_t log_retention_ms = 604800000;  // -1: keep records for ever
  std::int64_t log_retention_bytes = -1;      // per partition; -1: no size limit
  std::int32_t log_retention_check_interval_ms = 5000;

  // Durable logs (docs/STORAGE.md). log_dirs empty: every log in memory, as by default.
  std::string log_dirs;                                            // --log-dirs
  std::int64_t log_flush_interval_messages = 9223372036854775807;  // records between flushes
  std::int64_t log_flush_interval_ms = 9223372036854775807;        // age of the oldest unflushed
  std::int32_t log_flush_scheduler_interval_ms = 1000;             // how often flush.ms is checked
  std::int32_t log_flush_offset_checkpoint_interval_ms = 60000;    // recovery points written

  // Log compaction (log_cleaner.h).
  std::int32_t log_cleaner_interval_ms = 1000;         // between cleaner passes when idle
  std::int64_t log_cleaner_bytes_per_pass = 1 * kMiB;  // batch bytes one pass reads
  std::int64_t log_cleaner_dedupe_buffer_bytes = 0;    // the key map; 0: min(16 MiB, max/32)
  std::int64_t log_cleaner_max_batch_bytes = 0;        // a batch unpacked; 0: min(8 MiB, max/64)

  // Connections.
  std::int32_t max_frame_bytes = 104857600;  // largest request frame; larger ones close
  std::int32_t max_connections = 1024;       // all clients together
  std::int32_t max_connections_per_ip = 512;
  std::int64_t connections_max_idle_ms = 600000;  // silent connections close after this
  std::int32_t request_timeout_ms = 30000;        // a started request frame must be complete
  std::int32_t send_timeout_ms = 60000;           // queued responses must make progress

  // Topics and groups.
  std::int32_t max_topics = 10000;
  std::int32_t max_partitions = 100000;  // all topics together
  std::int32_t max_partitions_per_topic = 10000;
  std::int32_t max_partitions_per_request = 10000;  // created by one CreateTopics
  std::int32_t max_groups = 10000;
  std::int32_t group_max_size = 1000;               // members of one group
  std::int32_t max_group_metadata_bytes = 1048576;  // members' metadata + assignments
  std::int32_t offset_metadata_max_bytes = 4096;    // metadata of one committed offset
  std::int32_t max_id_length = 1024;                // group, member and client ids, bytes

  // Producers and transactions.
  std::int32_t max_producer_ids = 10000;      // idempotent producers' ids held
  std::int32_t max_producer_states = 100000;  // producer entries of all partitions together
  std::int32_t max_transactional_ids = 1000;  // transactional ids held
  std::int32_t max_partitions_per_transaction = 1000;
  std::int32_t transaction_max_timeout_ms = 900000;  // largest transaction_timeout_ms accepted

  // The event log of groups and topics (HTTP API's /v1/events; events/event_log.h).
  std::int32_t max_events = 1000;           // newest events kept
  std::int64_t max_event_bytes = 4 * kMiB;  // their JSON bytes
  // The HTTP control endpoint (--http; http/http_server.h).
  std::int32_t http_max_connections = 64;
  std::int32_t http_max_connections_per_ip = 32;
  std::int32_t http_max_head_bytes = 16384;            // request line and headers
  std::int32_t http_max_body_bytes = 1048576;          // request body
  std::int64_t http_idle_timeout_ms = 60000;           // idle connections, slow requests
  std::int64_t http_max_stream_queue_bytes = 1048576;  // unsent bytes of one event stream
  std::int64_t http_max_metrics_bytes = 16777216;      // one GET /metrics answer
  std::int32_t http_max_group_offsets = 10000;         // offset rows of one group view

  // Group coordinators read a clock that moves only when told (POST /v1/clock/advance)
  // instead of the steady clock.
  bool manual_clock = false;
};

}  // namespace kgroups::broker
