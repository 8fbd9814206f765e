// SPDX-License-Identifier: Apache-2.0
//
// random(seed): mulberry32, a small deterministic PRNG returning numbers in
// [0, 1), so randomized tests replay exactly from their seed.
'use strict';

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { random };
