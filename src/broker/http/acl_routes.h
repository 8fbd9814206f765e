// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's ACL routes (docs/HTTP-API.md, "Users and ACLs"), over the broker's
// AclStore, with ACLs as acl_json.h writes them: GET /v1/acls lists every ACL; POST /v1/acls
// creates one ACL or a list of them, all or none (each checked by Kafka's CreateAcls rules, the
// store's bound on ACLs respected); DELETE /v1/acls deletes what the filter in its body matches
// (absent fields match any value; {} matches every ACL) and lists what it deleted.
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds the ACL routes to `router`; `broker` must outlive it.
void add_acl_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
