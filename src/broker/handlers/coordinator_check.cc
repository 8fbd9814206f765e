// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/coordinator_check.h"

namespace kgroups::broker::handlers {

protocol::ErrorCode coordinator_placement_error(const RequestContext& ctx, std::string_view key,
                                                bool transactional) {
  if (ctx.broker.config().brokers == 1) return protocol::ErrorCode::kNone;
  const std::int32_t coordinator = ctx.broker.coordinator_for(key, transactional);
  if (coordinator == -1) return protocol::ErrorCode::kCoordinatorNotAvailable;
  if (coordinator != ctx.node_id) return protocol::ErrorCode::kNotCoordinator;
  if (ctx.broker.coordinator_loading(key, transactional)) {
    return protocol::ErrorCode::kCoordinatorLoadInProgress;
  }
  return protocol::ErrorCode::kNone;
}

protocol::ErrorCode transaction_coordinator_refusal(const RequestContext& ctx,
                                                    std::string_view transactional_id) {
  return coordinator_placement_error(ctx, transactional_id, /*transactional=*/true);
}

protocol::ErrorCode coordinator_refusal(RequestContext& ctx, protocol::ApiKey api,
                                        std::string_view group_id) {
  const protocol::ErrorCode placement = coordinator_placement_error(ctx, group_id);
  if (placement != protocol::ErrorCode::kNone) return placement;
  return ctx.broker.faults().take_error(api, group_id);
}

}  // namespace kgroups::broker::handlers
