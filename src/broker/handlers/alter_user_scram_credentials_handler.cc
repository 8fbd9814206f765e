// SPDX-License-Identifier: Apache-2.0
//
// AlterUserScramCredentials (key 51): v0, flexible. Admin clients set users' SCRAM credentials
// from what the client derived from a password (salt, iteration count, SaltedPassword; the
// password never travels) and delete them, in the broker's CredentialStore. As Kafka's
// ControllerApis and ScramControlManager.alterCredentials:
// - The client needs ALTER on the CLUSTER; else every user named gets
//   CLUSTER_AUTHORIZATION_FAILED and nothing changes.
// - One change per user per request: a user deleted or upserted again (any mechanism) gets
//   DUPLICATE_RESOURCE "A user credential cannot be altered twice in the same request" and none
//   of its changes is made. A user whose first change was refused keeps that refusal.
// - Per change, Kafka's checks and messages: an empty name UNACCEPTABLE_CREDENTIAL; a mechanism
//   other than 1 (SCRAM-SHA-256) or 2 (SCRAM-SHA-512) UNSUPPORTED_SASL_MECHANISM; iterations
//   outside 4096..16384 UNACCEPTABLE_CREDENTIAL; deleting a credential the user does not have
//   RESOURCE_NOT_FOUND. Then the store's own: a name holding ':', an empty salt or a salted
//   password not of the mechanism's digest size UNACCEPTABLE_CREDENTIAL; a new user beyond the
//   store's bound on users POLICY_VIOLATION (Kafka has no such bound).
// - Deletions are made before upsertions, so a request can make room for new users. One result
//   per user, in the order the users first appear (deletions, then upsertions).
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/scram_mechanism_code.h"
#include "protocol/messages/alter_user_scram_credentials.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::AlterUserScramCredentialsRequest;
using protocol::AlterUserScramCredentialsResponse;
using protocol::ErrorCode;
using Deletion = AlterUserScramCredentialsRequest::ScramCredentialDeletion;
using Upsertion = AlterUserScramCredentialsRequest::ScramCredentialUpsertion;

// One user's change as the request asks for it, and what became of it.
struct UserChange {
  std::string_view user;
  const Deletion* deletion = nullptr;    // set for a deletion
  const Upsertion* upsertion = nullptr;  // set for an upsertion
  ErrorCode error = ErrorCode::kNone;
  std::string message;

  void refuse(ErrorCode code, std::string why) {
    error = code;
    message = std::move(why);
  }
};

// Kafka's checks every change makes (validateScramUsernameAndMechanism); on a refusal, sets it.
bool name_and_mechanism_accepted(UserChange& change, std::int8_t mechanism_code) {
  if (change.user.empty()) {
    change.refuse(ErrorCode::kUnacceptableCredential, "Username must not be empty");
  } else if (!scram_mechanism_from_code(mechanism_code)) {
    change.refuse(ErrorCode::kUnsupportedSaslMechanism, "Unknown SCRAM mechanism");
  }
  return change.error == ErrorCode::kNone;
}

void check_deletion(UserChange& change, const CredentialStore& store) {
  if (!name_and_mechanism_accepted(change, change.deletion->mechanism)) return;
  if (store.find(change.user, *scram_mechanism_from_code(change.deletion->mechanism)) == nullptr) {
    change.refuse(ErrorCode::kResourceNotFound,
                  "Attempt to delete a user credential that does not exist");
  }
}

void check_upsertion(UserChange& change) {
  if (!name_and_mechanism_accepted(change, change.upsertion->mechanism)) return;
  if (change.upsertion->iterations < kScramMinIterations) {
    change.refuse(ErrorCode::kUnacceptableCredential, "Too few iterations");
  } else if (change.upsertion->iterations > kScramMaxIterations) {
    change.refuse(ErrorCode::kUnacceptableCredential, "Too many iterations");
  }
}

