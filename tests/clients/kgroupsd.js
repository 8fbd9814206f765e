// SPDX-License-Identifier: Apache-2.0
//
// Starts kgroupsd on a free loopback port for a Node test ($KGROUPSD, or build/broker's
// binary) with extra flags, resolves once it prints its ready line (bounded), and stops it
// with SIGTERM. Shared by the kafkajs and node-rdkafka suites. A kgroupsd still running when
// the test process exits is killed, so a failed test leaves no broker behind.
//
// With --brokers N the ready line's Kafka part is every broker's address, comma-separated:
// `bootstrap` is that list (a bootstrap.servers), `brokers` the same as an array (kafkajs).
// With --listeners (instead of --listen) the line names the first listener's addresses, then
// each other listener's (", SASL_SSL on HOST:PORT") before ", http on": `listeners` has them
// all by protocol, `bootstrap` is the first listener's.
// KGROUPS_TEST_BROKERS=N (N > 1; scripts/test-clients sets it for its second run of the basic
// suites) makes every kgroupsd a test starts N brokers whose topics have N replicas
// (--brokers N --default-replication-factor N), unless the test chose --brokers itself.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const READY_PREFIX = 'kgroupsd listening on ';
const TEST_BROKERS = Number(process.env.KGROUPS_TEST_BROKERS || '1');

// The flags KGROUPS_TEST_BROKERS adds to a test's kgroupsd arguments (none with 1).
function clusterArgs(args) {
  if (TEST_BROKERS <= 1 || args.includes('--brokers')) return [];
  return ['--brokers', String(TEST_BROKERS), '--default-replication-factor', String(TEST_BROKERS)];
}

function binary() {
  const file = process.env.KGROUPSD || path.join(ROOT, 'build/broker/tools/kgroupsd/kgroupsd');
  if (!fs.existsSync(file)) {
    throw new Error(`kgroupsd binary not found at ${file}: run scripts/test-clients, or set KGROUPSD`);
  }
  return file;
}

// The protocol of the first listener --listeners names in `args` (PLAINTEXT without).
function firstListenerProtocol(args) {
  const at = args.indexOf('--listeners');
  return at < 0 ? 'PLAINTEXT' : args[at + 1].split(/[;,]/)[0].split('://')[0];
}

// { listeners: {PROTOCOL: "HOST:PORT,..."}, http } from the ready line after its prefix.
function parseReadyLine(rest, firstProtocol) {
  const [first, ...others] = rest.split(', ');
  const listeners = { [firstProtocol]: first };
  let http = null;
  for (const other of others) {
    const at = other.indexOf(' on ');
    if (at < 0) throw new Error(`unexpected ready line part: ${other}`);
    const name = other.slice(0, at);
    if (name === 'http') http = other.slice(at + 4);
    else listeners[name] = other.slice(at + 4);
  }
  return { listeners, http };
}

// Resolves to { bootstrap, brokers, listeners, http (the --http address, or null), log(),
// stop() -> exit code }.
function startKgroupsd(args = [], timeoutMs = 10000) {
  const listen = args.includes('--listeners') ? [] : ['--listen', '127.0.0.1:0'];
  const child = spawn(binary(), [...listen, ...clusterArgs(args), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.on('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kgroupsd did not become ready in ${timeoutMs} ms; log:\n${stderr}`));
    }, timeoutMs);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`kgroupsd exited before it was ready; log:\n${stderr}`));
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const line = stdout.slice(0, newline);
      if (!line.startsWith(READY_PREFIX)) {
        reject(new Error(`unexpected ready line: ${line}`));
        return;
      }
      // With --http the line goes on: "..., http on HOST:HTTPPORT".
      let parsed;
      try {
        parsed = parseReadyLine(line.slice(READY_PREFIX.length), firstListenerProtocol(args));
      } catch (error) {
        reject(new Error(`unexpected ready line: ${line}`));
        return;
      }
      const bootstrap = Object.values(parsed.listeners)[0];
      resolve({
        bootstrap,
        brokers: bootstrap.split(','),
        listeners: parsed.listeners,
        http: parsed.http,
        log: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

module.exports = { TEST_BROKERS, binary, startKgroupsd };
