// SPDX-License-Identifier: Apache-2.0
//
// Helpers of the node-rdkafka suite: a producer, members in child processes (member.js),
// bounded waits, and whether kgroupsd serves what librdkafka's consumer protocol needs.
'use strict';

const { execFileSync, spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const Kafka = require('node-rdkafka');
const { binary } = require('./kgroupsd');

const TIMEOUT_MS = 30000;

async function until(condition, what, { timeoutMs = TIMEOUT_MS, log = () => '' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Produces messages ({ partition, key, value }) and resolves once each has its delivery
// report, to an array of { partition, offset, key, value } in the order given.
function produce(bootstrap, topic, messages, config = {}) {
  return new Promise((resolve, reject) => {
    const producer = new Kafka.Producer({
      'bootstrap.servers': bootstrap, dr_cb: true, 'linger.ms': 5, 'socket.timeout.ms': 10000, ...config,
    });
    const reports = new Array(messages.length);
    let pending = messages.length;
    const timer = setTimeout(() => {
      producer.disconnect();
      reject(new Error(`${pending} of ${messages.length} messages had no delivery report in ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    producer.setPollInterval(10);
    producer.on('delivery-report', (error, report) => {
      if (error) {
        clearTimeout(timer);
        producer.disconnect();
        reject(new Error(`delivery failed: ${error}`));
        return;
      }
      reports[report.opaque] = {
        partition: report.partition, offset: report.offset,
        key: messages[report.opaque].key, value: messages[report.opaque].value,
      };
      pending -= 1;
      if (pending === 0) {
        clearTimeout(timer);
        producer.disconnect(() => resolve(reports));
      }
    });
    producer.on('ready', () => {
      try {
        messages.forEach(({ partition, key, value }, i) => {
          producer.produce(topic, partition, Buffer.from(value), key, Date.now(), i);
        });
      } catch (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
    producer.connect({ timeout: 10000 }, (error) => {
      if (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

// Members still running when the test process exits are killed.
const running = new Set();
process.on('exit', () => { for (const child of running) child.kill('SIGKILL'); });

// Starts member.js; returns { events, rows, partitions, assignments, send, close, kill,
// exited, stderr }. `partitions` is the member's whole assignment after its latest rebalance;
// `assignments` every one of them.
function startMember(bootstrap, groupId, topic, config = {}) {
  const child = spawn(process.execPath, [path.join(__dirname, 'member.js'),
    JSON.stringify({ bootstrap, groupId, topic, config })], { stdio: ['pipe', 'pipe', 'pipe'] });
  const member = {
    child, events: [], rows: [], partitions: [], assignments: [], stderr: '', errors: [],
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal))),
    send: (command) => child.stdin.write(`${JSON.stringify(command)}\n`),
    kill: (signal = 'SIGKILL') => child.kill(signal),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      member.send({ cmd: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await member.exited;
      clearTimeout(timer);
    },
    rebalances: () => member.events.filter((event) => event.ev === 'rebalance'),
    has: (ev) => member.events.some((event) => event.ev === ev),
  };
  child.stderr.on('data', (chunk) => { member.stderr += chunk; });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line);
    member.events.push(event);
    if (event.ev === 'message') member.rows.push(event);
    if (event.ev === 'assignment') {
      member.partitions = event.partitions;
      member.assignments.push(event.partitions);
    }
    if (event.ev === 'error') member.errors.push(event.message);
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return member;
}

module.exports = { TIMEOUT_MS, until, sleep, produce, startMember };
