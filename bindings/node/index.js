// SPDX-License-Identifier: Apache-2.0
//
// kgroups: Kafka's consumer-group model on a C++ engine (SPEC.md). CommonJS
// entry point; index.mjs re-exports it for ESM. Exports Topic, partitionFor,
// NotAssignedError, NoOffsetError and NotAcquiredError.
'use strict';

const { NotAssignedError, NoOffsetError, NotAcquiredError } = require('./errors.js');
const { loadAddon } = require('./load_addon.js');
const { defineTopic } = require('./topic.js');

const addon = loadAddon();
addon.setErrorClasses({ NotAssignedError, NoOffsetError, NotAcquiredError });

const Topic = defineTopic(addon);

/**
 * The partition a key lands on under the partitioner ("fnv1a", the default:
 * 32-bit FNV-1a over its bytes; "murmur2": Kafka's default partitioner),
 * modulo numPartitions.
 * @param {string | Uint8Array} key
 * @param {number} numPartitions
 * @param {"fnv1a" | "murmur2"} [partitioner]
 * @returns {number}
 */
function partitionFor(key, numPartitions, partitioner) {
  return addon.partitionFor(key, numPartitions, partitioner);
}

module.exports = { Topic, partitionFor, NotAssignedError, NoOffsetError, NotAcquiredError };
