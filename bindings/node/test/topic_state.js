// SPDX-License-Identifier: Apache-2.0
//
// snapshot(topic, groups, consumers): everything a Topic lets one observe
// without changing it (end offsets, assignments, committed offsets), to check
// that a failing call left the topic exactly as it was.
'use strict';

function snapshot(topic, numPartitions, groups, consumers) {
  const partitions = Array.from({ length: numPartitions }, (_, partition) => partition);
  return {
    endOffsets: partitions.map((partition) => topic.endOffset(partition)),
    groups: groups.map((group) => ({
      committed: partitions.map((partition) => topic.committed(group, partition)),
      assignments: consumers.map((consumer) => topic.assignment(group, consumer)),
    })),
  };
}

module.exports = { snapshot };
