// SPDX-License-Identifier: Apache-2.0
//
// The npm tarball is self-contained and holds nothing it does not need. `npm pack` writes it
// to a scratch folder and it is unpacked there. Its install script's two builds are checked
// without the package installed:
// - the addon's CMake project is configured (it builds from its own engine/, the copy
//   scripts/bundle-engine.js makes) and every compile command, one per public header included,
//   is run through the preprocessor, so a source, header or CMake file missing from the tarball
//   fails here without a full build;
// - kgroupsd is built from engine/ by the unpacked scripts/build-addon.js's own buildKgroupsd
//   (in engine/build/npm-kgroupsd, as on `npm install`; the compiler cache makes this quick
//   once the checkout's own build/npm-kgroupsd or build/install is built) and runs.
// Neither reads anything of the checkout. The engine files in the tarball must be exactly
// those the two builds read (cmake/ goes whole), and the package's own files exactly the
// git-tracked files of this folder that are not tests or packing tools.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const checkout = fs.realpathSync(path.resolve(packageDir, '..', '..'));
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

// The files a Ninja build dir reads beyond CMake's inputs: every input of `all` (sources, the
// web console, the code generator and its schemas, the scripts the rules run) and the headers
// its compiles recorded (ninja's deps log).
function ninjaInputs(buildDir) {
  const inputs = run('ninja', ['-t', 'inputs', 'all'], { cwd: buildDir }).split('\n');
  const headers = run('ninja', ['-t', 'deps'], { cwd: buildDir, maxBuffer: 1 << 30 }).split('\n')
    .filter((line) => line.startsWith(' '));
  return [...inputs, ...headers].map((file) => file.trim()).filter(Boolean)
    .map((file) => path.resolve(buildDir, file));
}

// Every source of every target in a configured build dir, headers of file sets included (CMake
// fails to generate when one is missing), from CMake's file API (codemodel-v2).
function targetSources(buildDir) {
  const api = path.join(buildDir, '.cmake', 'api', 'v1');
  fs.mkdirSync(path.join(api, 'query'), { recursive: true });
  fs.writeFileSync(path.join(api, 'query', 'codemodel-v2'), '');
  run('cmake', [buildDir]);
  const reply = path.join(api, 'reply');
  const readReply = (file) => JSON.parse(fs.readFileSync(path.join(reply, file), 'utf8'));
  const index = fs.readdirSync(reply).filter((file) => file.startsWith('index-')).sort().at(-1);
  const codemodel = readReply(readReply(index).reply['codemodel-v2'].jsonFile);
  return codemodel.configurations[0].targets.flatMap((target) =>
    readReply(target.jsonFile).sources.map((source) => path.resolve(codemodel.paths.source, source.path)));
}

// Where a file is, its symbolic links followed; a file that is not there stays as named.
function linkTarget(file) {
  return fs.existsSync(file) ? fs.realpathSync(file) : file;
}

// Builds kgroupsd from the unpacked package's engine/ with the unpacked install script's own
// code; returns the build dir. The build's output is shown if it fails.
function buildKgroupsd(unpacked) {
  const script = path.join(unpacked, 'scripts', 'build-addon.js');
  let output;
  try {
    output = run(process.execPath, ['-e',
      `console.log('binary=' + require(${JSON.stringify(script)}).buildKgroupsd())`]);
  } catch (error) {
    assert.fail(`buildKgroupsd failed in the unpacked package:\n${error.stdout}\n${error.stderr}`);
  }
  const buildDir = path.join(unpacked, 'engine', 'build', 'npm-kgroupsd');
  assert.equal(/^binary=(.*)$/m.exec(output)?.[1], path.join(buildDir, 'tools', 'kgroupsd', 'kgroupsd'));
  return buildDir;
}

test('npm pack gives a tarball that builds from its own files, with nothing extra', (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-pack-'));
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: packageDir }));
  const files = packed.files.map((file) => file.path).sort();
  run('tar', ['-xzf', path.join(scratch, packed.filename), '-C', scratch]);
  const unpacked = fs.realpathSync(path.join(scratch, 'package'));

  const buildDir = path.join(scratch, 'build');
  const addonApi = path.dirname(require.resolve('node-addon-api/package.json', { paths: [packageDir] }));
  run('cmake', ['-S', unpacked, '-B', buildDir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
    '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON', `-DNODE_ADDON_API_INCLUDE_DIR=${addonApi}`,
    // Adds a compile command per public header, so the umbrella kgroups.h counts as read.
    '-DCMAKE_VERIFY_INTERFACE_HEADER_SETS=ON']);
  const cache = fs.readFileSync(path.join(buildDir, 'CMakeCache.txt'), 'utf8');
  assert.match(cache, new RegExp(`^KGROUPS_SOURCE_DIR:PATH=${path.join(unpacked, 'engine')}$`, 'm'));

  const kgroupsdBuildDir = buildKgroupsd(unpacked);
  const kgroupsdCache = fs.readFileSync(path.join(kgroupsdBuildDir, 'CMakeCache.txt'), 'utf8');
  assert.match(kgroupsdCache, new RegExp(`^CMAKE_HOME_DIRECTORY:INTERNAL=${path.join(unpacked, 'engine')}$`, 'm'));
  run(path.join(kgroupsdBuildDir, 'tools', 'kgroupsd', 'kgroupsd'), ['--help']);

  // A layer's headers are read through its include root, links in the build dir
  // (cmake/kgroups_include_root.cmake): a file counts as read where its link points.
  const inputs = [
    ...cmakeInputs(buildDir), ...compileInputs(buildDir),
    ...cmakeInputs(kgroupsdBuildDir), ...ninjaInputs(kgroupsdBuildDir), ...targetSources(kgroupsdBuildDir),
  ].map(linkTarget);
  const fromCheckout = inputs.filter((file) => file.startsWith(checkout + path.sep));
  assert.deepEqual([...new Set(fromCheckout)], [], 'the unpacked package reads nothing of the checkout');
  const engineRead = new Set(
    inputs.filter((file) => file.startsWith(unpacked + path.sep)).map((file) => path.relative(unpacked, file)),
  );
  const enginePacked = files.filter((file) => file.startsWith('engine/') && !file.startsWith('engine/cmake/'));
  assert.deepEqual(
    enginePacked.filter((file) => !engineRead.has(file)),
    [],
    'engine/ holds only files the two builds read (scripts/bundle-engine.js ENGINE_FILES, NOT_BUNDLED)',
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
