// SPDX-License-Identifier: Apache-2.0
//
// The topics of a classic member's "consumer" protocol subscription: the JoinGroup protocol
// metadata Kafka's consumers send (ConsumerProtocolSubscription v0-3: int16 version, then an
// int32-counted array of int16-length topic names, then fields this reader skips). The
// coordinator reads it only to answer OffsetDelete (GROUP_SUBSCRIBED_TO_TOPIC).
// Thread-safe: a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kgroups::broker {

// The subscribed topic names, or nullopt if `metadata` is not a subscription this reader
// understands (too short, a negative count or length, a count larger than the bytes hold).
std::optional<std::vector<std::string>> consumer_subscription_topics(
    std::span<const std::uint8_t> metadata);

}  // namespace kgroups::broker
