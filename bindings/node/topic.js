// SPDX-License-Identifier: Apache-2.0
//
// Topic: the public class of SPEC.md's JavaScript section. It forwards every
// call to the native NativeTopic (which checks and converts arguments, options
// included, and calls the C++ engine), turns poll's compact batch
// (src/record_batch.h: a reused scratch, with the Topic's table of recent
// strings) into { partition, offset, key, value } objects
// (sharePoll's with deliveryCount too) and append's two result slots into [partition,
// offset]. No rules here.
'use strict';

/** @param {{ NativeTopic: Function }} addon */
function defineTopic(addon) {
  const { NativeTopic } = addon;

  const { pollStringSlots } = addon;

  // The Topic's poll scratch (src/record_batch.h) as 32-bit integers and as
  // 64-bit floats over the same ArrayBuffer, and its string table.
  function newPollState() {
    const strings = Array.from({ length: pollStringSlots }, () => ''); // packed: no hole checks
    return { i32: new Int32Array(0), f64: new Float64Array(0), strings };
  }

  // poll's result (undefined or [scratch, bytes, string, ...]) and the scratch
  // -> records (src/record_batch.h). First the batch's new strings go to their
  // slots of the Topic's string table (placements: (slot, i) pairs). refs holds
  // two entries per record (key, value): a string table slot, -i for the string
  // at extras[i], or -1 for bytes: a Buffer view of the next byte entry's count
  // of bytes. runs holds (partition, first offset, count) triples in record
  // order. deliveryCounts (sharePoll's) holds each record's delivery count.
  function recordsFromBatch(extras, state, deliveryCounts) {
    let bytes;
    if (extras !== undefined) {
      if (extras[0] !== undefined) {
        state.i32 = new Int32Array(extras[0]);
        state.f64 = new Float64Array(extras[0]);
      }
      bytes = extras[1];
    }
    const { i32, f64, strings } = state;
    const count = i32[0];
    const runEnd = 2 + 3 * i32[1];
    const refBase = 4 + 10 * count;
    const placementEnd = refBase + 2 * count + 2 * i32[2];
    for (let i = refBase + 2 * count; i < placementEnd; i += 2) strings[i32[i]] = extras[i32[i + 1]];
    const records = new Array(count);
    let index = refBase;
    let byteOffset = 0;
    let byteEntry = 2 + 3 * count;
    const take = (ref) => {
      if (ref >= 0) return strings[ref];
      if (ref < -1) return extras[-ref];
      const size = f64[byteEntry++];
      byteOffset += size;
      return Buffer.from(bytes, byteOffset - size, size);
    };
    for (let run = 2; run < runEnd; run += 3) {
      const partition = f64[run];
      const firstOffset = f64[run + 1];
      const runCount = f64[run + 2];
      for (let i = 0; i < runCount; i++, index += 2) {
        const keyRef = i32[index];
        const valueRef = i32[index + 1];
        const key = keyRef >= 0 ? strings[keyRef] : take(keyRef);
        const value = valueRef >= 0 ? strings[valueRef] : take(valueRef);
        const n = (index - refBase) >> 1;
        if (deliveryCounts === undefined) {
          records[n] = { partition, offset: firstOffset + i, key, value };
        } else {
          records[n] = { partition, offset: firstOffset + i, key, value, deliveryCount: deliveryCounts[n] };
        }
      }
    }
    return records;
  }

  class Topic {
    #native;
    #appendResult = new Float64Array(2); // [partition, offset], written by the addon
    #pollState = null; // poll's scratch views and string table, made at the first poll

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
      const extras = this.#native.poll(group, consumerId, maxRecords);
      this.#pollState ??= newPollState();
      return recordsFromBatch(extras, this.#pollState);
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
      const [extras, deliveryCounts] = this.#native.sharePoll(group, memberId, maxRecords);
      this.#pollState ??= newPollState();
      return recordsFromBatch(extras, this.#pollState, deliveryCounts);
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

    // Frees the engine now (index.d.ts); later calls throw the addon's "Topic is closed".
    close() {
      this.#native.close();
      this.#pollState = null;
    }
  }
  if (typeof Symbol.dispose === 'symbol') {
    Topic.prototype[Symbol.dispose] = Topic.prototype.close;
  }

  return Topic;
}

module.exports = { defineTopic };
