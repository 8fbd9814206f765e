// SPDX-License-Identifier: Apache-2.0
//
// NotAssignedError: thrown by Topic#commit with offsets when a named partition
// is not assigned to the committing consumer right now (SPEC.md, "Commit").
// Defined here in JS and handed to the addon at load (index.js), so that
// `err instanceof NotAssignedError` holds for the errors the addon throws.
'use strict';

class NotAssignedError extends Error {
  /**
   * @param {string} message what was wrong, from the engine
   * @param {number} [partition] the first named partition not assigned to the consumer
   */
  constructor(message, partition) {
    super(message);
    this.name = 'NotAssignedError';
    if (partition !== undefined) this.partition = partition;
  }
}

module.exports = { NotAssignedError };