// The users' changes in the order the users first appear, checked, with Kafka's rule of one
// change per user.
class ChangeList {
 public:
  void add(std::string_view user, const Deletion* deletion, const Upsertion* upsertion,
           const CredentialStore& store) {
    const auto [it, first] = index_of_.emplace(user, changes_.size());
    if (!first) {
      UserChange& earlier = changes_[it->second];
      if (earlier.error == ErrorCode::kNone) {
        earlier.refuse(ErrorCode::kDuplicateResource,
                       "A user credential cannot be altered twice in the same request");
      }
      return;
    }
    UserChange& change = changes_.emplace_back(UserChange{.user = user,
                                                          .deletion = deletion,
                                                          .upsertion = upsertion,
                                                          .error = ErrorCode::kNone,
                                                          .message = {}});
    if (deletion != nullptr) {
      check_deletion(change, store);
    } else {
      check_upsertion(change);
    }
  }

  std::vector<UserChange>& changes() { return changes_; }

 private:
  std::vector<UserChange> changes_;
  std::map<std::string_view, std::size_t> index_of_;
};

void apply_deletion(const UserChange& change, CredentialStore& store) {
  store.delete_credential(change.user, *scram_mechanism_from_code(change.deletion->mechanism));
}

void apply_upsertion(UserChange& change, CredentialStore& store) {
  if (!store.has_room_for(change.user)) {
    change.refuse(ErrorCode::kPolicyViolation,
                  "cannot add user '" + std::string(change.user) + "': the broker already has " +
                      std::to_string(store.max_users()) +
                      " SASL users, its limit (--max-scram-users); delete one first");
    return;
  }
  const Upsertion& upsertion = *change.upsertion;
  const ScramMechanism mechanism = *scram_mechanism_from_code(upsertion.mechanism);
  if (!store.has_memory_for(change.user, std::span(&mechanism, 1), upsertion.salt.size())) {
    change.refuse(ErrorCode::kPolicyViolation,
                  "cannot store user '" + std::string(change.user) +
                      "': the memory the broker keeps users in (the groups' share of "
                      "--max-memory) has no room for it; delete users or groups, or raise "
                      "--max-memory");
    return;
  }
  if (CredentialRefusal refusal =
          store.set_salted_password(change.user, mechanism, upsertion.salt, upsertion.iterations,
                                    upsertion.salted_password)) {
    change.refuse(ErrorCode::kUnacceptableCredential, std::move(*refusal));
  }
}

}  // namespace

asio::awaitable<Reply> handle_alter_user_scram_credentials(RequestContext& ctx) {
  const auto request = AlterUserScramCredentialsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CredentialStore& store = ctx.broker.access().credentials();
  ChangeList list;
  for (const Deletion& deletion : request->deletions) {
    list.add(deletion.name, &deletion, nullptr, store);
  }
  for (const Upsertion& upsertion : request->upsertions) {
    list.add(upsertion.name, nullptr, &upsertion, store);
  }
  if (!ctx.allowed_on_cluster(AclOperation::kAlter)) {
    for (UserChange& change : list.changes()) {
      change.refuse(ErrorCode::kClusterAuthorizationFailed,
                    "Cluster authorization failed: altering SCRAM credentials needs ALTER on "
                    "the CLUSTER resource; grant it to this principal with CreateAcls");
    }
  }
  for (UserChange& change : list.changes()) {
    if (change.error == ErrorCode::kNone && change.deletion != nullptr)
      apply_deletion(change, store);
  }
  for (UserChange& change : list.changes()) {
    if (change.error == ErrorCode::kNone && change.upsertion != nullptr) {
      apply_upsertion(change, store);
    }
  }
  AlterUserScramCredentialsResponse response;
  for (UserChange& change : list.changes()) {
    ctx.count_error(change.error);
    auto& result = response.results.emplace_back();
    result.user = std::string(change.user);
    result.error_code = change.error;
    if (change.error != ErrorCode::kNone) result.error_message = std::move(change.message);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
