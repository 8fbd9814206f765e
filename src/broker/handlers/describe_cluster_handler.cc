// SPDX-License-Identifier: Apache-2.0
//
// DescribeCluster (key 60): v0-1, flexible in both. Admin clients ask for the cluster id, the
// controller and the brokers.
// - The brokers that run are listed with their advertised addresses and no rack (with one
//   broker, that broker), and the controller (the lowest running node id).
//   cluster_authorized_operations: INT32_MIN ("not computed": kgroupsd has no ACLs).
// - v1: endpoint_type: 1 (brokers) is answered; 2 (controllers) gets MISMATCHED_ENDPOINT_TYPE
//   (this is a broker endpoint, as Kafka's brokers answer), any other value
//   UNSUPPORTED_ENDPOINT_TYPE, each with a message.
#include <string>

#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_cluster.h"

namespace kgroups::broker::handlers {
namespace {

constexpr std::int8_t kBrokerEndpoints = 1;
constexpr std::int8_t kControllerEndpoints = 2;

}  // namespace

asio::awaitable<Reply> handle_describe_cluster(RequestContext& ctx) {
  const auto request = protocol::DescribeClusterRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const BrokerConfig& config = ctx.broker.config();
  protocol::DescribeClusterResponse response;
  response.endpoint_type = request->endpoint_type;
  if (request->endpoint_type == kControllerEndpoints) {
    response.error_code = protocol::ErrorCode::kMismatchedEndpointType;
    response.error_message =
        "kgroupsd listens as a broker: send DescribeCluster with endpoint_type 1 (brokers)";
  } else if (request->endpoint_type != kBrokerEndpoints) {
    response.error_code = protocol::ErrorCode::kUnsupportedEndpointType;
    response.error_message = "endpoint_type " + std::to_string(request->endpoint_type) +
                             " is not supported; use 1 (brokers)";
  } else {
    const ReplicationController& replication = ctx.broker.replication();
    response.cluster_id = config.cluster_id;
    response.controller_id = replication.controller_id();
    for (std::int32_t node = 0; node < replication.brokers(); ++node) {
      if (replication.state(node) != BrokerState::kRunning && node != ctx.node_id) continue;
      const Broker::NodeAddress& address = ctx.broker.node_address(node, ctx.listener);
      response.brokers.push_back({.broker_id = node, .host = address.host, .port = address.port});
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
