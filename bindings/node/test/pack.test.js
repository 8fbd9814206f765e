// SPDX-License-Identifier: Apache-2.0
//
// The npm tarball is self-contained and holds nothing it does not need. `npm pack` writes it
// to a scratch folder; unpacked, its CMake project is configured (it builds from its own
// engine/, the copy scripts/bundle-engine.js makes) and every compile command, one per public
// header included, is run through the preprocessor, so a source, header or CMake file missing from the tarball fails here
// without a full build. The engine files in the tarball must be exactly those the build read,
// and the package's own files exactly the git-tracked files of this folder that are not tests
// or packing tools.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const checkout = path.resolve(packageDir, '..', '..');
// Tracked files of this folder that stay out of the tarball.
const NOT_PACKED = [/^test\//, /^scripts\/bundle-engine\.js$/, /^package-lock\.json$/, /^\.gitignore$/];

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

// The files CMake read to configure the build dir: the inputs of ninja's RERUN_CMAKE edge.
function cmakeInputs(buildDir) {
  const ninja = fs.readFileSync(path.join(buildDir, 'build.ninja'), 'utf8').replace(/\$\n\s*/g, '');
  const edge = /^build build\.ninja: RERUN_CMAKE [^|]*\|(.*)$/m.exec(ninja);
  assert.ok(edge, 'build.ninja has the RERUN_CMAKE edge');
  return edge[1].trim().split(/\s+/).map((file) => path.resolve(buildDir, file));
}

// The sources and non-system headers each compile command reads (the preprocessor's -MM).
function compileInputs(buildDir) {
  const commands = JSON.parse(fs.readFileSync(path.join(buildDir, 'compile_commands.json'), 'utf8'));
  assert.ok(commands.length > 0, 'compile_commands.json lists the addon and engine sources');
  const inputs = new Set();
  commands.forEach((entry, index) => {
    const depfile = path.join(buildDir, `inputs-${index}.d`);
    const command = `${entry.command.replace(/ -o \S+/, ' -o /dev/null')} -MM -MF ${depfile}`;
    run('sh', ['-c', command], { cwd: entry.directory });
    const deps = fs.readFileSync(depfile, 'utf8').replace(/\\\n/g, ' ');
    for (const file of deps.slice(deps.indexOf(':') + 1).trim().split(/\s+/)) {
      inputs.add(path.resolve(entry.directory, file));
    }
  });
  return [...inputs];
}

test('npm pack gives a tarball that builds from its own files, with nothing extra', (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-pack-'));
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: packageDir }));
  const files = packed.files.map((file) => file.path).sort();
  run('tar', ['-xzf', path.join(scratch, packed.filename), '-C', scratch]);
  const unpacked = path.join(scratch, 'package');

  const buildDir = path.join(scratch, 'build');
  const addonApi = path.dirname(require.resolve('node-addon-api/package.json', { paths: [packageDir] }));
  run('cmake', ['-S', unpacked, '-B', buildDir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
    '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON', `-DNODE_ADDON_API_INCLUDE_DIR=${addonApi}`,
    // Adds a compile command per public header, so the umbrella kgroups.h counts as read.
    '-DCMAKE_VERIFY_INTERFACE_HEADER_SETS=ON']);
  const cache = fs.readFileSync(path.join(buildDir, 'CMakeCache.txt'), 'utf8');
  assert.match(cache, new RegExp(`^KGROUPS_SOURCE_DIR:PATH=${path.join(unpacked, 'engine')}$`, 'm'));

  const inputs = [...cmakeInputs(buildDir), ...compileInputs(buildDir)];
  const fromCheckout = inputs.filter((file) => file.startsWith(checkout + path.sep));
  assert.deepEqual(fromCheckout, [], 'the unpacked package reads nothing of the checkout');
  const engineRead = new Set(
    inputs.filter((file) => file.startsWith(unpacked + path.sep)).map((file) => path.relative(unpacked, file)),
  );
  const enginePacked = files.filter((file) => file.startsWith('engine/'));
  assert.deepEqual(
    enginePacked.filter((file) => !engineRead.has(file)),
    [],
    'engine/ holds only files the build reads (scripts/bundle-engine.js ENGINE_FILES)',
  );

  let tracked;
  try {
    tracked = run('git', ['ls-files'], { cwd: packageDir }).split('\n').filter(Boolean);
  } catch {
    t.diagnostic('not a git checkout: the package files were not compared with git ls-files');
    return;
  }
  const expected = tracked.filter((file) => !NOT_PACKED.some((pattern) => pattern.test(file))).sort();
  assert.deepEqual(
    files.filter((file) => !file.startsWith('engine/')),
    expected,
    'the tarball holds the tracked files of bindings/node but tests and packing tools (package.json "files")',
  );
});
