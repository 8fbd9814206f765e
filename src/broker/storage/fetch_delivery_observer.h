// SPDX-License-Identifier: Apache-2.0
//
// FetchDeliveryObserver: what FetchService tells whoever watches the records consumers are
// given. For each partition of an answered consumer Fetch (replica id -1) that carries
// records: who fetched (client id and connection), the offset asked for, and the end of what
// was sent. The Broker's ReplayTracker (events/replay_tracker.h) uses it to see records
// delivered to a group again.
// Not thread-safe: called on the broker's network thread, before the answer is encoded.
#pragma once

#include <cstdint>
#include <string_view>

namespace kgroups::broker {

// Who sent a Fetch.
struct FetchingClient {
  std::string_view client_id;  // the request header's client id; "" when null
  std::string_view peer;       // the connection's "host:port"
};

class FetchDeliveryObserver {
 public:
  virtual ~FetchDeliveryObserver() = default;

  // `client` is answered records of `topic` partition `partition`: the batches sent cover
  // [fetch_offset, end_offset), where fetch_offset is the offset it asked for and end_offset
  // is one past the last offset of the last batch sent (> fetch_offset; the first batch may
  // start before fetch_offset, whose records the client skips). Views are valid during the
  // call only. Must not throw.
  virtual void on_records_delivered(const FetchingClient& client, std::string_view topic,
                                    std::int32_t partition, std::int64_t fetch_offset,
                                    std::int64_t end_offset) = 0;
};

}  // namespace kgroups::broker
