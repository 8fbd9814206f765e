// SPDX-License-Identifier: Apache-2.0
//
// ESM entry point of kgroups: the same objects as the CommonJS one (index.js).
import kgroups from './index.js';

export const { Topic, partitionFor, NotAssignedError, NoOffsetError, NotAcquiredError } = kgroups;
export default kgroups;
