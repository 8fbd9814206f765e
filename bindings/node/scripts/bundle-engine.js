#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Makes the npm package self-contained: copies the kgroups engine's sources that the install
// script's two builds read (ENGINE_FILES, from the checkout two folders up) into engine/ beside
// package.json: the library the addon's CMakeLists.txt adds when the package is not a
// checkout's folder, and everything a configure and build of kgroupsd reads (the protocol,
// the broker, tools/kgroupsd, the web console it embeds, the CMake modules), since
// scripts/build-addon.js builds kgroupsd from engine/ in a packed copy. Tests, their data and
// the fuzzers stay out (NOT_BUNDLED), and package.json's "files" leaves out engine/build/,
// where an installed copy builds kgroupsd, should that copy be packed again.
// package.json runs it as `prepare`, which npm runs in this folder before it packs it (`npm
// pack`, `npm publish`, `npm install --install-links <this folder>`) and when it links it.
// In a checkout, engine/ is git-ignored and unused, like a build dir. It is brought up to
// date file by file (unchanged files are not rewritten; anything else there, such as build
// output, is removed), so runs that overlap do not disturb each other. test/pack.test.js checks
// that the tarball holds every file the two builds read and nothing else of the engine.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const checkout = path.resolve(packageDir, '..', '..');
const engineDir = path.join(packageDir, 'engine');

// Paths relative to the checkout; a folder stands for its files, minus NOT_BUNDLED. cmake/
// goes whole: the top CMakeLists.txt includes its modules.
const ENGINE_FILES = [
  'CMakeLists.txt',
  'cmake',
  'console',
  'include/kgroups',
  'src',
  'tools/kgroupsd',
];

// What neither build reads, relative to the checkout: the unit tests with their harnesses and
// recorded data, the fuzzers and notes.
const NOT_BUNDLED = [
  /_test\.cc$/,
  /_test_harness\.h$/,
  /_for_tests\.h$/,
  /^src\/protocol\/(testdata|fuzz)(\/|$)/,
  /^src\/protocol\/messages\/(recorded_frames|round_trip)\.h$/,
  /\.md$/,
  /^tools\/kgroupsd\/startup_time\.py$/,
];

function isCheckout() {
  const node = path.join(checkout, 'bindings', 'node');
  return (
    fs.existsSync(path.join(checkout, 'CMakeLists.txt')) &&
    fs.existsSync(node) &&
    fs.realpathSync(node) === fs.realpathSync(packageDir)
  );
}

// The files ENGINE_FILES stands for, relative to the checkout.
function engineFiles(relative) {
  const from = path.join(checkout, relative);
  if (!fs.statSync(from).isDirectory()) return [relative];
  return fs
    .readdirSync(from)
    .sort()
    .map((name) => path.join(relative, name))
    .filter((file) => !NOT_BUNDLED.some((pattern) => pattern.test(file)))
    .flatMap(engineFiles);
}

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function bundle() {
  const wanted = new Set();
  for (const relative of ENGINE_FILES.flatMap(engineFiles)) {
    const to = path.join(engineDir, relative);
    wanted.add(to);
    const content = fs.readFileSync(path.join(checkout, relative));
    if (fs.existsSync(to) && content.equals(fs.readFileSync(to))) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, content);
  }
  for (const file of filesUnder(engineDir)) {
    if (!wanted.has(file)) fs.rmSync(file);
  }
}

if (isCheckout()) {
  bundle();
} else if (!fs.existsSync(path.join(engineDir, 'CMakeLists.txt'))) {
  console.error(`kgroups: ${packageDir} is neither bindings/node of a kgroups checkout nor a ` +
    'packed copy with engine/: cannot bundle the engine');
  process.exit(1);
}
