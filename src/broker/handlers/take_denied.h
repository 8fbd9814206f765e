// SPDX-License-Identifier: Apache-2.0
//
// take_denied(): how a handler authorizes the topics (or groups) a request lists before handing
// the request to a service. It moves the entries the client may not act on out of the list, in
// their order, leaving the allowed ones in theirs; the service then sees only what is allowed and
// the handler answers the taken entries with the error Kafka gives. `allowed(entry)` is asked
// once per entry (one authorizer lookup per topic, not per partition). With the authorizer off
// nothing is asked, moved or allocated.
// Not thread-safe: a handler's own request.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "broker/handlers/request_context.h"

namespace kgroups::broker::handlers {

template <class Entry, class Allowed>
std::vector<Entry> take_denied(const RequestContext& ctx, std::vector<Entry>& entries,
                               Allowed allowed) {
  std::vector<Entry> denied;
  if (!ctx.authorizing()) return denied;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!allowed(entries[i])) {
      denied.push_back(std::move(entries[i]));
      continue;
    }
    if (kept != i) entries[kept] = std::move(entries[i]);
    ++kept;
  }
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(kept), entries.end());
  return denied;
}

// The entries named by `name` the client may not perform `operation` on, as topics.
template <class Entry>
std::vector<Entry> take_denied_topics(const RequestContext& ctx, std::vector<Entry>& entries,
                                      AclOperation operation) {
  return take_denied(ctx, entries, [&](const Entry& entry) {
    return ctx.allowed(operation, AclResourceType::kTopic, entry.name);
  });
}

}  // namespace kgroups::broker::handlers
