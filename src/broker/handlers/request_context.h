// SPDX-License-Identifier: Apache-2.0
//
// RequestContext: what a handler gets for one request — the broker, the decoded request
// header, a reader positioned at the request body, and a writer for the response body (the
// connection has already written the size prefix placeholder and the response header).
// Reply: what the connection does once the handler is done.
// Not thread-safe: lives on the broker's network thread for one request.
#pragma once

#include <string>
#include <string_view>

#include "broker/node/broker.h"
#include "broker/storage/segment_pins.h"
#include "protocol/request_header.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {

enum class Reply {
  kSend,          // send the response written to RequestContext::response
  kNoResponse,    // send nothing (Produce with acks=0)
  kSendAndClose,  // send the response, then close the connection (failed authentication)
  kClose,         // log RequestContext::failure and close the connection
};

struct RequestContext {
  Broker& broker;
  const protocol::RequestHeader& header;
  protocol::WireReader& body;      // the request body; views the frame buffer
  protocol::WireWriter& response;  // append the response body here
  std::string_view peer;           // the client's address, for log lines
  std::string failure;             // with Reply::kClose: why, for the log
  // Where a handler that splices stored batches into `response` (WireWriter::splice_into())
  // pins their segments; nullptr: the connection cannot splice, so the handler copies.
  SegmentPins* pins = nullptr;
  // The broker of the cluster whose listener the request came in on (--brokers; 0 with one).
  std::int32_t node_id = 0;
  // Which of that broker's listeners (config().listeners' index): Metadata, FindCoordinator
  // and DescribeCluster give the brokers' addresses on the same listener.
  std::size_t listener = 0;
  // Who the client is and where its SASL exchange stands (the connection's); nullptr: an
  // anonymous client (handler tests).
  ConnectionAuth* auth = nullptr;

  [[nodiscard]] std::int16_t version() const { return header.api_version; }

  // Whether the client may perform `operation` on the resource (always, with the authorizer
  // off): Kafka's authorization of a request, per topic, group, transactional id or cluster.
  [[nodiscard]] bool allowed(AclOperation operation, AclResourceType type,
                             std::string_view name) const {
    return broker.access().allows(auth, operation, type, name);
  }
  [[nodiscard]] bool allowed_on_cluster(AclOperation operation) const {
    return allowed(operation, AclResourceType::kCluster, kClusterResourceName);
  }

  // Counts an error code this request answers (for the whole request or one partition or
  // group) in the broker's metrics; NONE is not counted (broker_metrics.h).
  void count_error(protocol::ErrorCode error) const {
    broker.metrics().count_error(header.api_key, error);
  }

  // Records why the request cannot be answered and returns Reply::kClose.
  Reply close_because(std::string reason) {
    failure = std::move(reason);
    return Reply::kClose;
  }
};

}  // namespace kgroups::broker
