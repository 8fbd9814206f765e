// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's SASL user routes (docs/HTTP-API.md, "Users and ACLs"), over the
// broker's CredentialStore: GET /v1/users lists each user's SCRAM mechanisms and iteration
// counts (never a salt, key or password); PUT /v1/users/{name} sets a user's password for
// SCRAM-SHA-256 and/or SCRAM-SHA-512 (the store keeps salted keys only); DELETE
// /v1/users/{name} removes every credential of the user. A PUT is all or nothing.
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// The longest password PUT /v1/users/{name} takes.
inline constexpr std::size_t kMaxUserPasswordBytes = 4096;

// Adds the user routes to `router`; `broker` must outlive it.
void add_user_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
