// SPDX-License-Identifier: Apache-2.0
//
// Loads the native addon kgroups.node that `npm install` built with CMake
// (scripts/build-addon.js) into build/ beside this file. KGROUPS_NODE_ADDON may
// name another kgroups.node, e.g. one from a CMake build dir of the repository.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const builtAddon = path.join(__dirname, 'build', 'kgroups.node');

function loadAddon() {
  const addonPath = process.env.KGROUPS_NODE_ADDON || builtAddon;
  if (!fs.existsSync(addonPath)) {
    throw new Error(
      `kgroups: the native addon is not built (looked for ${addonPath}). ` +
        `Run \`npm install\` in ${__dirname} (it needs cmake, ninja or make, and a C++20 compiler), ` +
        'or set KGROUPS_NODE_ADDON to a built kgroups.node.',
    );
  }
  return require(addonPath);
}

module.exports = { loadAddon, builtAddon };
