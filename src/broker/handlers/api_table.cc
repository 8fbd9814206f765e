// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/api_table.h"

#include <algorithm>
#include <array>

#include "broker/handlers/handlers.h"

namespace kgroups::broker {
namespace {

using protocol::ApiKey;

// Version ranges: every version each handler serves (its header comment says what changes
// per version), checked with kcat/librdkafka, confluent-kafka, kafka-python and kafkajs.
// Ordered by key.
constexpr std::array kApis{
    ApiEntry{ApiKey::kProduce, 0, 11, &handlers::handle_produce,
             "v3-11 served; v0-2 advertised only so librdkafka keeps compression on; "
             "acks 0, 1, -1; one magic-2 batch per partition, validated record by record"},
    ApiEntry{ApiKey::kFetch, 4, 17, &handlers::handle_fetch,
             "long polling (max_wait_ms, min_bytes); batches served as stored; "
             "at most --fetch-max-bytes; fetch sessions (v7+, at most --max-fetch-sessions); "
             "topic ids (v13+)"},
    ApiEntry{ApiKey::kListOffsets, 1, 10, &handlers::handle_list_offsets,
             "earliest (-2, the log start offset), latest (-1), by timestamp, max timestamp "
             "(-3), earliest local (-4, the log start), latest tiered (-5, none: -1)"},
    ApiEntry{ApiKey::kMetadata, 0, 12, &handlers::handle_metadata,
             "auto-creates unknown topics when allowed; every running broker, the controller "
             "(lowest running node id), per partition its leader, epoch, replicas, ISR and "
             "offline replicas; topic ids (v10+), topics by id (v12)"},
    ApiEntry{ApiKey::kOffsetCommit, 2, 9, &handlers::handle_offset_commit,
             "fenced by member id and generation (member epoch for consumer groups); "
             "generation -1 for groups without members; static members by instance id"},
    ApiEntry{ApiKey::kOffsetFetch, 1, 9, &handlers::handle_offset_fetch,
             "-1 where nothing is committed; any group state; several groups (v8+); "
             "member epoch checked for consumer groups (v9)"},
    ApiEntry{ApiKey::kFindCoordinator, 0, 6, &handlers::handle_find_coordinator,
             "a group's (transactional id's) coordinator is the leader of its "
             "__consumer_offsets (__transaction_state) partition, the topic created by the first "
             "lookup; several keys per request (v4+); share coordinator: "
             "COORDINATOR_NOT_AVAILABLE"},
    ApiEntry{ApiKey::kJoinGroup, 0, 9, &handlers::handle_join_group,
             "completes as soon as every member has rejoined; no initial delay by default; "
             "MEMBER_ID_REQUIRED (v4+); static membership (v5+): a known instance gets its "
             "assignment back without a rebalance"},
    ApiEntry{ApiKey::kHeartbeat, 0, 4, &handlers::handle_heartbeat,
             "session timeouts; FENCED_INSTANCE_ID for a replaced static member"},
    ApiEntry{ApiKey::kLeaveGroup, 0, 5, &handlers::handle_leave_group,
             "rebalances at once; batch leave by member or instance id (v3+)"},
    ApiEntry{ApiKey::kSyncGroup, 0, 5, &handlers::handle_sync_group,
             "followers wait for the leader's assignment"},
    ApiEntry{ApiKey::kDescribeGroups, 0, 5, &handlers::handle_describe_groups,
             "unknown groups and consumer (KIP-848) groups are Dead"},
    ApiEntry{ApiKey::kListGroups, 0, 5, &handlers::handle_list_groups,
             "groups with members or committed offsets, of both protocols; state (v4+) "
             "and type (v5+) filters"},
    ApiEntry{ApiKey::kSaslHandshake, 0, 1, &handlers::handle_sasl_handshake,
             "SASL listeners: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER (as enabled); "
             "v0: raw tokens follow; an unknown mechanism is answered, then the connection "
             "closes; elsewhere ILLEGAL_SASL_STATE"},
    ApiEntry{ApiKey::kApiVersions, 0, 4, &handlers::handle_api_versions,
             "v3+ logs the client's software name and version; a newer version gets "
             "UNSUPPORTED_VERSION in the v0 layout, so clients fall back"},
    ApiEntry{ApiKey::kCreateTopics, 0, 7, &handlers::handle_create_topics,
             "replication factor up to --brokers (-1: --default-replication-factor) or manual "
             "assignments, placed as Kafka's rack-unaware assignment; every Kafka topic config "
             "checked and stored "
             "(docs/TOPIC-CONFIGS.md); the created topic's partitions, configs (v5+) and id "
             "(v7+)"},
    ApiEntry{ApiKey::kDeleteTopics, 0, 6, &handlers::handle_delete_topics,
             "deletes records, memory and every group's offsets of the topic at once; "
             "by name or id (v6); a re-created topic gets a new id and starts at 0"},
    ApiEntry{ApiKey::kDeleteRecords, 0, 2, &handlers::handle_delete_records,
             "moves the log start offset (-1: the high watermark), inside a batch too; "
             "drops the segments below it"},
    ApiEntry{ApiKey::kInitProducerId, 0, 5, &handlers::handle_init_producer_id,
             "idempotent producers: a new producer id at epoch 0 (at most --max-producer-ids); "
             "transactional ids: the same id with the epoch bumped, fencing the previous "
             "producer and aborting its open transaction (at most --max-transactional-ids)"},
    ApiEntry{ApiKey::kOffsetForLeaderEpoch, 0, 4, &handlers::handle_offset_for_leader_epoch,
             "answered by the leader from its leader-epoch cache (its newest 64 epochs): the "
             "end offset of the epoch asked for, so a client detects truncation; "
             "FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH / NOT_LEADER_OR_FOLLOWER as Kafka"},
    ApiEntry{ApiKey::kAddPartitionsToTxn, 0, 3, &handlers::handle_add_partitions_to_txn,
             "the transaction becomes Ongoing; at most --max-partitions-per-transaction; v4+ "
             "(broker to broker, KIP-890) not served"},
    ApiEntry{ApiKey::kAddOffsetsToTxn, 0, 4, &handlers::handle_add_offsets_to_txn,
             "adds the group whose offsets TxnOffsetCommit will commit"},
    ApiEntry{ApiKey::kEndTxn, 0, 4, &handlers::handle_end_txn,
             "commit or abort markers written into every partition of the transaction at "
             "once; pending offsets committed or dropped; v5 (KIP-890 part 2) not served"},
    ApiEntry{ApiKey::kTxnOffsetCommit, 0, 4, &handlers::handle_txn_offset_commit,
             "offsets pending until EndTxn commits them (OffsetFetch require_stable: "
             "UNSTABLE_OFFSET_COMMIT meanwhile); fenced by member and generation (v3+)"},
    ApiEntry{ApiKey::kDescribeAcls, 0, 3, &handlers::handle_describe_acls,
             "the ACLs one filter selects (ANY, MATCH, literal, prefixed), grouped by resource "
             "pattern; needs DESCRIBE on the cluster; SECURITY_DISABLED without the authorizer"},
    ApiEntry{ApiKey::kCreateAcls, 0, 3, &handlers::handle_create_acls,
             "one result per creation, Kafka's INVALID_REQUEST messages; at most --max-acls, "
             "counted in the groups' share of --max-memory; needs ALTER on the cluster"},
    ApiEntry{ApiKey::kDeleteAcls, 0, 3, &handlers::handle_delete_acls,
             "the ACLs each filter deleted (as before the request); at most --max-acls listed "
             "and 1,000 filters per request; needs ALTER on the cluster"},
    ApiEntry{ApiKey::kDescribeConfigs, 0, 4, &handlers::handle_describe_configs,
             "topics (every Kafka topic config, with source, synonyms, type and "
             "documentation), this broker (its flags, read-only; the topic defaults, with "
             "their dynamic values), \"\" (what is set cluster-wide) and share groups (type "
             "32: share.* group configs, source GROUP_CONFIG when the group set them); a "
             "repeated resource is described once"},
    ApiEntry{ApiKey::kAlterConfigs, 0, 2, &handlers::handle_alter_configs,
             "replaces a topic's configs (what is not named returns to its default), "
             "validate_only; brokers and \"\": the broker configs that set topic defaults "
             "(log.retention.ms, ...), applied at once; others INVALID_REQUEST (not dynamic); "
             "groups (type 32) INVALID_REQUEST: IncrementalAlterConfigs changes them"},
    ApiEntry{ApiKey::kDescribeLogDirs, 0, 4, &handlers::handle_describe_log_dirs,
             "one made-up log dir per broker (/kgroupsd/broker-<id>) with its replicas: "
             "size, offset lag behind the leader's log end; answered by the broker asked"},
    ApiEntry{ApiKey::kSaslAuthenticate, 0, 2, &handlers::handle_sasl_authenticate,
             "the mechanism's exchange; v1+ session_lifetime_ms (KIP-368, "
             "--connections-max-reauth-ms, a token's exp); a failure answers "
             "SASL_AUTHENTICATION_FAILED after a back-off, then closes the connection"},
    ApiEntry{ApiKey::kCreatePartitions, 0, 3, &handlers::handle_create_partitions,
             "grows topics within --max-partitions(-per-topic); validate_only; no explicit "
             "assignments (INVALID_REPLICA_ASSIGNMENT)"},
    ApiEntry{ApiKey::kDeleteGroups, 0, 2, &handlers::handle_delete_groups,
             "groups without members, of both protocols, with their offsets"},
    ApiEntry{ApiKey::kElectLeaders, 0, 2, &handlers::handle_elect_leaders,
             "preferred (0) and unclean (1) elections per partition, or of every partition "
             "(null); any broker answers"},
    ApiEntry{ApiKey::kIncrementalAlterConfigs, 0, 1, &handlers::handle_incremental_alter_configs,
             "set, delete, append and subtract (list configs) on topic configs, "
             "validate_only; brokers and \"\": the broker configs that set topic defaults "
             "(log.retention.ms, ...), applied at once; others INVALID_REQUEST (not dynamic); "
             "groups (type 32): a share group's share.record.lock.duration.ms, "
             "share.auto.offset.reset, share.delivery.count.limit, "
             "share.partition.max.record.locks, share.session.timeout.ms and "
             "share.heartbeat.interval.ms, INVALID_CONFIG for a bad value"},
    ApiEntry{ApiKey::kAlterPartitionReassignments, 0, 1,
             &handlers::handle_alter_partition_reassignments,
             "Kafka's moves: the union of replicas, added ones catch up and join the ISR, then "
             "the leaving ones go (a new leader if the leader leaves); null cancels; "
             "allow_replication_factor_change false (v1) refuses a new factor "
             "(INVALID_REPLICATION_FACTOR)"},
    ApiEntry{ApiKey::kListPartitionReassignments, 0, 0,
             &handlers::handle_list_partition_reassignments,
             "the moves in progress with their adding and removing replicas"},
    ApiEntry{ApiKey::kOffsetDelete, 0, 0, &handlers::handle_offset_delete,
             "GROUP_SUBSCRIBED_TO_TOPIC while a member subscribes to the topic"},
    ApiEntry{ApiKey::kDescribeUserScramCredentials, 0, 0,
             &handlers::handle_describe_user_scram_credentials,
             "each user's SCRAM mechanisms and iteration counts (never salts or keys); null or "
             "empty: every user; needs DESCRIBE on the CLUSTER"},
    ApiEntry{ApiKey::kAlterUserScramCredentials, 0, 0,
             &handlers::handle_alter_user_scram_credentials,
             "upserts (salt, iterations 4096..16384, SaltedPassword) and deletes SCRAM-SHA-256/512 "
             "credentials, one change per user, Kafka's per-user errors; new users within the "
             "users bound (POLICY_VIOLATION); needs ALTER on the CLUSTER"},
    ApiEntry{ApiKey::kDescribeCluster, 0, 1, &handlers::handle_describe_cluster,
             "the running brokers and the controller (lowest running node id)"},
    ApiEntry{ApiKey::kConsumerGroupHeartbeat, 0, 1, &handlers::handle_consumer_group_heartbeat,
             "KIP-848 groups: server-side assignors uniform (default) and range, member "
             "epochs, incremental revocation; no regex subscriptions (INVALID_REQUEST)"},
    ApiEntry{ApiKey::kConsumerGroupDescribe, 0, 0, &handlers::handle_consumer_group_describe,
             "KIP-848 groups; others get GROUP_ID_NOT_FOUND"},
    ApiEntry{ApiKey::kShareGroupHeartbeat, 1, 1, &handlers::handle_share_group_heartbeat,
             "KIP-932 share groups: Kafka's simple share assignor (a partition may have several "
             "members), member epochs; leaving or timing out releases the member's records"},
    ApiEntry{ApiKey::kShareGroupDescribe, 1, 1, &handlers::handle_share_group_describe,
             "share groups; others get GROUP_ID_NOT_FOUND"},
    ApiEntry{ApiKey::kShareFetch, 1, 2, &handlers::handle_share_fetch,
             "share sessions; acknowledgements, then acquisition of whole batches with "
             "acquired ranges and delivery counts; long polling; type 4 (renew) refused"},
    ApiEntry{ApiKey::kShareAcknowledge, 1, 2, &handlers::handle_share_acknowledge,
             "INVALID_RECORD_STATE for records the member does not hold; -1 closes the session"},
    ApiEntry{ApiKey::kDescribeShareGroupOffsets, 0, 1,
             &handlers::handle_describe_share_group_offsets,
             "each share-partition's start offset; v1: lag"},
    ApiEntry{ApiKey::kAlterShareGroupOffsets, 0, 0, &handlers::handle_alter_share_group_offsets,
             "NON_EMPTY_GROUP while the group has members"},
    ApiEntry{ApiKey::kDeleteShareGroupOffsets, 0, 0, &handlers::handle_delete_share_group_offsets,
             "NON_EMPTY_GROUP while the group has members"},
};

static_assert(std::is_sorted(kApis.begin(), kApis.end(),
                             [](const ApiEntry& a, const ApiEntry& b) { return a.key < b.key; }),
              "keep the API table ordered by key");

}  // namespace

std::span<const ApiEntry> api_table() { return kApis; }

const ApiEntry* find_api(ApiKey key) {
  for (const ApiEntry& api : kApis) {
    if (api.key == key) return &api;
  }
  return nullptr;
}

std::string api_table_markdown() {
  std::string out =
      "| API | Key | Versions | Notes |\n"
      "|---|---|---|---|\n";
  for (const ApiEntry& api : kApis) {
    out += "| ";
    out += protocol::api_name(api.key);
    out += " | " + std::to_string(static_cast<int>(api.key)) + " | ";
    out += api.min_version == api.max_version
               ? std::to_string(api.min_version)
               : std::to_string(api.min_version) + "-" + std::to_string(api.max_version);
    out += " | ";
    out += api.notes;
    out += " |\n";
  }
  return out;
}

}  // namespace kgroups::broker
