// SPDX-License-Identifier: Apache-2.0
//
// run_seeded: runs a model test's seeded random sequences one after the other,
// stopping at the first mismatch and reporting its seed. KGROUPS_MODEL_SEED and
// KGROUPS_MODEL_SEQUENCES override the first seed and the count, so one failing
// sequence can be rerun alone. Call from the test's main thread.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace kgroups_model {

inline std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  // Read on the test's main thread before any other thread exists.
  const char* text = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

// run_one(seed) returns "" or a description of the sequence's first mismatch.
template <typename RunOne>
void run_seeded(std::uint64_t default_seed, std::uint64_t default_count, RunOne run_one) {
  const std::uint64_t base_seed = env_or("KGROUPS_MODEL_SEED", default_seed);
  const std::uint64_t count = env_or("KGROUPS_MODEL_SEQUENCES", default_count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = base_seed + i;
    const std::string mismatch = run_one(seed);
    if (!mismatch.empty()) {
      ADD_FAILURE() << "sequence seed " << seed << " (rerun: KGROUPS_MODEL_SEED=" << seed
                    << " KGROUPS_MODEL_SEQUENCES=1)\n"
                    << mismatch;
      return;
    }
  }
}

}  // namespace kgroups_model
