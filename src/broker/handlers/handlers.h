// SPDX-License-Identifier: Apache-2.0
//
// The request handlers, one per Kafka API, each in handlers/<api>_handler.cc. api_table.cc
// is their only caller. Each decodes its request, checks it, hands the work to the broker's
// state, and writes the response (see Handler in api_table.h for the contract).
// Not thread-safe: handlers run on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>

#include "broker/handlers/request_context.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_produce(RequestContext& ctx);
asio::awaitable<Reply> handle_fetch(RequestContext& ctx);
asio::awaitable<Reply> handle_list_offsets(RequestContext& ctx);
asio::awaitable<Reply> handle_metadata(RequestContext& ctx);
asio::awaitable<Reply> handle_api_versions(RequestContext& ctx);
asio::awaitable<Reply> handle_sasl_handshake(RequestContext& ctx);
asio::awaitable<Reply> handle_sasl_authenticate(RequestContext& ctx);
asio::awaitable<Reply> handle_create_topics(RequestContext& ctx);
asio::awaitable<Reply> handle_delete_topics(RequestContext& ctx);
asio::awaitable<Reply> handle_delete_records(RequestContext& ctx);
asio::awaitable<Reply> handle_create_partitions(RequestContext& ctx);
asio::awaitable<Reply> handle_delete_groups(RequestContext& ctx);
asio::awaitable<Reply> handle_offset_delete(RequestContext& ctx);
asio::awaitable<Reply> handle_offset_commit(RequestContext& ctx);
asio::awaitable<Reply> handle_offset_fetch(RequestContext& ctx);
asio::awaitable<Reply> handle_find_coordinator(RequestContext& ctx);
asio::awaitable<Reply> handle_join_group(RequestContext& ctx);
asio::awaitable<Reply> handle_heartbeat(RequestContext& ctx);
asio::awaitable<Reply> handle_leave_group(RequestContext& ctx);
asio::awaitable<Reply> handle_sync_group(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_groups(RequestContext& ctx);
asio::awaitable<Reply> handle_list_groups(RequestContext& ctx);
asio::awaitable<Reply> handle_init_producer_id(RequestContext& ctx);
asio::awaitable<Reply> handle_offset_for_leader_epoch(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_configs(RequestContext& ctx);
asio::awaitable<Reply> handle_alter_configs(RequestContext& ctx);
asio::awaitable<Reply> handle_incremental_alter_configs(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_acls(RequestContext& ctx);
asio::awaitable<Reply> handle_create_acls(RequestContext& ctx);
asio::awaitable<Reply> handle_delete_acls(RequestContext& ctx);
asio::awaitable<Reply> handle_add_partitions_to_txn(RequestContext& ctx);
asio::awaitable<Reply> handle_add_offsets_to_txn(RequestContext& ctx);
asio::awaitable<Reply> handle_end_txn(RequestContext& ctx);
asio::awaitable<Reply> handle_txn_offset_commit(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_cluster(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_user_scram_credentials(RequestContext& ctx);
asio::awaitable<Reply> handle_alter_user_scram_credentials(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_log_dirs(RequestContext& ctx);
asio::awaitable<Reply> handle_elect_leaders(RequestContext& ctx);
asio::awaitable<Reply> handle_alter_partition_reassignments(RequestContext& ctx);
asio::awaitable<Reply> handle_list_partition_reassignments(RequestContext& ctx);
asio::awaitable<Reply> handle_consumer_group_heartbeat(RequestContext& ctx);
asio::awaitable<Reply> handle_consumer_group_describe(RequestContext& ctx);
asio::awaitable<Reply> handle_share_group_heartbeat(RequestContext& ctx);
asio::awaitable<Reply> handle_share_group_describe(RequestContext& ctx);
asio::awaitable<Reply> handle_share_fetch(RequestContext& ctx);
asio::awaitable<Reply> handle_share_acknowledge(RequestContext& ctx);
asio::awaitable<Reply> handle_describe_share_group_offsets(RequestContext& ctx);
asio::awaitable<Reply> handle_alter_share_group_offsets(RequestContext& ctx);
asio::awaitable<Reply> handle_delete_share_group_offsets(RequestContext& ctx);

}  // namespace kgroups::broker::handlers
