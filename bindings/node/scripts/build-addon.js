#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Builds the native addon with the kgroups CMake project: configures build/
// beside package.json with only KGROUPS_BUILD_NODE on and builds the
// kgroups_node target into build/bindings/node/kgroups.node. It is package.json's
// `install` script, so `npm install` in this folder, or `npm install <path to
// this folder>` in another project (npm links the folder), runs it. It needs the
// kgroups source tree two folders up, cmake and a C++20 compiler. Incremental:
// a second run only rebuilds what changed.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = fs.realpathSync(path.join(__dirname, '..'));
const sourceDir = path.resolve(packageDir, '..', '..');
const buildDir = process.env.KGROUPS_NODE_BUILD_DIR || path.join(packageDir, 'build');

function fail(message) {
  console.error(`kgroups: ${message}`);
  process.exit(1);
}

function hasCommand(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const rootCMake = path.join(sourceDir, 'CMakeLists.txt');
if (!fs.existsSync(rootCMake) || !/project\(kgroups\b/.test(fs.readFileSync(rootCMake, 'utf8'))) {
  fail(
    `cannot find the kgroups source tree at ${sourceDir}. This package builds from a kgroups ` +
      'checkout: install it from its folder (npm install <checkout>/bindings/node).',
  );
}
if (!hasCommand('cmake')) fail('cmake is not installed (Debian: apt-get install cmake ninja-build g++)');

const configure = [
  '-S', sourceDir,
  '-B', buildDir,
  '-DCMAKE_BUILD_TYPE=Release',
  '-DKGROUPS_BUILD_NODE=ON',
  '-DKGROUPS_BUILD_TESTS=OFF',
  '-DKGROUPS_BUILD_BENCH=OFF',
  '-DKGROUPS_BUILD_CLI=OFF',
  '-DKGROUPS_BUILD_PYTHON=OFF',
  '-DKGROUPS_BUILD_BROKER=OFF',
  '-DKGROUPS_INSTALL=OFF',
];
if (!fs.existsSync(path.join(buildDir, 'CMakeCache.txt')) && hasCommand('ninja')) {
  configure.push('-G', 'Ninja');
}

const parallel = process.env.CMAKE_BUILD_PARALLEL_LEVEL || '2';
try {
  execFileSync('cmake', configure, { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('cmake', ['--build', buildDir, '--target', 'kgroups_node', '--parallel', parallel], {
    stdio: 'inherit',
  });
} catch (error) {
  fail(`building the native addon failed (${error.message.split('\n')[0]}); see the output above`);
}
