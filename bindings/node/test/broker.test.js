// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker without a real kgroupsd: how options map to kgroupsd's flags, where the
// binary is looked for (in a packed copy and in a linked checkout, in order) and the errors
// when it is not there, and what Broker.start and stop do with a binary that fails,
// misbehaves or ignores SIGTERM (small shell scripts standing in for kgroupsd). The broker
// itself is tested in tests/clients/kafkajs/harness.test.js.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const { Broker, BrokerError, findKgroupsd, kgroupsdArgs } = require('kgroups/broker');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-broker-test-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

// An executable shell script standing in for kgroupsd.
function script(name, body) {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

// An executable stand-in for kgroupsd at root/relative, its folders made.
function binaryAt(root, relative) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return file;
}

// kgroupsd_command.js copied into <root>/<folder>, as a package there would have it, loaded
// from there (it looks for kgroupsd relative to its own folder).
function lookupIn(root, folder) {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(__dirname, '..', 'kgroupsd_command.js'), path.join(dir, 'kgroupsd_command.js'));
  return require(path.join(dir, 'kgroupsd_command.js'));
}

const NPM_BUILT = path.join('build', 'npm-kgroupsd', 'tools', 'kgroupsd', 'kgroupsd');

// Whether the process runs; a zombie (killed, not yet reaped by init) counts as dead.
function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntil(condition, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('both listeners are on loopback port 0 and nothing else is passed by default', () => {
  assert.deepEqual(kgroupsdArgs(), ['--listen', '127.0.0.1:0', '--http', '127.0.0.1:0']);
});

test('every option maps to its kgroupsd flag, extraArgs last', () => {
  assert.deepEqual(
    kgroupsdArgs({
      topics: { orders: 3, payments: 1 },
      manualClock: true,
      initialRebalanceDelayMs: 0,
      autoCreateTopics: false,
      brokers: 3,
      defaultReplicationFactor: 2,
      extraArgs: ['--verbose'],
    }).slice(4),
    ['--topic', 'orders:3', '--topic', 'payments:1', '--manual-clock', '--initial-rebalance-delay-ms', '0',
      '--no-auto-create', '--brokers', '3', '--default-replication-factor', '2', '--verbose'],
  );
  assert.deepEqual(kgroupsdArgs({ manualClock: false, autoCreateTopics: true }).slice(4), []);
});

test('bad options are rejected before anything is started', () => {
  assert.throws(() => kgroupsdArgs({ topics: { orders: 0 } }), /topics\.orders must be an integer >= 1, got 0/);
  assert.throws(() => kgroupsdArgs({ topics: { orders: 1.5 } }), RangeError);
  assert.throws(() => kgroupsdArgs({ topics: { 'a:b': 1 } }), /without ':'/);
  assert.throws(() => kgroupsdArgs({ topics: ['orders'] }), TypeError);
  assert.throws(() => kgroupsdArgs({ initialRebalanceDelayMs: -1 }), /initialRebalanceDelayMs/);
  assert.throws(() => kgroupsdArgs({ extraArgs: '--verbose' }), /extraArgs must be an array of strings/);
  assert.throws(() => kgroupsdArgs({ brokers: 0 }), /brokers must be an integer >= 1, got 0/);
  assert.throws(() => kgroupsdArgs({ defaultReplicationFactor: '3' }), /defaultReplicationFactor must be an integer >= 1/);
});

test('the kgroupsd option comes first, then $KGROUPSD, then PATH', () => {
  const fromOption = script('option-kgroupsd', 'exit 0');
  const fromEnv = script('env-kgroupsd', 'exit 0');
  const pathDir = fs.mkdtempSync(path.join(scratch, 'path-'));
  const fromPath = path.join(pathDir, 'kgroupsd');
  fs.copyFileSync(fromOption, fromPath);
  fs.chmodSync(fromPath, 0o755);
  assert.equal(findKgroupsd({ kgroupsd: fromOption }, { KGROUPSD: fromEnv, PATH: pathDir }), fromOption);
  assert.equal(findKgroupsd({}, { KGROUPSD: fromEnv, PATH: pathDir }), fromEnv);
});

test('a packed copy: option, $KGROUPSD, then the kgroupsd npm install built in engine/, then PATH', () => {
  const root = fs.mkdtempSync(path.join(scratch, 'copy-'));
  const { findKgroupsd: lookUp, npmKgroupsdBuild } = lookupIn(root, path.join('node_modules', 'kgroups'));
  const engine = path.join(root, 'node_modules', 'kgroups', 'engine');
  const built = path.join(engine, NPM_BUILT);
  assert.deepEqual(npmKgroupsdBuild(),
    { sourceDir: engine, buildDir: path.join(engine, 'build', 'npm-kgroupsd'), binary: built });
  const fromOption = script('copy-option-kgroupsd', 'exit 0');
  const fromEnv = script('copy-env-kgroupsd', 'exit 0');
  const pathDir = path.dirname(binaryAt(root, path.join('bin', 'kgroupsd')));
  assert.equal(lookUp({}, { PATH: pathDir }), path.join(pathDir, 'kgroupsd'));
  binaryAt(engine, NPM_BUILT);
  assert.equal(lookUp({}, { PATH: pathDir }), built);
  assert.equal(lookUp({}, { KGROUPSD: fromEnv, PATH: pathDir }), fromEnv);
  assert.equal(lookUp({ kgroupsd: fromOption }, { KGROUPSD: fromEnv, PATH: pathDir }), fromOption);
});

test('a linked checkout: the kgroupsd npm install built in the checkout, then its other build dirs, then PATH', () => {
  const checkout = fs.mkdtempSync(path.join(scratch, 'checkout-'));
  fs.mkdirSync(path.join(checkout, 'tools', 'kgroupsd'), { recursive: true });
  const { findKgroupsd: lookUp, npmKgroupsdBuild } = lookupIn(checkout, path.join('bindings', 'node'));
  assert.equal(npmKgroupsdBuild().sourceDir, checkout);
  const fromEnv = script('checkout-env-kgroupsd', 'exit 0');
  const pathDir = path.dirname(binaryAt(checkout, path.join('bin', 'kgroupsd')));
  const inOrder = [NPM_BUILT, ...['broker', 'install', 'release', 'dev'].map((dir) =>
    path.join('build', dir, 'tools', 'kgroupsd', 'kgroupsd'))].map((file) => binaryAt(checkout, file));
  assert.equal(lookUp({}, { KGROUPSD: fromEnv, PATH: pathDir }), fromEnv);
  for (const file of inOrder) {
    assert.equal(lookUp({}, { PATH: pathDir }), file);
    fs.rmSync(file);
  }
  assert.equal(lookUp({}, { PATH: pathDir }), path.join(pathDir, 'kgroupsd'));
  assert.throws(() => lookUp({}, { PATH: '' }), (error) => {
    for (const file of inOrder) assert.ok(error.message.includes(file), error.message);
    assert.ok(error.message.includes(`${inOrder[0]} (built by npm install)`), error.message);
    return true;
  });
});

test('a kgroupsd option or $KGROUPSD naming no executable file is an error naming it', () => {
  assert.throws(() => findKgroupsd({ kgroupsd: path.join(scratch, 'missing') }, {}),
    /the kgroupsd option names .*missing, which is not an executable file/);
  const notExecutable = path.join(scratch, 'not-executable');
  fs.writeFileSync(notExecutable, '', { mode: 0o644 });
  assert.throws(() => findKgroupsd({}, { KGROUPSD: notExecutable }), /\$KGROUPSD names .*not-executable/);
});

test('with no kgroupsd anywhere, the error lists every place it looked', () => {
  // A copy of the lookup outside any checkout, as in a package installed from the tarball
  // whose kgroupsd build is gone.
  const packageCopy = fs.mkdtempSync(path.join(scratch, 'package-'));
  const { findKgroupsd: lookUp } = lookupIn(packageCopy, '.');
  const emptyDir = fs.mkdtempSync(path.join(scratch, 'empty-'));
  assert.throws(() => lookUp({}, { PATH: emptyDir }), (error) => {
    assert.match(error.message, /cannot find the kgroupsd binary/);
    assert.match(error.message, /the kgroupsd option \(not given\)/);
    assert.match(error.message, /\$KGROUPSD \(not set\)/);
    assert.ok(error.message.includes(`${path.join(packageCopy, 'engine', NPM_BUILT)} (built by npm install)`),
      error.message);
    assert.match(error.message, /is not a checkout's bindings\/node/);
    assert.ok(error.message.includes(`PATH (${emptyDir})`), error.message);
    assert.match(error.message, /npm rebuild kgroups/);
    assert.match(error.message, /set KGROUPSD=<path>/);
    return true;
  });
  // In this checkout, npm install's build dir and the others are looked at by name.
  try {
    const found = findKgroupsd({}, { PATH: emptyDir });
    assert.match(found, /\/build\/(npm-kgroupsd|broker|install|release|dev)\/tools\/kgroupsd\/kgroupsd$/);
  } catch (error) {
    assert.match(error.message,
      /build\/npm-kgroupsd\/tools\/kgroupsd\/kgroupsd[\s\S]*build\/broker\/tools\/kgroupsd\/kgroupsd[\s\S]*build\/dev\/tools\/kgroupsd\/kgroupsd/);
  }
});

test('Broker.start rejects with the clear error when the binary is missing', async () => {
  await assert.rejects(Broker.start({ kgroupsd: path.join(scratch, 'no-such-kgroupsd') }),
    /not an executable file/);
});

test('a kgroupsd that exits at once: the error carries its stderr and the command', async () => {
  const failing = script('failing-kgroupsd', 'echo "kgroupsd: --http: address already in use" >&2; exit 3');
  await assert.rejects(Broker.start({ kgroupsd: failing, topics: { orders: 2 } }), (error) => {
    assert.match(error.message, /exited \(3\) before it was ready/);
    assert.match(error.message, /--http: address already in use/);
    assert.match(error.message, /--topic orders:2/);
    return true;
  });
});

test('a ready line without the HTTP address is refused, and the child is killed', async () => {
  const pidFile = path.join(scratch, 'old.pid');
  const old = script('old-kgroupsd', `echo $$ > ${pidFile}; echo "kgroupsd listening on 127.0.0.1:9092"; exec sleep 30`);
  await assert.rejects(Broker.start({ kgroupsd: old }), /unexpected ready line .*kgroupsd listening on 127\.0\.0\.1:9092$/m);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  await waitUntil(() => !isAlive(pid), 5000, 'the child is killed');
});

test('a kgroupsd that never gets ready: the wait is bounded', async () => {
  const silent = script('silent-kgroupsd', 'echo "starting" >&2; exec sleep 30');
  const started = Date.now();
  await assert.rejects(Broker.start({ kgroupsd: silent, startTimeoutMs: 300 }),
    /did not print its ready line within 300 ms[\s\S]*starting/);
  assert.ok(Date.now() - started < 5000);
});

// A stand-in that prints the ready line (with ports nothing listens on) and ignores SIGTERM.
function stubborn() {
  return script('stubborn-kgroupsd', [
    "trap '' TERM",
    'echo "kgroupsd listening on 127.0.0.1:1, http on 127.0.0.1:1"',
    'while :; do sleep 1; done',
  ].join('\n'));
}

test('the ready line gives the addresses; stop() kills a child that ignores SIGTERM', async () => {
  const broker = await Broker.start({ kgroupsd: stubborn() });
  assert.equal(broker.bootstrapServers, '127.0.0.1:1');
  assert.deepEqual(broker.brokers, ['127.0.0.1:1']);
  assert.equal(broker.httpUrl, 'http://127.0.0.1:1');
  const started = Date.now();
  assert.equal(await broker.stop({ timeoutMs: 200 }), 'SIGKILL');
  assert.ok(Date.now() - started < 3000);
  assert.equal(isAlive(broker.pid), false);
  assert.equal(await broker.stop(), 'SIGKILL', 'a second stop() answers the same');
});

test('with several brokers the ready line lists them all: bootstrapServers is the whole list', async () => {
  const cluster = script('cluster-kgroupsd',
    'echo "kgroupsd listening on 127.0.0.1:11,127.0.0.1:12,127.0.0.1:13, http on 127.0.0.1:14"; exec sleep 30');
  const broker = await Broker.start({ kgroupsd: cluster });
  try {
    assert.equal(broker.bootstrapServers, '127.0.0.1:11,127.0.0.1:12,127.0.0.1:13');
    assert.deepEqual(broker.brokers, ['127.0.0.1:11', '127.0.0.1:12', '127.0.0.1:13']);
    assert.equal(broker.host, '127.0.0.1');
    assert.equal(broker.port, 11);
    assert.equal(broker.httpUrl, 'http://127.0.0.1:14');
    await assert.rejects(broker.stopBroker('1'), /stopBroker: the broker id must be a node id \(an integer >= 0\), got 1/);
    await assert.rejects(broker.delayReplication(1, -5), /delayReplication: ms must be an integer >= 0, got -5/);
  } finally {
    await broker.stop();
  }
});

test('a ready line with a malformed broker address is refused', async () => {
  const bad = script('bad-cluster-kgroupsd', 'echo "kgroupsd listening on 127.0.0.1:11,nowhere, http on 127.0.0.1:14"; exec sleep 30');
  await assert.rejects(Broker.start({ kgroupsd: bad }), /unexpected ready line .*one HOST:PORT per broker/);
});

test('Symbol.asyncDispose stops it (what `await using` calls)', async () => {
  const sleeper = script('sleeping-kgroupsd', 'echo "kgroupsd listening on 127.0.0.1:1, http on 127.0.0.1:1"; exec sleep 30');
  const broker = await Broker.start({ kgroupsd: sleeper });
  assert.equal(typeof Symbol.asyncDispose, 'symbol', 'Node 20 has Symbol.asyncDispose');
  await broker[Symbol.asyncDispose]();
  assert.equal(isAlive(broker.pid), false);
  assert.equal(await broker.stop(), 'SIGTERM');
});

test('an HTTP API that cannot be reached rejects with an Error naming the request', async () => {
  const broker = await Broker.start({ kgroupsd: stubborn() });
  try {
    await assert.rejects(broker.groups(), (error) => {
      assert.ok(!(error instanceof BrokerError));
      assert.match(error.message, /^GET \/v1\/groups: .*ECONNREFUSED/);
      return true;
    });
    await assert.rejects(broker.inject({ api: 'Produce', latency_ms: 5 }), /unknown field latency_ms/);
  } finally {
    await broker.stop({ timeoutMs: 100 });
  }
});

test('waitFor resolves to the first truthy value, and times out naming the last failure', async () => {
  const broker = await Broker.start({ kgroupsd: stubborn() });
  try {
    let calls = 0;
    assert.equal(await broker.waitFor(() => (++calls >= 3 ? 'done' : 0), { intervalMs: 1 }), 'done');
    await assert.rejects(broker.waitFor(() => { throw new Error('not yet'); }, { timeoutMs: 100, message: 'the thing' }),
      /the thing did not hold within 100 ms; last time it threw Error: not yet/);
  } finally {
    await broker.stop({ timeoutMs: 100 });
  }
});

for (const [how, code] of [
  ['ends normally without stopping it', 'await new Promise((r) => setTimeout(r, 50));'],
  ['calls process.exit', 'process.exit(0);'],
  ['is sent SIGTERM', "process.kill(process.pid, 'SIGTERM'); await new Promise((r) => setTimeout(r, 5000));"],
]) {
  test(`kgroupsd is killed when the test process ${how}`, async () => {
    const pidFile = path.join(scratch, `orphan-${how.replace(/\W+/g, '-')}.pid`);
    const orphan = script(`orphan-${how.replace(/\W+/g, '-')}`, [
      `echo $$ > ${pidFile}`,
      'echo "kgroupsd listening on 127.0.0.1:1, http on 127.0.0.1:1"',
      'exec sleep 30',
    ].join('\n'));
    const program = `
      const { Broker } = require(${JSON.stringify(path.join(__dirname, '..', 'broker.js'))});
      (async () => { await Broker.start({ kgroupsd: ${JSON.stringify(orphan)} }); ${code} })();`;
    await promisify(execFile)(process.execPath, ['-e', program], { timeout: 10000 }).catch((error) => {
      if (error.signal !== 'SIGTERM' || error.killed) throw error;
    });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitUntil(() => !isAlive(pid), 5000, 'kgroupsd is gone');
  });
}
