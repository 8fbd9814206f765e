// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator_service.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <chrono>

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

TEST(CoordinatorService, TimerExpiresAMemberWhenNoRequestArrives) {
  CoordinatorConfig config;
  config.min_session_timeout_ms = 1;
  CoordinatorService service(config);
  asio::io_context io;
  service.schedule_expiries(io.get_executor());
  io.poll();  // the expiry timer starts with nothing to wait for

  JoinGroupParams params;
  params.group_id = "g";
  params.client_id = "client";
  params.session_timeout_ms = 30;
  params.rebalance_timeout_ms = 30;
  params.protocol_type = "consumer";
  params.protocols = {GroupProtocol{"range", {}}};
  GroupError joined = GroupError::kUnknownMemberId;
  service.coordinator().join_group(params,
                                   [&](const JoinGroupResult& result) { joined = result.error; });
  ASSERT_EQ(joined, GroupError::kNone);
  service.schedule_expiries(io.get_executor());  // the deadline moved earlier: re-arm
  EXPECT_EQ(service.coordinator().describe_group("g").state, "CompletingRebalance");

  io.run_for(milliseconds(300));
  // The member neither synced nor heartbeated: removed, and the group without offsets dropped.
  EXPECT_EQ(service.coordinator().describe_group("g").state, "Dead");
}

}  // namespace
}  // namespace kgroups::broker
