// SPDX-License-Identifier: Apache-2.0
//
// The control of upward_include_probe.cc: a unit linking the node layer includes a header of
// the storage layer below it, and compiles.
#include "broker/storage/cluster.h"
