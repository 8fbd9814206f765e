// SPDX-License-Identifier: Apache-2.0
#include "broker/config/limit_table.h"

#include <array>
#include <limits>

namespace kgroups::broker {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kTiB = kMiB * 1024 * 1024;

constexpr std::array kLimits{
    // Memory.
    LimitEntry{"--max-memory", &BrokerConfig::max_memory_bytes, LimitUnit::kBytes, 0, 16 * kTiB,
               "1/4 of RAM (or of the cgroup's memory.max)", "none (JVM heap + page cache)",
               "Everything below is sized to fit in it: stored records are evicted oldest first "
               "(log line) when they would outgrow their share, groups get "
               "COORDINATOR_LOAD_IN_PROGRESS when theirs is full"},
    LimitEntry{"--queued-max-request-bytes", &BrokerConfig::queued_max_request_bytes,
               LimitUnit::kBytes, 0, 16 * kTiB, "max-memory / 8",
               "queued.max.request.bytes (-1, unbounded)",
               "Bytes of requests being received, all connections together; a connection that "
               "needs more waits (is not read) until others free some"},
    LimitEntry{"--max-unsent-bytes", &BrokerConfig::max_unsent_bytes, LimitUnit::kBytes, 0,
               16 * kTiB, "max-memory / 8", "none",
               "Bytes of responses not yet taken by the clients' sockets, all connections "
               "together; Fetch adds no more records than fit under it (waits up to max_wait_ms "
               "for room), and connections with unsent data are not read while it is full"},
    LimitEntry{"--connection-max-unsent-bytes", &BrokerConfig::connection_max_unsent_bytes,
               LimitUnit::kBytes, 1024, 16 * kTiB, "8 MiB",
               "none (Kafka mutes a channel while a response is in flight)",
               "A connection whose unsent responses exceed it is not read until they drain"},
    // Records and retention.
    LimitEntry{"--max-message-bytes", &BrokerConfig::max_message_bytes, LimitUnit::kBytes, 1024,
               1 << 30, "1048588", "message.max.bytes (1048588)",
               "Largest record batch Produce accepts: MESSAGE_TOO_LARGE beyond it"},
    LimitEntry{"--max-uncompressed-batch-bytes", &BrokerConfig::max_uncompressed_batch_bytes,
               LimitUnit::kBytes, 0, kInt32Max, "min(64 MiB, max-memory / 16)", "none",
               "A compressed batch is decompressed to validate it; one that expands beyond this "
               "gets INVALID_RECORD and nothing is stored"},
    LimitEntry{"--fetch-max-bytes", &BrokerConfig::fetch_max_bytes, LimitUnit::kBytes, 1024,
               kInt32Max, "57671680 (55 MiB)", "fetch.max.bytes (57671680)",
               "Record bytes in one Fetch response, whatever the request's max_bytes (the "
               "first batch is always served whole, KIP-74)"},
    LimitEntry{"--max-fetch-wait-ms", &BrokerConfig::max_fetch_wait_ms, LimitUnit::kMilliseconds, 0,
               600000, "30000", "none (the client's fetch.max.wait.ms)",
               "Longest a Fetch waits for min_bytes"},
    LimitEntry{"--max-fetch-sessions", &BrokerConfig::max_fetch_sessions, LimitUnit::kCount, 0,
               1000000, "1000", "max.incremental.fetch.session.cache.slots (1000)",
               "Incremental fetch sessions (Fetch v7+) kept by the broker; with all taken, the "
               "least recently used one is evicted if idle for 2 minutes, else a new session "
               "is not created (session id 0: the client keeps sending full fetches); 0 "
               "disables sessions. The partitions of all sessions together are at most "
               "--max-partitions (256 B each is reserved in --max-memory)"},
    LimitEntry{"--max-share-sessions", &BrokerConfig::max_share_sessions, LimitUnit::kCount, 0,
               1000000, "2000", "group.share.max.share.sessions (2000)",
               "Share sessions (ShareFetch, KIP-932) kept by the broker, one per share-group "
               "member; when all are taken, those of members no longer in their group make room, "
               "else a new one gets SHARE_SESSION_LIMIT_REACHED, as does a session "
               "that would take the partitions of all share sessions together past "
               "--max-partitions (20 B each)"},
    LimitEntry{"--log-retention-ms", &BrokerConfig::log_retention_ms, LimitUnit::kMilliseconds, -1,
               kInt64Max, "604800000 (7 days)", "log.retention.ms (7 days)",
               "Default retention.ms of topics: segments whose newest record is older are "
               "dropped and the log start offset moves; -1 keeps records for ever"},
    LimitEntry{"--log-retention-bytes", &BrokerConfig::log_retention_bytes, LimitUnit::kBytes, -1,
               kInt64Max, "-1 (no size limit)", "log.retention.bytes (-1)",
               "Default retention.bytes of topics, per partition: the oldest segments are "
               "dropped while the rest still holds at least this much"},
    LimitEntry{"--log-flush-interval-messages", &BrokerConfig::log_flush_interval_messages,
               LimitUnit::kCount, 1, kInt64Max, "9223372036854775807 (never: the OS flushes)",
               "log.flush.interval.messages (9223372036854775807)",
               "With --log-dirs: default flush.messages of topics, the records appended to a "
               "partition between two flushes to the disk (fdatasync); 1 flushes every batch "
               "before it is acknowledged"},
    LimitEntry{"--log-flush-interval-ms", &BrokerConfig::log_flush_interval_ms,
               LimitUnit::kMilliseconds, 0, kInt64Max, "9223372036854775807 (never)",
               "log.flush.interval.ms (unset: never)",
               "With --log-dirs: default flush.ms of topics, how old a partition's oldest "
               "unflushed record may get before the log is flushed"},
    LimitEntry{"--log-flush-scheduler-interval-ms", &BrokerConfig::log_flush_scheduler_interval_ms,
               LimitUnit::kMilliseconds, 10, kInt32Max, "1000",
               "log.flush.scheduler.interval.ms (9223372036854775807)",
               "With --log-dirs: how often flush.ms is checked"},
    LimitEntry{"--log-flush-offset-checkpoint-interval-ms",
               &BrokerConfig::log_flush_offset_checkpoint_interval_ms, LimitUnit::kMilliseconds, 10,
               kInt32Max, "60000", "log.flush.offset.checkpoint.interval.ms (60000)",
               "With --log-dirs: how often the recovery points and log start offsets are "
               "written (recovery-point-offset-checkpoint, log-start-offset-checkpoint)"},
    LimitEntry{"--log-retention-check-interval-ms", &BrokerConfig::log_retention_check_interval_ms,
               LimitUnit::kMilliseconds, 10, kInt32Max, "5000",
               "log.retention.check.interval.ms (300000)",
               "How often retention by time is applied"},
    LimitEntry{"--log-cleaner-interval-ms", &BrokerConfig::log_cleaner_interval_ms,
               LimitUnit::kMilliseconds, 10, kInt32Max, "1000", "log.cleaner.backoff.ms (15000)",
               "How often the log cleaner looks for compacted partitions due for cleaning "
               "(while one is being cleaned, passes follow each other at once)"},
    LimitEntry{"--log-cleaner-bytes-per-pass", &BrokerConfig::log_cleaner_bytes_per_pass,
               LimitUnit::kBytes, 1024, 16 * kTiB, "1 MiB",
               "none (log.cleaner.io.max.bytes.per.second throttles instead)",
               "Bytes of records (unpacked) one cleaner pass reads before letting requests run, "
               "or 50 ms of work; the next pass resumes where it stopped, inside a segment too"},
    LimitEntry{"--log-cleaner-dedupe-buffer-bytes", &BrokerConfig::log_cleaner_dedupe_buffer_bytes,
               LimitUnit::kBytes, 0, 16 * kTiB, "min(16 MiB, max-memory / 32)",
               "log.cleaner.dedupe.buffer.size (128 MiB)",
               "Memory of the key map one cleaning builds (key bytes + 64 per key), reserved in "
               "--max-memory and checked at every record; past it the cleaning covers fewer "
               "dirty records and the rest waits for the next one"},
    LimitEntry{"--log-cleaner-max-batch-bytes", &BrokerConfig::log_cleaner_max_batch_bytes,
               LimitUnit::kBytes, 0, 16 * kTiB, "min(8 MiB, max-memory / 64)",
               "none (the cleaner's threads unpack any batch)",
               "What the cleaner may unpack of one batch: its records plus 96 B of index per "
               "record. A larger batch is kept whole, neither mapped nor cleaned (compaction "
               "then keeps more than the latest record of its keys, never less), so one pass "
               "on the broker's thread stays short; 3x this is reserved in --max-memory"},
    // Connections and requests.
    LimitEntry{"--max-connections", &BrokerConfig::max_connections, LimitUnit::kCount, 1, 1000000,
               "1024 (at most the open-file limit - 64)", "max.connections (unlimited)",
               "Connections of all clients together (each reserves 20 KiB of --max-memory); a "
               "connection beyond it is closed at once, with a log line"},
    LimitEntry{"--max-connections-per-ip", &BrokerConfig::max_connections_per_ip, LimitUnit::kCount,
               1, 1000000, "1024", "max.connections.per.ip (unlimited)",
               "Connections from one client address; beyond it closed at once, with a log line"},
    LimitEntry{"--connections-max-idle-ms", &BrokerConfig::connections_max_idle_ms,
               LimitUnit::kMilliseconds, 1000, kInt64Max, "600000 (10 min)",
               "connections.max.idle.ms (600000)",
               "A connection with no request in progress that sends nothing for this long is "
               "closed"},
    LimitEntry{"--max-frame-bytes", &BrokerConfig::max_frame_bytes, LimitUnit::kBytes, 1024,
               kInt32Max, "104857600 (100 MiB), at least max-message-bytes + 1 MiB",
               "socket.request.max.bytes (104857600)",
               "Largest request frame (also at most queued-max-request-bytes); a larger size "
               "prefix closes the connection"},
    LimitEntry{"--request-timeout-ms", &BrokerConfig::request_timeout_ms, LimitUnit::kMilliseconds,
               100, kInt32Max, "30000", "none",
               "A request frame must arrive whole within this of its first byte, or the "
               "connection is closed"},
    LimitEntry{"--send-timeout-ms", &BrokerConfig::send_timeout_ms, LimitUnit::kMilliseconds, 100,
               kInt32Max, "60000", "none",
               "A connection whose queued responses are not read by the client for this long is "
               "closed"},
    // Topics and groups.
    LimitEntry{"--max-topics", &BrokerConfig::max_topics, LimitUnit::kCount, 1, 10000000, "10000",
               "none", "CreateTopics beyond it: POLICY_VIOLATION; auto-creation: not created"},
    LimitEntry{"--max-partitions", &BrokerConfig::max_partitions, LimitUnit::kCount, 1, 10000000,
               "100000", "none (KRaft guidance: ~200k per cluster)",
               "Partitions of all topics together; CreateTopics beyond it: POLICY_VIOLATION"},
    LimitEntry{"--max-partitions-per-topic", &BrokerConfig::max_partitions_per_topic,
               LimitUnit::kCount, 1, 10000000, "10000", "none",
               "CreateTopics asking for more: INVALID_PARTITIONS"},
    LimitEntry{"--max-partitions-per-request", &BrokerConfig::max_partitions_per_request,
               LimitUnit::kCount, 1, 10000000, "10000",
               "none (KRaft: 10000 records per controller operation)",
               "Partitions one CreateTopics request may create; the topics past it get "
               "POLICY_VIOLATION"},
    LimitEntry{"--max-groups", &BrokerConfig::max_groups, LimitUnit::kCount, 1, 10000000, "10000",
               "none", "A JoinGroup or OffsetCommit that would create one more: POLICY_VIOLATION"},
    LimitEntry{"--group-max-size", &BrokerConfig::group_max_size, LimitUnit::kCount, 1, 1000000,
               "1000", "group.max.size (2147483647)",
               "Members of one group; a new member beyond it: GROUP_MAX_SIZE_REACHED"},
    LimitEntry{"--max-group-metadata-bytes", &BrokerConfig::max_group_metadata_bytes,
               LimitUnit::kBytes, 1024, kInt32Max, "1048576 (1 MiB)",
               "the offsets topic's max.message.bytes (1 MiB)",
               "Members' protocol metadata plus assignments of one group: "
               "GROUP_MAX_SIZE_REACHED beyond it"},
    LimitEntry{"--offset-metadata-max-bytes", &BrokerConfig::offset_metadata_max_bytes,
               LimitUnit::kBytes, 0, 1 << 20, "4096", "offset.metadata.max.bytes (4096)",
               "Metadata of one committed offset: OFFSET_METADATA_TOO_LARGE for that partition"},
    LimitEntry{"--max-id-length", &BrokerConfig::max_id_length, LimitUnit::kBytes, 16, 32000,
               "1024", "none",
               "Group ids (INVALID_GROUP_ID), member ids (UNKNOWN_MEMBER_ID) and the client id "
               "of a JoinGroup (INVALID_REQUEST)"},
    // Producers and transactions.
    LimitEntry{"--max-producer-ids", &BrokerConfig::max_producer_ids, LimitUnit::kCount, 1,
               10000000, "10000", "none (producer.id.expiration.ms, 1 day, expires idle ones)",
               "Ids of idempotent producers (InitProducerId without a transactional id); one more "
               "expires the least recently used: its state leaves every partition and its next "
               "Produce gets UNKNOWN_PRODUCER_ID (clients then ask for a new id)"},
    LimitEntry{"--max-producer-states", &BrokerConfig::max_producer_states, LimitUnit::kCount, 1,
               100000000, "100000 (about 200 B each)", "none",
               "Producer entries (epoch, last 5 batches' sequences) of all partitions together; "
               "a write that needs one more expires the least recently used idempotent producer, "
               "or gets KAFKA_STORAGE_ERROR (retriable) if there is none"},
    LimitEntry{"--max-transactional-ids", &BrokerConfig::max_transactional_ids, LimitUnit::kCount,
               1, 1000000, "1000", "none (transactional.id.expiration.ms, 7 days)",
               "Transactional ids held; one more forgets the least recently used one without an "
               "open transaction (a tombstone in __transaction_state), or InitProducerId gets "
               "COORDINATOR_LOAD_IN_PROGRESS (retriable) "
               "if every one has an open transaction"},
    LimitEntry{"--max-partitions-per-transaction", &BrokerConfig::max_partitions_per_transaction,
               LimitUnit::kCount, 1, 1000000, "1000", "none",
               "Partitions one transaction may add (AddPartitionsToTxn); those beyond it get "
               "INVALID_TXN_STATE"},
    LimitEntry{"--transaction-max-timeout-ms", &BrokerConfig::transaction_max_timeout_ms,
               LimitUnit::kMilliseconds, 1000, kInt32Max, "900000 (15 min)",
               "transaction.max.timeout.ms (900000)",
               "Largest transaction_timeout_ms of InitProducerId: INVALID_TRANSACTION_TIMEOUT "
               "beyond it; a transaction open longer than its timeout is aborted"},
    // Security (SSL and SASL listeners, the authorizer; docs/SECURITY.md).
    LimitEntry{"--max-unauthenticated-connections", &BrokerConfig::max_unauthenticated_connections,
               LimitUnit::kCount, 1, 1000000, "256", "none",
               "Connections still in their TLS handshake or SASL exchange, all listeners "
               "together; a connection beyond it is closed at once, with a log line"},
    LimitEntry{"--authentication-timeout-ms", &BrokerConfig::authentication_timeout_ms,
               LimitUnit::kMilliseconds, 100, 3600000, "10000 (10 s)",
               "none (connections.max.idle.ms)",
               "How long a connection may take for its TLS handshake and SASL exchange; then "
               "it is closed, with a log line"},
    LimitEntry{"--sasl-server-max-receive-size", &BrokerConfig::sasl_max_receive_bytes,
               LimitUnit::kBytes, 1024, kInt32Max, "524288 (512 KiB)",
               "sasl.server.max.receive.size (524288)",
               "The largest frame a client on a SASL listener may send before it authenticated "
               "(a SASL token included); a larger one closes the connection"},
    LimitEntry{"--connection-failed-authentication-delay-ms",
               &BrokerConfig::failed_authentication_delay_ms, LimitUnit::kMilliseconds, 0, 60000,
               "100", "connection.failed.authentication.delay.ms (100)",
               "How long a failed authentication's answer waits before the connection closes"},
    LimitEntry{"--max-failed-authentications-per-second",
               &BrokerConfig::max_failed_authentications_per_second, LimitUnit::kCount, 1, 1000000,
               "10", "none",
               "Failed authentications from one address in a second at the base delay; each "
               "further one in that second waits twice as long as the last, up to 5 s (the "
               "waiting connection holds only its own slot, so nothing queues)"},
    LimitEntry{"--max-scram-users", &BrokerConfig::max_scram_users, LimitUnit::kCount, 0, 1000000,
               "10000", "none",
               "SASL users with SCRAM credentials (--sasl-users, AlterUserScramCredentials, "
               "PUT /v1/users); a new user beyond it is refused with a message. Their bytes "
               "(512 B each, its name and salts) count in the groups' share of --max-memory"},
    LimitEntry{"--max-acls", &BrokerConfig::max_acls, LimitUnit::kCount, 0, 1000000, "10000",
               "none",
               "ACLs (CreateAcls, POST /v1/acls); a creation beyond it is refused with a "
               "message"},
    // The event log (GET /v1/events).
    LimitEntry{"--max-events", &BrokerConfig::max_events, LimitUnit::kCount, 1, 1000000, "1000",
               "none",
               "Group and topic events the broker keeps for /v1/events?since=; older "
               "ones are forgotten (a reader resuming after one gets the oldest kept)"},
    LimitEntry{"--max-event-bytes", &BrokerConfig::max_event_bytes, LimitUnit::kBytes, 1024,
               16 * kTiB, "4 MiB", "none",
               "JSON bytes of the events kept; the oldest are forgotten first (the newest is "
               "always kept)"},
    // The HTTP control endpoint (--http).
    LimitEntry{"--http-max-connections", &BrokerConfig::http_max_connections, LimitUnit::kCount, 1,
               100000, "64", "none",
               "Open connections to the HTTP control endpoint; one beyond it closes the "
               "connection that has waited longest for a request (or streamed longest) to make "
               "room, or is answered 503 if every one is busy answering"},
    LimitEntry{"--http-max-connections-per-ip", &BrokerConfig::http_max_connections_per_ip,
               LimitUnit::kCount, 1, 100000, "32", "none",
               "Open connections to the HTTP control endpoint from one IP address; one beyond "
               "it makes room among that address's connections the same way, so no client "
               "can hold the endpoint"},
    LimitEntry{"--http-max-head-bytes", &BrokerConfig::http_max_head_bytes, LimitUnit::kBytes, 1024,
               81920, "16 KiB", "none",
               "Request line and headers of one HTTP request: 431 and the connection closes "
               "beyond it"},
    LimitEntry{"--http-max-body-bytes", &BrokerConfig::http_max_body_bytes, LimitUnit::kBytes, 1024,
               1 << 30, "1 MiB", "none",
               "Body of one HTTP request: 413 and the connection closes beyond it"},
    LimitEntry{"--http-idle-timeout-ms", &BrokerConfig::http_idle_timeout_ms,
               LimitUnit::kMilliseconds, 100, kInt32Max, "60000", "none",
               "An HTTP connection with no request for this long, a request not whole this "
               "long after its first byte, or a response not taken for this long is closed"},
    LimitEntry{"--http-max-stream-queue-bytes", &BrokerConfig::http_max_stream_queue_bytes,
               LimitUnit::kBytes, 1024, 1 << 30, "1 MiB", "none",
               "Unsent bytes of one event stream (GET /v1/events); a client that reads too "
               "slowly to keep it below is disconnected"},
    LimitEntry{"--http-max-metrics-bytes", &BrokerConfig::http_max_metrics_bytes, LimitUnit::kBytes,
               65536, 1 << 30, "16 MiB", "none",
               "Samples of one GET /metrics answer: those beyond it are left out, with a "
               "comment saying so (per-group views stop there too); every HTTP answer is also "
               "charged "
               "to the response memory until it is taken, 503 when it does not fit"},
    LimitEntry{"--http-max-group-offsets", &BrokerConfig::http_max_group_offsets, LimitUnit::kCount,
               1, 10000000, "10000", "none",
               "Offset rows GET /v1/groups/{id} lists, in topic and partition order: beyond it "
               "the answer has \"offsets_truncated\": true and \"offsets_total\" (the lag still "
               "sums every row); GET /v1/groups lists no offsets"},
};

std::string_view unit_name(LimitUnit unit) {
  switch (unit) {
    case LimitUnit::kCount:
      return "count";
    case LimitUnit::kBytes:
      return "bytes";
    case LimitUnit::kMilliseconds:
      return "ms";
  }
  return "";
}

}  // namespace

std::span<const LimitEntry> limit_table() { return kLimits; }

std::string limit_table_markdown() {
  std::string out =
      "| Flag | Unit | Default | Kafka | Bounds, and what a client sees beyond it |\n"
      "|---|---|---|---|---|\n";
  for (const LimitEntry& limit : kLimits) {
    out += "| `";
    out += limit.flag;
    out += "` | ";
    out += unit_name(limit.unit);
    out += " | ";
    out += limit.default_text;
    out += " | ";
    out += limit.kafka;
    out += " | ";
    out += limit.bounds;
    out += " |\n";
  }
  return out;
}

}  // namespace kgroups::broker
