// SPDX-License-Identifier: Apache-2.0
//
// ESM entry point of kgroups/broker: the same objects as the CommonJS one (broker.js).
import broker from './broker.js';

export const { Broker, BrokerError, findKgroupsd, kgroupsdArgs } = broker;
export default broker;
