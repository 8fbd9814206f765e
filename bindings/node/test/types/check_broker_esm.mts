// SPDX-License-Identifier: Apache-2.0
//
// The ESM side of kgroups/broker's type check: named and default imports, top-level await.
import brokerModule, { Broker, type GroupInfo } from 'kgroups/broker';

const broker = await Broker.start({ topics: { orders: 1 } });
const group: GroupInfo = await broker.group('g');
const same: typeof brokerModule.Broker = Broker;
await broker.stop();
void [group, same];
