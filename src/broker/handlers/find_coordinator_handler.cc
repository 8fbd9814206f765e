// SPDX-License-Identifier: Apache-2.0
//
// FindCoordinator (key 10): v0-6.
// - v0: the group's coordinator (Broker::coordinator_for(): the leader of its
//   __consumer_offsets partition; one broker: itself), its node id and advertised address;
//   COORDINATOR_NOT_AVAILABLE while no broker leads that partition.
// - v1: key_type: 0 (group) and 1 (transaction: the leader of the transactional id's
//   __transaction_state partition, created by the first such lookup) are answered; 2 (share group)
//   gets COORDINATOR_NOT_AVAILABLE with a message (kgroupsd has no share groups). error_message and
//   throttle_time_ms (0) in the response. v2: same layout. v3: flexible.
// - v4: several keys in one request (coordinator_keys), answered one by one; a key named more
//   than once is answered once, so the response grows with the distinct keys, not with the
//   request's repetitions. v5, v6: same layout.
// - Injected errors (POST /v1/faults): a group lookup (key_type 0) that an armed
//   FindCoordinator fault or an "unavailable" coordinator fault matches answers its error
//   with node id -1 (each key of a v4+ request counts as one lookup).
// - A group lookup creates the internal topic __consumer_offsets if it does not exist yet
//   (Kafka does so); if it cannot be created, groups are still coordinated, from memory.
#include <string>
#include <string_view>
#include <unordered_set>

#include "broker/handlers/handlers.h"
#include "protocol/messages/find_coordinator.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::int8_t kGroupKeyType = 0;
constexpr std::int8_t kTransactionKeyType = 1;

struct Answer {
  ErrorCode error = ErrorCode::kNone;
  std::optional<std::string> message = std::nullopt;
  std::int32_t node_id = -1;
  std::string host = {};
  std::int32_t port = -1;
};

Answer find(std::int8_t key_type, std::string_view key, const Broker& broker, FaultInjector& faults,
            std::size_t listener) {
  if (key_type != kGroupKeyType && key_type != kTransactionKeyType) {
    return {.error = ErrorCode::kCoordinatorNotAvailable,
            .message =
                "kgroupsd coordinates groups (key_type 0) and transactions (1); got "
                "key_type " +
                std::to_string(key_type)};
  }
  if (key_type == kGroupKeyType) {
    const ErrorCode injected = faults.take_error(protocol::ApiKey::kFindCoordinator, key);
    if (injected != ErrorCode::kNone) {
      return {.error = injected, .message = std::string(protocol::error_name(injected))};
    }
  }
  const std::int32_t node = broker.coordinator_for(key, key_type == kTransactionKeyType);
  if (node == -1) {
    return {.error = ErrorCode::kCoordinatorNotAvailable,
            .message = "no broker leads the key's partition now; retry after the election"};
  }
  const Broker::NodeAddress& address = broker.node_address(node, listener);
  return {.node_id = node, .host = address.host, .port = address.port};
}

}  // namespace

asio::awaitable<Reply> handle_find_coordinator(RequestContext& ctx) {
  const auto request = protocol::FindCoordinatorRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // As Kafka, a group's first lookup creates __consumer_offsets (its records go there), a
  // transactional id's __transaction_state.
  if (request->key_type == kGroupKeyType) (void)ctx.broker.offsets_topic().ensure_created();
  if (request->key_type == kTransactionKeyType) {
    (void)ctx.broker.transaction_state_topic().ensure_created();
  }
  protocol::FindCoordinatorResponse response;
  if (ctx.version() <= 3) {
    Answer answer =
        find(request->key_type, request->key, ctx.broker, ctx.broker.faults(), ctx.listener);
    response.error_code = answer.error;
    response.error_message = std::move(answer.message);
    response.node_id = answer.node_id;
    response.host = std::move(answer.host);
    response.port = answer.port;
  } else {
    std::unordered_set<std::string_view> seen;
    for (const std::string_view key : request->coordinator_keys) {
      if (!seen.insert(key).second) continue;
      Answer answer = find(request->key_type, key, ctx.broker, ctx.broker.faults(), ctx.listener);
      auto& coordinator = response.coordinators.emplace_back();
      coordinator.key = std::string(key);
      coordinator.error_code = answer.error;
      coordinator.error_message = std::move(answer.message);
      coordinator.node_id = answer.node_id;
      coordinator.host = std::move(answer.host);
      coordinator.port = answer.port;
    }
  }
  ctx.count_error(response.error_code);
  for (const auto& coordinator : response.coordinators) ctx.count_error(coordinator.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
