// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/acl_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups::broker {
namespace {

AclBinding acl(AclResourceType type, std::string name, AclPatternType pattern,
               std::string principal = "User:alice",
               AclPermissionType permission = AclPermissionType::kAllow) {
  return AclBinding{type, std::move(name),     pattern,   std::move(principal),
                    "*",  AclOperation::kRead, permission};
}

AclBinding topic(std::string name, AclPatternType pattern = AclPatternType::kLiteral) {
  return acl(AclResourceType::kTopic, std::move(name), pattern);
}

AclBindingFilter match_topic(std::string name) {
  AclBindingFilter filter;
  filter.resource_type = AclResourceType::kTopic;
  filter.resource_name = std::move(name);
  filter.pattern_type = AclPatternType::kMatch;
  return filter;
}

TEST(AclStore, CreatesAndDescribesEverything) {
  AclStore store;
  EXPECT_EQ(store.create(topic("orders")), std::nullopt);
  EXPECT_EQ(store.create(topic("ord", AclPatternType::kPrefixed)), std::nullopt);
  EXPECT_EQ(store.create(acl(AclResourceType::kGroup, "readers", AclPatternType::kLiteral)),
            std::nullopt);
  EXPECT_EQ(store.size(), 3u);
  EXPECT_EQ(store.describe(any_acl_filter()).size(), 3u);
}

TEST(AclStore, ADuplicateIsAcceptedAndNotAdded) {
  AclStore store;
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  const std::size_t bytes = store.stored_bytes();
  EXPECT_EQ(store.create(topic("orders")), std::nullopt);
  EXPECT_EQ(store.size(), 1u);
  EXPECT_EQ(store.stored_bytes(), bytes);
}

TEST(AclStore, RefusesAnInvalidBindingWithItsMessage) {
  AclStore store;
  const auto refusal = store.create(topic(""));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->reason, AclCreateRefusal::Reason::kInvalidBinding);
  EXPECT_EQ(refusal->message, "Invalid empty resource name");
  EXPECT_EQ(store.size(), 0u);
}

TEST(AclStore, RefusesPastItsBoundButAcceptsDuplicates) {
  AclStore store(2);
  ASSERT_EQ(store.create(topic("a")), std::nullopt);
  ASSERT_EQ(store.create(topic("b")), std::nullopt);
  const auto refusal = store.create(topic("c"));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->reason, AclCreateRefusal::Reason::kTooManyAcls);
  EXPECT_NE(refusal->message.find("holds 2 ACLs, its limit"), std::string::npos)
      << refusal->message;
  EXPECT_EQ(store.create(topic("a")), std::nullopt);  // already there: no room needed
  EXPECT_EQ(store.size(), 2u);
}

TEST(AclStore, ChargesItsBytesAndRefusesWhatTheChargeHasNoRoomFor) {
  const std::size_t one = acl_stored_bytes(topic("a"));
  std::size_t held = 0;
  AclStore store;
  store.set_memory_charge(MemoryCharge{.take =
                                           [&held, budget = one + one / 2](std::size_t bytes) {
                                             if (held + bytes > budget) return false;
                                             held += bytes;
                                             return true;
                                           },
                                       .give_back = [&held](std::size_t bytes) { held -= bytes; }});
  ASSERT_EQ(store.create(topic("a")), std::nullopt);
  EXPECT_EQ(held, one);
  const auto refusal = store.create(topic("b"));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->reason, AclCreateRefusal::Reason::kOutOfMemory);
  EXPECT_NE(refusal->message.find("no room"), std::string::npos) << refusal->message;
  EXPECT_EQ(store.size(), 1u);  // nothing changed
  EXPECT_EQ(store.stored_bytes(), one);
  EXPECT_EQ(store.create(topic("a")), std::nullopt);  // already there: nothing charged
  EXPECT_EQ(held, one);
  (void)store.remove_matching({any_acl_filter()});
  EXPECT_EQ(held, 0u);
  EXPECT_EQ(store.create(topic("b")), std::nullopt);
}

