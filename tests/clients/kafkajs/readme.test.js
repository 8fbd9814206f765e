// SPDX-License-Identifier: Apache-2.0
//
// Runs README.md's JavaScript consumer-group example (an ES module) against a fresh
// kgroupsd, then checks what it printed and that group "billing" committed every message.
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

function readmeExample(language) {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf(SECTION);
  assert.ok(start >= 0, `README.md has no '${SECTION}' section`);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const section = text.slice(start, end < 0 ? undefined : end);
  const match = section.match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'));
  assert.ok(match, `the section has no \`\`\`${language} block`);
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
