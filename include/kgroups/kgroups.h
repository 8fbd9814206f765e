// SPDX-License-Identifier: Apache-2.0
//
// The whole public API of kgroups in one include.
#pragma once

#include "kgroups/errors.h"         // IWYU pragma: export
#include "kgroups/partitioner.h"    // IWYU pragma: export
#include "kgroups/rebalance.h"      // IWYU pragma: export
#include "kgroups/record.h"         // IWYU pragma: export
#include "kgroups/share_record.h"   // IWYU pragma: export
#include "kgroups/topic.h"          // IWYU pragma: export
#include "kgroups/topic_options.h"  // IWYU pragma: export
