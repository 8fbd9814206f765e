// SPDX-License-Identifier: Apache-2.0
//
// appendTo(topic, numPartitions, partition, count): appends `count` records
// whose FNV-1a keys (k0, k1, ...) land on `partition` of an n-partition topic.
'use strict';

const { partitionFor } = require('kgroups');

function appendTo(topic, numPartitions, partition, count) {
  let appended = 0;
  for (let i = 0; appended < count; i++) {
    if (partitionFor(`k${i}`, numPartitions) === partition) {
      topic.append(`k${i}`, `v${i}`);
      appended += 1;
    }
  }
}

module.exports = { appendTo };
