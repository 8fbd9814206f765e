// SPDX-License-Identifier: Apache-2.0
//
// The package's own error classes, defined here in JS and handed to the addon
// at load (index.js), so that `err instanceof NotAssignedError` holds for the
// errors the addon throws:
// - NotAssignedError: thrown by Topic#commit with offsets when a named
//   partition is not assigned to the committing consumer right now (SPEC.md,
//   "Commit").
// - NoOffsetError: thrown by Topic#poll under autoOffsetReset "none" when the
//   group has no committed offset for some of the consumer's partitions
//   (SPEC.md, "auto_offset_reset").
// - NotAcquiredError: thrown by Topic#acknowledge when a named record is not
//   held by the member right now (SPEC.md, "Share groups", SG7).
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

class NoOffsetError extends Error {
  /**
   * @param {string} message what was wrong, from the engine
   * @param {number[]} [partitions] the consumer's partitions with neither a
   *   position nor a committed offset, ascending
   */
  constructor(message, partitions = []) {
    super(message);
    this.name = 'NoOffsetError';
    this.partitions = partitions;
  }
}

class NotAcquiredError extends Error {
  /**
   * @param {string} message what was wrong, from the engine
   * @param {number} [partition] the partition of the first named record the member does not hold
   * @param {number} [offset] its offset
   */
  constructor(message, partition, offset) {
    super(message);
    this.name = 'NotAcquiredError';
    if (partition !== undefined) this.partition = partition;
    if (offset !== undefined) this.offset = offset;
  }
}

module.exports = { NotAssignedError, NoOffsetError, NotAcquiredError };
