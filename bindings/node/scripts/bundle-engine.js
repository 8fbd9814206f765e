#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Makes the npm package self-contained: copies the kgroups engine's sources that the addon's
// build reads (ENGINE_FILES, from the checkout two folders up) into engine/ beside
// package.json, which CMakeLists.txt builds from when the package is not a checkout's folder.
// package.json runs it as `prepack` (so `npm pack` and `npm publish` include engine/) and,
// with --remove, as `postpack`. test/pack.test.js checks that the tarball holds every file the
// build reads and nothing else of the engine.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const checkout = path.resolve(packageDir, '..', '..');
const engineDir = path.join(packageDir, 'engine');

// Paths relative to the checkout; a folder stands for its files, minus the unit tests.
const ENGINE_FILES = [
  'CMakeLists.txt',
  'cmake/kgroups_options.cmake',
  'cmake/kgroups_warnings.cmake',
  'include/kgroups',
  'src/CMakeLists.txt',
  'src/group',
  'src/log',
  'src/partitioner',
  'src/topic',
];

function isCheckout() {
  const node = path.join(checkout, 'bindings', 'node');
  return (
    fs.existsSync(path.join(checkout, 'CMakeLists.txt')) &&
    fs.existsSync(node) &&
    fs.realpathSync(node) === fs.realpathSync(packageDir)
  );
}

function copy(relative) {
  const from = path.join(checkout, relative);
  if (fs.statSync(from).isDirectory()) {
    for (const name of fs.readdirSync(from).sort()) {
      if (!name.endsWith('_test.cc')) copy(path.join(relative, name));
    }
    return;
  }
  const to = path.join(engineDir, relative);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

if (process.argv.includes('--remove')) {
  // Only a copy made from a checkout is removed: a packed copy's engine/ is its source.
  if (isCheckout()) fs.rmSync(engineDir, { recursive: true, force: true });
} else if (isCheckout()) {
  fs.rmSync(engineDir, { recursive: true, force: true });
  for (const relative of ENGINE_FILES) copy(relative);
} else if (!fs.existsSync(path.join(engineDir, 'CMakeLists.txt'))) {
  console.error(`kgroups: ${packageDir} is neither bindings/node of a kgroups checkout nor a ` +
    'packed copy with engine/: cannot bundle the engine');
  process.exit(1);
}
