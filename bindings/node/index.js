// SPDX-License-Identifier: Apache-2.0
//
// kgroups: Kafka's consumer-group model on a C++ engine (SPEC.md). CommonJS
// entry point; index.mjs re-exports it for ESM. Exports Topic, partitionFor and
// NotAssignedError.
'use strict';

const { NotAssignedError } = require('./errors.js');
const { loadAddon } = require('./load_addon.js');
const { defineTopic } = require('./topic.js');

const addon = loadAddon();
addon.setErrorClasses({ NotAssignedError });

const Topic = defineTopic(addon);

/**
 * The partition a key lands on: 32-bit FNV-1a over its bytes, modulo numPartitions.
 * @param {string | Uint8Array} key
 * @param {number} numPartitions
 * @returns {number}
 */
function partitionFor(key, numPartitions) {
  return addon.partitionFor(key, numPartitions);
}

module.exports = { Topic, partitionFor, NotAssignedError };
