#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Builds what the package runs, as package.json's `install` script: on `npm install` in this
// folder, on `npm install <this folder>` in another project (npm links the folder) and on
// `npm install kgroups-<version>.tgz`.
// - The native addon: configures the CMake project of this package's folder (CMakeLists.txt;
//   it adds the kgroups engine from the checkout two folders up, or from engine/ in a packed
//   copy) in build/ beside package.json and builds the kgroups_node target into
//   build/kgroups.node.
// - kgroupsd, the broker kgroups/broker starts: configures that same engine source tree as a
//   project of its own in build/npm-kgroupsd under it (kgroupsd_command.js's npmKgroupsdBuild,
//   where findKgroupsd looks for it), in Release with the broker alone, and builds the kgroupsd
//   target. The build dir is two folders under the source tree and the flags are those of a
//   plain Release configure, so the compiler cache (cmake/kgroups_compiler_cache.cmake) gives
//   it the objects `cmake --preset install` (build/install) compiled, in this tree or another
//   clone, and those of other installs of the package.
// Needs cmake, a C++20 compiler and kgroupsd's libraries (KGROUPSD_DEBIAN_PACKAGES; uses Ninja
// and ccache if they are installed); nothing is downloaded but node-addon-api from the npm
// registry. A failed build fails the install, saying what is needed. Incremental: a second
// run only rebuilds what changed. Required as a module, it builds nothing and exports
// buildKgroupsd (test/pack.test.js builds kgroupsd from an unpacked tarball with it).
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { npmKgroupsdBuild } = require('../kgroupsd_command.js');

const packageDir = fs.realpathSync(path.join(__dirname, '..'));
const buildDir = process.env.KGROUPS_NODE_BUILD_DIR || path.join(packageDir, 'build');
const parallel = process.env.CMAKE_BUILD_PARALLEL_LEVEL || '2';

// What the builds need beyond Node, as Debian packages: the addon's compiler and CMake, and
// the libraries kgroupsd needs besides (named by the top CMakeLists.txt, src/protocol/,
// src/broker/ and tools/kgroupsd/; python3 runs the protocol's code generator).
const BUILD_DEBIAN_PACKAGES = ['cmake', 'ninja-build', 'g++'];
const KGROUPSD_DEBIAN_PACKAGES = ['libasio-dev', 'libcli11-dev', 'libhttp-parser-dev',
  'nlohmann-json3-dev', 'pkg-config', 'zlib1g-dev', 'libsnappy-dev', 'liblz4-dev', 'libzstd-dev',
  'libssl-dev', 'python3'];

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

// A build dir configured from another source folder (for the addon's, the repository root
// before this folder became its own CMake project; for either, a tree since moved) cannot be
// reconfigured from this one: start it afresh.
function discardForeignBuildDir(dir, sourceDir) {
  const cache = path.join(dir, 'CMakeCache.txt');
  if (!fs.existsSync(cache)) return;
  const home = /^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$/m.exec(fs.readFileSync(cache, 'utf8'));
  const sameSource = home && fs.existsSync(home[1]) &&
    fs.realpathSync(home[1]) === fs.realpathSync(sourceDir);
  if (sameSource) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

// Configures sourceDir in dir (with Ninja when it is installed and dir is new), then builds
// one target. Returns what failed ('configuring' or 'building'; CMake and the compiler have
// said why on stderr), or null.
function configureAndBuild(sourceDir, dir, cacheEntries, target) {
  discardForeignBuildDir(dir, sourceDir);
  const configure = ['-S', sourceDir, '-B', dir, ...cacheEntries];
  if (!fs.existsSync(path.join(dir, 'CMakeCache.txt')) && hasCommand('ninja')) {
    configure.push('-G', 'Ninja');
  }
  try {
    execFileSync('cmake', configure, { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    return 'configuring';
  }
  try {
    execFileSync('cmake', ['--build', dir, '--target', target, '--parallel', parallel], {
      stdio: 'inherit',
    });
  } catch {
    return 'building';
  }
  return null;
}

// The addon: this folder's CMake project, in Release.
function buildAddon() {
  if (!hasNodeAddonApi()) installNodeAddonApi();
  const failed =
    configureAndBuild(packageDir, buildDir, ['-DCMAKE_BUILD_TYPE=Release'], 'kgroups_node');
  if (failed) {
    fail(`${failed} the native addon in ${buildDir} failed; see the output above. It needs ` +
      `cmake, a C++20 compiler (Debian: apt-get install ${BUILD_DEBIAN_PACKAGES.join(' ')}) and ` +
      "Node's headers (node_api.h in /usr/include/node).");
  }
}

// kgroupsd alone, with the cache entries of a plain Release configure (no -Werror, no
// sanitizers): its objects are those of `cmake --preset install`. Returns the binary's path.
// test/pack.test.js calls it on an unpacked tarball.
function buildKgroupsd() {
  const kgroupsd = npmKgroupsdBuild();
  const cacheEntries = [
    '-DCMAKE_BUILD_TYPE=Release',
    '-DKGROUPS_BUILD_BROKER=ON',
    '-DKGROUPS_BUILD_CLI=OFF',
    '-DKGROUPS_BUILD_TESTS=OFF',
    '-DKGROUPS_BUILD_BENCH=OFF',
    '-DKGROUPS_BUILD_PYTHON=OFF',
    '-DKGROUPS_BUILD_NODE=OFF',
    '-DKGROUPS_INSTALL=OFF',
  ];
  console.error(`kgroups: building kgroupsd in ${kgroupsd.buildDir}`);
  const failed = configureAndBuild(kgroupsd.sourceDir, kgroupsd.buildDir, cacheEntries, 'kgroupsd');
  if (failed) {
    fail(`${failed} kgroupsd (the broker kgroups/broker starts) in ${kgroupsd.buildDir} ` +
      'failed; see the output above. Beside cmake and a C++20 compiler it needs these ' +
      `libraries (Debian: apt-get install ${KGROUPSD_DEBIAN_PACKAGES.join(' ')}).`);
  }
  return kgroupsd.binary;
}

if (require.main === module) {
  if (!hasCommand('cmake')) {
    fail(`cmake is not installed (Debian: apt-get install ${BUILD_DEBIAN_PACKAGES.join(' ')})`);
  }
  buildAddon();
  buildKgroupsd();
}

module.exports = { buildKgroupsd };
