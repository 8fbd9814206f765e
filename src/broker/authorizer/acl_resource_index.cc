// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/acl_resource_index.h"

#include <algorithm>
#include <cstddef>

namespace kgroups::broker {
namespace {

std::size_t common_prefix_length(std::string_view a, std::string_view b) {
  const auto [a_end, b_end] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<std::size_t>(a_end - a.begin());
}

std::size_t section_of(AclResourceType type) {
  return static_cast<std::size_t>(static_cast<std::uint8_t>(type));
}

}  // namespace

AclResourceIndex::BucketsByName& AclResourceIndex::buckets_for(const AclBinding& binding) {
  ResourceTypeSection& section = sections_.at(section_of(binding.resource_type));
  return binding.pattern_type == AclPatternType::kPrefixed ? section.prefixed : section.literal;
}

const AclResourceIndex::ResourceTypeSection* AclResourceIndex::section(AclResourceType type) const {
  const std::size_t code = section_of(type);
  return code < sections_.size() ? &sections_[code] : nullptr;
}

void AclResourceIndex::add(const AclBinding& binding) {
  buckets_for(binding)[binding.resource_name].push_back(&binding);
}

void AclResourceIndex::remove(const AclBinding& binding) {
  BucketsByName& buckets = buckets_for(binding);
  const auto found = buckets.find(binding.resource_name);
  if (found == buckets.end()) return;
  Bucket& bucket = found->second;
  std::erase(bucket, &binding);
  if (bucket.empty()) buckets.erase(found);
}

bool AclResourceIndex::visit_applying(AclResourceType type, std::string_view name,
                                      const AclVisitor& visit) const {
  const ResourceTypeSection* found = section(type);
  if (found == nullptr) return true;
  return visit_literal(found->literal, name, visit) && visit_prefixes(found->prefixed, name, visit);
}

namespace {

bool visit_bucket(const std::vector<const AclBinding*>& bucket,
                  const AclResourceIndex::AclVisitor& visit) {
  return std::all_of(bucket.begin(), bucket.end(),
                     [&](const AclBinding* binding) { return visit(*binding); });
}

}  // namespace

bool AclResourceIndex::visit_literal(const BucketsByName& literal, std::string_view name,
                                     const AclVisitor& visit) {
  if (const auto named = literal.find(name); named != literal.end()) {
    if (!visit_bucket(named->second, visit)) return false;
  }
  if (name == kAclWildcard) return true;  // already visited as its own name
  const auto wildcard = literal.find(kAclWildcard);
  return wildcard == literal.end() || visit_bucket(wildcard->second, visit);
}

// Steps down the sorted prefixes from `name`. The greatest key not above `bound` either is a
// prefix of the name (visit it, then look below it) or diverges from the name after `common`
// characters, and then no key between it and `bound` is a prefix longer than `common`: the next
// bound is the name's first `common` characters. The bound shortens at each step.
bool AclResourceIndex::visit_prefixes(const BucketsByName& prefixed, std::string_view name,
                                      const AclVisitor& visit) {
  std::string_view bound = name;
  while (true) {
    auto at_or_below = prefixed.upper_bound(bound);
    if (at_or_below == prefixed.begin()) return true;
    --at_or_below;
    const std::string& prefix = at_or_below->first;
    const std::size_t common = common_prefix_length(prefix, name);
    if (common < prefix.size()) {
      bound = name.substr(0, common);
      continue;
    }
    if (!visit_bucket(at_or_below->second, visit)) return false;
    if (prefix.empty()) return true;
    bound = name.substr(0, prefix.size() - 1);
  }
}

}  // namespace kgroups::broker
