// SPDX-License-Identifier: Apache-2.0
//
// A storage-layer unit that includes the node layer above it. The build must refuse it:
// kgroups_broker_storage's include roots hold no broker/node (cmake/kgroups_include_root.cmake).
// Compiled only by the ctest Layering.UpwardIncludeFailsToCompile, never by the build.
#include "broker/node/broker.h"
