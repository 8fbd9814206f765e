// SPDX-License-Identifier: Apache-2.0
//
// The shared kgroupsd launcher (tests/clients/kgroupsd.js).
'use strict';

module.exports = require('../kgroupsd');
