#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Builds the native addon: configures the CMake project of this package's folder
// (CMakeLists.txt; it adds the kgroups engine from the checkout two folders up, or from
// engine/ in a packed copy) in build/ beside package.json and builds the kgroups_node target
// into build/kgroups.node. It is package.json's `install` script, so it runs on `npm install`
// in this folder, on `npm install <this folder>` in another project (npm links the folder) and
// on `npm install kgroups-<version>.tgz`. Needs cmake and a C++20 compiler (and uses Ninja if
// it is installed); nothing is downloaded but node-addon-api from the npm registry.
// Incremental: a second run only rebuilds what changed.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = fs.realpathSync(path.join(__dirname, '..'));
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

function hasNodeAddonApi() {
  try {
    require.resolve('node-addon-api/package.json', { paths: [packageDir] });
    return true;
  } catch {
    return false;
  }
}

// npm installs a linked folder (`npm install <checkout>/bindings/node`) without its
// dependencies, so node-addon-api is fetched here, into this folder's node_modules, the way
// `npm install` in this folder would (without the dev dependencies).
function installNodeAddonApi() {
  console.error(`kgroups: installing node-addon-api into ${path.join(packageDir, 'node_modules')}`);
  const npm = process.env.npm_execpath
    ? [process.execPath, [process.env.npm_execpath]]
    : ['npm', []];
  const env = { ...process.env };
  delete env.npm_config_local_prefix; // the project that installs this package, not this one
  delete env.npm_config_prefix;
  delete env.npm_config_global;
  try {
    execFileSync(
      npm[0],
      [...npm[1], 'install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund',
        '--loglevel=error', '--prefix', packageDir],
      { cwd: packageDir, env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (error) {
    fail(`npm install of node-addon-api in ${packageDir} failed (${error.message.split('\n')[0]})`);
  }
}

// A build dir configured from another source folder (the repository root, before this folder
// became its own CMake project) cannot be reconfigured from this one: start it afresh.
function discardForeignBuildDir() {
  const cache = path.join(buildDir, 'CMakeCache.txt');
  if (!fs.existsSync(cache)) return;
  const home = /^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$/m.exec(fs.readFileSync(cache, 'utf8'));
  if (home && fs.existsSync(home[1]) && fs.realpathSync(home[1]) === packageDir) return;
  fs.rmSync(buildDir, { recursive: true, force: true });
}

if (!hasCommand('cmake')) fail('cmake is not installed (Debian: apt-get install cmake ninja-build g++)');
if (!hasNodeAddonApi()) installNodeAddonApi();
discardForeignBuildDir();

const configure = ['-S', packageDir, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release'];
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
