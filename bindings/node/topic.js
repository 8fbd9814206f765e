// SPDX-License-Identifier: Apache-2.0
//
// Topic: the public class of SPEC.md's JavaScript section. It forwards every
// call to the native NativeTopic (which checks and converts arguments, options
// included, and calls the C++ engine), turns poll's compact batch
// (src/record_batch.h, with the Topic's table of recent strings) into { partition, offset, key, value } objects
// (sharePoll's with deliveryCount too) and append's two result slots into [partition,
// offset]. No rules here.
'use strict';

/** @param {{ NativeTopic: Function }} addon */
function defineTopic(addon) {
  const { NativeTopic } = addon;

  const { pollStringSlots } = addon;

  // [string0, ..., refs, placements, runs, bytes, byteLengths] -> records
  // (src/record_batch.h). First the batch's new strings go to their slots of
  // the Topic's string table (placements: (slot, i) pairs). refs holds two
  // entries per record (key, value): a string table slot, -2 - i for new
  // string i, or -1 for bytes: a Buffer view of the next byteLengths entry's
  // count of bytes. runs holds (partition, first offset, count) triples in
  // record order. deliveryCounts (sharePoll's) holds each record's delivery count.
  function recordsFromBatch(batch, strings, deliveryCounts) {
    const byteLengths = batch[batch.length - 1];
    const bytes = batch[batch.length - 2];
    const runs = batch[batch.length - 3];
    const placements = batch[batch.length - 4];
    const refs = batch[batch.length - 5];
    for (let i = 0; i < placements.length; i += 2) strings[placements[i]] = batch[placements[i + 1]];
    const records = [];
    let index = 0;
    let byteOffset = 0;
    let byteEntry = 0;
    const take = (ref) => {
      if (ref >= 0) return strings[ref];
      if (ref < -1) return batch[-2 - ref];
      const size = byteLengths[byteEntry++];
      byteOffset += size;
      return Buffer.from(bytes, byteOffset - size, size);
    };
    for (let run = 0; run < runs.length; run += 3) {
      const partition = runs[run];
      const firstOffset = runs[run + 1];
      const count = runs[run + 2];
      for (let i = 0; i < count; i++, index += 2) {
        const key = take(refs[index]);
        const value = take(refs[index + 1]);
        if (deliveryCounts === undefined) {
          records.push({ partition, offset: firstOffset + i, key, value });
        } else {
          const deliveryCount = deliveryCounts[index / 2];
          records.push({ partition, offset: firstOffset + i, key, value, deliveryCount });
        }
      }
    }
    return records;
  }

  class Topic {
    #native;
    #appendResult = new Float64Array(2); // [partition, offset], written by the addon
    #strings = null; // the string table of poll batches, made at the first poll

    constructor(numPartitions, options) {
      this.#native = new NativeTopic(numPartitions, options, this.#appendResult);
    }

    append(key, value) {
      this.#native.append(key, value);
      return [this.#appendResult[0], this.#appendResult[1]];
    }

    endOffset(partition) {
      return this.#native.endOffset(partition);
    }

    join(group, consumerId) {
      this.#native.join(group, consumerId);
    }

    leave(group, consumerId) {
      this.#native.leave(group, consumerId);
    }

    assignment(group, consumerId) {
      return this.#native.assignment(group, consumerId);
    }

    poll(group, consumerId, maxRecords = 100) {
      const batch = this.#native.poll(group, consumerId, maxRecords);
      this.#strings ??= new Array(pollStringSlots).fill('');
      return recordsFromBatch(batch, this.#strings);
    }

    commit(group, consumerId, offsets) {
      this.#native.commit(group, consumerId, offsets);
    }

    committed(group, partition) {
      return this.#native.committed(group, partition);
    }

    lag(group) {
      return this.#native.lag(group);
    }

    rebalances(group) {
      return this.#native.rebalances(group);
    }

    shareJoin(group, memberId) {
      this.#native.shareJoin(group, memberId);
    }

    shareLeave(group, memberId) {
      this.#native.shareLeave(group, memberId);
    }

    shareAssignment(group, memberId) {
      return this.#native.shareAssignment(group, memberId);
    }

    sharePoll(group, memberId, maxRecords = 100) {
      const [batch, deliveryCounts] = this.#native.sharePoll(group, memberId, maxRecords);
      this.#strings ??= new Array(pollStringSlots).fill('');
      return recordsFromBatch(batch, this.#strings, deliveryCounts);
    }

    // acknowledge(group, memberId, records, type) or acknowledge(group, memberId, type).
    acknowledge(group, memberId, records, type) {
      if (arguments.length <= 3) this.#native.acknowledge(group, memberId, records);
      else this.#native.acknowledge(group, memberId, records, type);
    }

    advanceClock(ms) {
      this.#native.advanceClock(ms);
    }

    clock() {
      return this.#native.clock();
    }

    shareStartOffset(group, partition) {
      return this.#native.shareStartOffset(group, partition);
    }

    sharePartitionState(group, partition) {
      return this.#native.sharePartitionState(group, partition);
    }
  }

  return Topic;
}

module.exports = { defineTopic };