TEST(AclStore, DefaultBoundIsTenThousand) {
  EXPECT_EQ(AclStore::kDefaultMaxAcls, 10'000u);
  EXPECT_EQ(AclStore().max_acls(), 10'000u);
}

TEST(AclStore, DescribeWithMatchFindsLiteralWildcardAndPrefixes) {
  AclStore store;
  for (const AclBinding& binding :
       {topic("orders"), topic("*"), topic("ord", AclPatternType::kPrefixed), topic("orders-eu"),
        topic("other", AclPatternType::kPrefixed)}) {
    ASSERT_EQ(store.create(binding), std::nullopt);
  }
  const std::vector<AclBinding> found = store.describe(match_topic("orders"));
  EXPECT_EQ(found, (std::vector<AclBinding>{topic("*"), topic("ord", AclPatternType::kPrefixed),
                                            topic("orders")}));
}

TEST(AclStore, DescribeWithAnyPatternComparesNamesExactly) {
  AclStore store;
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  ASSERT_EQ(store.create(topic("orders", AclPatternType::kPrefixed)), std::nullopt);
  ASSERT_EQ(store.create(topic("ord", AclPatternType::kPrefixed)), std::nullopt);
  AclBindingFilter filter;
  filter.resource_name = "orders";
  EXPECT_EQ(store.describe(filter).size(), 2u);
}

TEST(AclStore, DeleteReturnsWhatEachFilterDeleted) {
  AclStore store;
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  ASSERT_EQ(store.create(topic("ord", AclPatternType::kPrefixed)), std::nullopt);
  ASSERT_EQ(store.create(topic("payments")), std::nullopt);
  AclBindingFilter literal_orders;
  literal_orders.resource_name = "orders";
  literal_orders.pattern_type = AclPatternType::kLiteral;
  const std::vector<AclDeletion> results =
      store.remove_matching({literal_orders, match_topic("orders")});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].refusal, std::nullopt);
  EXPECT_EQ(results[0].deleted, std::vector<AclBinding>{topic("orders")});
  // The second filter saw the store before the call: it lists "orders" too.
  EXPECT_EQ(results[1].deleted,
            (std::vector<AclBinding>{topic("ord", AclPatternType::kPrefixed), topic("orders")}));
  EXPECT_EQ(store.describe(any_acl_filter()), std::vector<AclBinding>{topic("payments")});
}

TEST(AclStore, DeleteRefusesAFilterWithUnknownFieldsAndRunsTheOthers) {
  AclStore store;
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  AclBindingFilter unknown;
  unknown.operation = AclOperation::kUnknown;
  const std::vector<AclDeletion> results = store.remove_matching({unknown, any_acl_filter()});
  EXPECT_EQ(results[0].refusal, "Unknown entryFilter.");
  EXPECT_TRUE(results[0].deleted.empty());
  EXPECT_EQ(results[1].deleted.size(), 1u);
  EXPECT_EQ(store.size(), 0u);
}

TEST(AclStore, DeleteListsAtMostMaxListedBindingsInAll) {
  AclStore store;
  ASSERT_EQ(store.create(topic("a")), std::nullopt);
  ASSERT_EQ(store.create(topic("b")), std::nullopt);
  AclBindingFilter only_a;
  only_a.resource_name = "a";
  const std::vector<AclDeletion> results =
      store.remove_matching({any_acl_filter(), any_acl_filter(), only_a}, 3);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].deleted.size(), 2u);
  // The second would list 4 in all: refused, deleting nothing; the third still fits.
  EXPECT_TRUE(results[1].too_many_matches);
  EXPECT_TRUE(results[1].deleted.empty());
  EXPECT_NE(results[1].refusal->find("more than 3 ACLs"), std::string::npos);
  EXPECT_FALSE(results[2].too_many_matches);
  EXPECT_EQ(results[2].deleted, std::vector<AclBinding>{topic("a")});
  EXPECT_EQ(store.size(), 0u);
}

