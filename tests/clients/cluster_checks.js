// SPDX-License-Identifier: Apache-2.0
//
// Helpers for Node tests of a kgroupsd cluster (--brokers N), as tests/clients/cluster_checks.py
// for Python: the control endpoint's broker faults (stop, start, isolate, replication delay),
// each partition's leader and ISR as /v1/topics shows them, the events kept (/v1/events/log),
// and the check every leader-bounce test ends with.
'use strict';

const assert = require('node:assert/strict');

const BOUNCE_MS = Number(process.env.KGROUPS_BOUNCE_SECONDS || '20') * 1000;

// The flags of a three-broker kgroupsd for the failover tests.
const CLUSTER_FLAGS = ['--brokers', '3', '--http', '127.0.0.1:0', '--replica-lag-time-max-ms', '500'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Calls the broker's control endpoint; resolves to { status, body (parsed JSON) }.
async function http(broker, method, path, body) {
  const response = await fetch(`http://${broker.http}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function brokerAction(broker, node, action, body) {
  const { status, body: answer } = await http(broker, 'POST', `/v1/brokers/${node}/${action}`, body ?? {});
  assert.equal(status, 200, `${action} of broker ${node}: ${JSON.stringify(answer)}`);
  return answer;
}

async function partitions(broker, topic) {
  const { status, body } = await http(broker, 'GET', `/v1/topics/${topic}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.partitions;
}

async function events(broker, type) {
  const { status, body } = await http(broker, 'GET', '/v1/events/log');
  assert.equal(status, 200, JSON.stringify(body));
  return body.filter((event) => event.type === type);
}

// Stops the leader of the topic's partitions in turn (partition 0, 1, 2, ...), starts it
// again 300 ms later, and does so every second until stop() is called; stop() resolves to
// the brokers stopped, in order.
function bounceLeaders(broker, topic, partitionCount) {
  const bounced = [];
  let stopped = false;
  let wake = () => {};
  const loop = (async () => {
    while (!stopped) {
      const leader = (await partitions(broker, topic))[bounced.length % partitionCount].leader;
      if (leader >= 0) {
        await brokerAction(broker, leader, 'stop');
        bounced.push(leader);
        await sleep(300);
        await brokerAction(broker, leader, 'start');
      }
      // The fault schedule: one bounce a second (cut short by stop()).
      await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 700); });
    }
  })();
  return {
    bounced,
    stop: async () => {
      stopped = true;
      wake();
      await loop;
      return bounced;
    },
  };
}

// The end of every leader-bounce test: `stored` is {partition: [{offset, value}]} as read back
// below the high watermark, `acknowledged` [{partition, offset, sequence}] as the producer's
// acknowledgments gave them, values being the sequence numbers sent in increasing order.
// Every partition holds each value at most once and in the order sent; every acknowledged
// record is at the offset it was acknowledged at; every election was clean and lost nothing.
async function checkBounced(broker, stored, acknowledged) {
  const where = new Map();
  for (const [partition, records] of Object.entries(stored)) {
    const values = records.map((record) => Number(record.value));
    assert.equal(new Set(values).size, values.length, `partition ${partition} holds a record twice`);
    for (let i = 1; i < values.length; i += 1) {
      assert.ok(values[i - 1] < values[i], `partition ${partition} is out of the order sent at offset ${records[i].offset}`);
    }
    for (const record of records) where.set(`${partition}:${record.offset}`, Number(record.value));
  }
  for (const { partition, offset, sequence } of acknowledged) {
    assert.equal(where.get(`${partition}:${offset}`), sequence,
      `acknowledged record ${sequence} is not at ${partition}/${offset}`);
  }
  const elections = await events(broker, 'leader_elected');
  assert.ok(elections.length > 0, 'no leader was elected');
  assert.deepEqual(elections.filter((event) => event.unclean || event.lost_records !== 0), [],
    'an election was unclean or lost records');
}

module.exports = { BOUNCE_MS, CLUSTER_FLAGS, sleep, http, brokerAction, partitions, events, bounceLeaders, checkBounced };
