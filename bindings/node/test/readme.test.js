// SPDX-License-Identifier: Apache-2.0
//
// README.md's JavaScript examples that need only this package, extracted and run as ES
// modules that import the package by name: each must run and its asserts hold.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const readme = path.resolve(packageDir, '..', '..', 'README.md');

function jsExample(heading = 'JavaScript / TypeScript') {
  const text = fs.readFileSync(readme, 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith(heading));
  assert.ok(section, `README.md has a "## ${heading}" section`);
  const block = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the section has a ```js example');
  return block[1];
}

test('the README example runs and its assertions hold', () => {
  // Inside the package folder, so that `import ... from 'kgroups'` resolves to it.
  const file = path.join(packageDir, 'build', 'readme_example.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, jsExample());
  execFileSync(process.execPath, [file], { stdio: 'pipe' });
});

test('the README example fails when an assertion in it is wrong', () => {
  const file = path.join(packageDir, 'build', 'readme_example_broken.mjs');
  fs.writeFileSync(file, jsExample().replace("committed('billing', 5), 1)", "committed('billing', 5), 2)"));
  assert.throws(() => execFileSync(process.execPath, [file], { stdio: 'pipe' }), /AssertionError/);
});

// The ```js block of README.md's "### Share groups" part of "Beyond the lab".
function shareGroupsExample() {
  const text = fs.readFileSync(readme, 'utf8');
  const part = text.split(/^#{2,3} /m).find((section) => section.startsWith('Share groups'));
  assert.ok(part, 'README.md has a "### Share groups" section');
  const block = /```js\n([\s\S]*?)```/.exec(part);
  assert.ok(block, 'the section has a ```js example');
  return block[1];
}

test('the README share-group example runs and its assertions hold', () => {
  const file = path.join(packageDir, 'build', 'readme_share_groups_example.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, shareGroupsExample());
  execFileSync(process.execPath, [file], { stdio: 'pipe' });
});

test('the README share-group example fails when an assertion in it is wrong', () => {
  const file = path.join(packageDir, 'build', 'readme_share_groups_example_broken.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const broken = shareGroupsExample().replace("shareStartOffset('payments', 0), 4)", "shareStartOffset('payments', 0), 3)");
  fs.writeFileSync(file, broken);
  assert.throws(() => execFileSync(process.execPath, [file], { stdio: 'pipe' }), /AssertionError/);
});

test('the README three-broker example runs: stopping the leader elects another', () => {
  const file = path.join(packageDir, 'build', 'readme_cluster_example.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, jsExample('A three-broker cluster'));
  const output = execFileSync(process.execPath, [file], { stdio: 'pipe', encoding: 'utf8' });
  assert.match(output, /^[0-2] -> [0-2] \[ [0-2], [0-2] \]$/m);
});