TEST(AclStore, DeleteByPrincipalAndPermission) {
  AclStore store;
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  const AclBinding bob_deny = acl(AclResourceType::kTopic, "orders", AclPatternType::kLiteral,
                                  "User:bob", AclPermissionType::kDeny);
  ASSERT_EQ(store.create(bob_deny), std::nullopt);
  AclBindingFilter filter;
  filter.principal = "User:bob";
  filter.permission = AclPermissionType::kDeny;
  EXPECT_EQ(store.remove_matching({filter})[0].deleted, std::vector<AclBinding>{bob_deny});
  EXPECT_EQ(store.describe(any_acl_filter()), std::vector<AclBinding>{topic("orders")});
}

TEST(AclStore, ChargesEachBindingForItsCopiedNames) {
  AclStore store;
  EXPECT_EQ(store.stored_bytes(), 0u);
  const AclBinding binding = topic("a-topic-name-longer-than-small-string-storage");
  ASSERT_EQ(store.create(binding), std::nullopt);
  EXPECT_EQ(store.stored_bytes(), acl_stored_bytes(binding));
  EXPECT_EQ(acl_stored_bytes(binding), kAclBindingOverheadBytes + 2 * binding.resource_name.size() +
                                           binding.principal.size() + binding.host.size());
}

TEST(AclStore, StoredBytesReturnToZeroAfterDeletingEverything) {
  AclStore store;
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(store.create(topic("topic-" + std::to_string(i))), std::nullopt);
    ASSERT_EQ(store.create(topic("t" + std::to_string(i), AclPatternType::kPrefixed)),
              std::nullopt);
  }
  EXPECT_GT(store.stored_bytes(), 100 * kAclBindingOverheadBytes);
  EXPECT_EQ(store.remove_matching({any_acl_filter()})[0].deleted.size(), 100u);
  EXPECT_EQ(store.stored_bytes(), 0u);
  EXPECT_EQ(store.size(), 0u);
}

std::vector<std::string> applying_names(const AclStore& store, std::string_view name) {
  std::vector<std::string> names;
  (void)store.index().visit_applying(AclResourceType::kTopic, name, [&](const AclBinding& binding) {
    names.push_back(std::string(acl_name(binding.pattern_type)) + ":" + binding.resource_name);
    return true;
  });
  return names;
}

TEST(AclResourceIndex, FindsEveryPrefixAndSkipsDivergingNames) {
  AclStore store;
  for (const char* prefix : {"f", "fa", "fb", "foo", "foob", "foobar", "foobarbaz", "gar", "fo"}) {
    ASSERT_EQ(store.create(topic(prefix, AclPatternType::kPrefixed)), std::nullopt);
  }
  ASSERT_EQ(store.create(topic("foob")), std::nullopt);  // literal: not a match for "foobar"
  ASSERT_EQ(store.create(topic("*")), std::nullopt);
  ASSERT_EQ(store.create(topic("*", AclPatternType::kPrefixed)), std::nullopt);
  EXPECT_EQ(applying_names(store, "foobar"),
            (std::vector<std::string>{"LITERAL:*", "PREFIXED:foobar", "PREFIXED:foob",
                                      "PREFIXED:foo", "PREFIXED:fo", "PREFIXED:f"}));
  // "foobarbaz" and "foobar" sort just below "foobaz" but diverge from it: the walk jumps past.
  EXPECT_EQ(applying_names(store, "foobaz"),
            (std::vector<std::string>{"LITERAL:*", "PREFIXED:foob", "PREFIXED:foo", "PREFIXED:fo",
                                      "PREFIXED:f"}));
  EXPECT_EQ(applying_names(store, "*"), (std::vector<std::string>{"LITERAL:*", "PREFIXED:*"}));
}

TEST(AclResourceIndex, KeepsResourceTypesApart) {
  AclStore store;
  ASSERT_EQ(store.create(acl(AclResourceType::kGroup, "orders", AclPatternType::kLiteral)),
            std::nullopt);
  EXPECT_TRUE(applying_names(store, "orders").empty());
}

TEST(AclResourceIndex, ForgetsDeletedBindings) {
  AclStore store;
  ASSERT_EQ(store.create(topic("ord", AclPatternType::kPrefixed)), std::nullopt);
  ASSERT_EQ(store.create(topic("orders")), std::nullopt);
  store.remove_matching({match_topic("orders")});
  EXPECT_TRUE(applying_names(store, "orders").empty());
}

}  // namespace
}  // namespace kgroups::broker
