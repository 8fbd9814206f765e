// SPDX-License-Identifier: Apache-2.0
//
// The ESM side of the type check: named and default imports of kgroups.
import kgroups, { Topic, partitionFor } from 'kgroups';

const topic = new Topic(3);
const [partition]: [number, number] = topic.append('k', 'v');
const same: boolean = partition === partitionFor('k', 3);
const other: typeof kgroups.Topic = Topic;
void [same, other];
