// SPDX-License-Identifier: Apache-2.0
//
// Runs README.md's JavaScript examples (ES modules) against a fresh kgroupsd: the consumer
// group (then checks what it printed and that group "billing" committed every message), and
// the node:test file whose hooks create a topic with configs before its test and delete the
// topic and the group after (then checks that its test passed and both are gone), and the
// node:test file that starts its own broker with kgroups/broker, injects a fault and asserts
// on a group (in a scratch project that links kafkajs and kgroups).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

const README = path.resolve(__dirname, '..', '..', '..', 'README.md');
const SECTION = '## Kafka clients against kgroupsd';
const ADMIN_SECTION = '## Test set-up and tear-down with an admin client';

function readmeExample(language, heading = SECTION) {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `README.md has no '${heading}' section`);
  const end = text.indexOf('\n## ', start + heading.length);
  const section = text.slice(start, end < 0 ? undefined : end);
  const match = section.match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'));
  assert.ok(match, `the section '${heading}' has no \`\`\`${language} block`);
  return match[1];
}

test('README JavaScript consumer-group example runs against kgroupsd', async () => {
  const broker = await startKgroupsd();
  // Beside node_modules, so that `import 'kafkajs'` resolves.
  const script = path.join(__dirname, `.readme-example-${process.pid}.mjs`);
  try {
    fs.writeFileSync(script, readmeExample('js'));
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      env: { ...process.env, KAFKA_BOOTSTRAP: broker.bootstrap, KAFKAJS_NO_PARTITIONER_WARNING: '1' },
      timeout: 60000,
    });
    assert.equal(stdout.trim(), "[ 'order-0', 'order-1', 'order-2' ]");

    const admin = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: 'billing', topics: ['orders'] });
      const committed = partitions.reduce((sum, p) => sum + Math.max(Number(p.offset), 0), 0);
      assert.equal(committed, 3);
    } finally {
      await admin.disconnect();
    }
  } finally {
    fs.rmSync(script, { force: true });
    const code = await broker.stop();
    assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
  }
});

test('README JavaScript set-up and tear-down example runs against kgroupsd', async () => {
  const broker = await startKgroupsd();
  // Beside node_modules, so that `import 'kafkajs'` resolves; not named *.test.*, so that a
  // copy left behind is never collected.
  const script = path.join(__dirname, `.readme-admin-example-${process.pid}.mjs`);
  try {
    fs.writeFileSync(script, readmeExample('js', ADMIN_SECTION));
    // Without NODE_TEST_CONTEXT, which `node --test` sets for the files it runs: the example
    // is a test run of its own, reporting in TAP on stdout.
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=tap', script], {
      env: { ...env, KAFKA_BOOTSTRAP: broker.bootstrap, KAFKAJS_NO_PARTITIONER_WARNING: '1' },
      timeout: 60000,
    }).catch((error) => { throw new Error(`${error.message}\n${error.stdout}\nkgroupsd log:\n${broker.log()}`); });
    assert.match(stdout, /^# pass 1$/m, stdout);
    assert.match(stdout, /^# fail 0$/m, stdout);

    const admin = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      assert.deepEqual(topics.filter((name) => name.startsWith('orders-')), [], 'the topic was not deleted');
      const { groups } = await admin.listGroups();
      assert.deepEqual(groups.filter(({ groupId }) => groupId.startsWith('billing-')), [], 'the group was not deleted');
    } finally {
      await admin.disconnect();
    }
  } finally {
    fs.rmSync(script, { force: true });
    const code = await broker.stop();
    assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
  }
});

const HARNESS_SECTION = '## Testing your Kafka code with kgroups (node:test)';

test('README node:test example with kgroups/broker runs and passes', async () => {
  // A scratch project whose node_modules holds kafkajs and kgroups as links, the way
  // `npm install --save-dev kafkajs <checkout>/bindings/node` sets them up; the example
  // starts its own kgroupsd ($KGROUPSD).
  const project = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'kgroups-readme-harness-'));
  try {
    fs.mkdirSync(path.join(project, 'node_modules'));
    fs.symlinkSync(path.join(__dirname, 'node_modules', 'kafkajs'), path.join(project, 'node_modules', 'kafkajs'));
    fs.symlinkSync(path.resolve(__dirname, '..', '..', '..', 'bindings', 'node'), path.join(project, 'node_modules', 'kgroups'));
    const script = path.join(project, 'orders.test.mjs');
    fs.writeFileSync(script, readmeExample('js', HARNESS_SECTION));
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=tap', script], {
      cwd: project, env: { ...env, KAFKAJS_NO_PARTITIONER_WARNING: '1' }, timeout: 60000,
    }).catch((error) => { throw new Error(`${error.message}\n${error.stdout}`); });
    assert.match(stdout, /^# pass 1$/m, stdout);
    assert.match(stdout, /^# fail 0$/m, stdout);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
