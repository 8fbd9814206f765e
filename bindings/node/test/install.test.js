// SPDX-License-Identifier: Apache-2.0
//
// The package as a user gets it: a scratch project under the system's temp
// folder runs `npm install <this folder>` (offline: npm links the folder and
// runs its install script, which builds the addon and kgroupsd with CMake),
// then uses the package from CommonJS and from ESM, and kgroups/broker finds
// the kgroupsd the install built in the checkout's build/npm-kgroupsd.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');

const CJS_USE = `
const { Topic, NotAssignedError, partitionFor } = require('kgroups');
const topic = new Topic(4);
topic.join('g', 'A');
topic.join('g', 'B');
topic.append('k', Uint8Array.of(7));
let refused = false;
try { topic.commit('g', 'B', { 0: 0 }); } catch (error) { refused = error instanceof NotAssignedError; }
const records = [...topic.poll('g', 'A'), ...topic.poll('g', 'B')];
console.log(JSON.stringify({ refused, partition: partitionFor('k', 4), records: records.map((r) => [r.partition, r.key, [...r.value]]) }));
`;

const ESM_USE = `
import { Topic, NotAssignedError, partitionFor } from 'kgroups';
const topic = new Topic(4);
topic.join('g', 'A');
topic.join('g', 'B');
topic.append('k', Uint8Array.of(7));
let refused = false;
try { topic.commit('g', 'B', { 0: 0 }); } catch (error) { refused = error instanceof NotAssignedError; }
const records = [...topic.poll('g', 'A'), ...topic.poll('g', 'B')];
console.log(JSON.stringify({ refused, partition: partitionFor('k', 4), records: records.map((r) => [r.partition, r.key, [...r.value]]) }));
`;

test('a scratch project installs the package from its folder and uses it from CJS and ESM', (t) => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-npm-'));
  t.after(() => fs.rmSync(project, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }),
  );
  const npmOutput = execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--foreground-scripts', packageDir],
    { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // The install script ran CMake's build of kgroups_node (up to date or not).
  assert.match(npmOutput, /no work to do|kgroups\.node/, npmOutput);
  assert.ok(fs.existsSync(path.join(project, 'node_modules', 'kgroups', 'package.json')));

  fs.writeFileSync(path.join(project, 'use.cjs'), CJS_USE);
  fs.writeFileSync(path.join(project, 'use.mjs'), ESM_USE);
  const env = { ...process.env, KGROUPS_NODE_ADDON: '' };
  const fromCjs = JSON.parse(execFileSync(process.execPath, ['use.cjs'], { cwd: project, env, encoding: 'utf8' }));
  const fromEsm = JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: project, env, encoding: 'utf8' }));
  const { partitionFor } = require('kgroups');
  const expected = { refused: true, partition: partitionFor('k', 4), records: [[partitionFor('k', 4), 'k', [7]]] };
  assert.deepEqual(fromCjs, expected);
  assert.deepEqual(fromEsm, expected);

  const found = execFileSync(process.execPath,
    ['-e', "console.log(require('kgroups/broker').findKgroupsd({}, { PATH: '' }))"],
    { cwd: project, env, encoding: 'utf8' }).trim();
  const checkout = fs.realpathSync(path.resolve(packageDir, '..', '..'));
  assert.equal(found, path.join(checkout, 'build', 'npm-kgroupsd', 'tools', 'kgroupsd', 'kgroupsd'));
});
