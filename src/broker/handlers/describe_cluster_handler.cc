// SPDX-License-Identifier: Apache-2.0
//
// DescribeCluster (key 60): v0-1, flexible in both. Admin clients ask for the cluster id, the
// controller and the brokers.
// - The cluster is this one broker: it is the controller and the only broker listed, with
//   its advertised address and no rack. cluster_authorized_operations: INT32_MIN ("not
//   computed": kgroupsd has no ACLs).
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
    response.cluster_id = config.cluster_id;
    response.controller_id = config.node_id;
    response.brokers.push_back({.broker_id = config.node_id,
                                .host = config.advertised_host,
                                .port = config.advertised_port});
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
