// SPDX-License-Identifier: Apache-2.0
//
// The ESM side of the type check: named and default imports of kgroups.
import kgroups, { NoOffsetError, NotAcquiredError, Topic, partitionFor } from 'kgroups';

const topic = new Topic(3, { partitioner: 'murmur2' });
const [partition]: [number, number] = topic.append('k', 'v');
const same: boolean = partition === partitionFor('k', 3, 'murmur2');
const other: typeof kgroups.Topic = Topic;
const error: typeof kgroups.NoOffsetError = NoOffsetError;
const notAcquired: typeof kgroups.NotAcquiredError = NotAcquiredError;
void [same, other, error, notAcquired];
