// SPDX-License-Identifier: Apache-2.0
//
// One node-rdkafka group member in its own process, so a test can SIGKILL it for real.
// argv[2] is JSON: { bootstrap, groupId, topic, config }. It subscribes and reports on stdout,
// one JSON object a line:
//   {"ev":"rebalance","kind":"assign"|"revoke","partitions":[...]}
//   {"ev":"assignment","partitions":[...]}      its whole assignment after each rebalance
//   {"ev":"message","partition":p,"offset":o,"key":"...","value":"..."}
//   {"ev":"committed"} / {"ev":"closed"} / {"ev":"error","message":"..."}
// and takes commands on stdin, one JSON object a line:
//   {"cmd":"commit","offsets":[{"partition":p,"offset":o}]}   synchronous commit
//   {"cmd":"close"}   consumer.disconnect() (a dynamic member sends LeaveGroup), then exit
// Set RDKAFKA_DEBUG (e.g. "protocol,cgrp") for librdkafka's debug log on stderr.
'use strict';

const readline = require('node:readline');
const Kafka = require('node-rdkafka');

const { bootstrap, groupId, topic, config = {} } = JSON.parse(process.argv[2]);
const say = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);

const debug = process.env.RDKAFKA_DEBUG ? { debug: process.env.RDKAFKA_DEBUG } : {};
const consumer = new Kafka.KafkaConsumer({
  'bootstrap.servers': bootstrap,
  'group.id': groupId,
  'enable.auto.commit': false,
  'socket.timeout.ms': 10000,
  'fetch.wait.max.ms': 100,
  'topic.metadata.refresh.interval.ms': 1000,
  rebalance_cb: true,
  event_cb: true,
  ...debug,
  ...config,
}, { 'auto.offset.reset': 'earliest' });

const sorted = (list) => list.filter((tp) => tp.topic === topic).map((tp) => tp.partition).sort((a, b) => a - b);

consumer.on('event.log', (log) => process.stderr.write(`rdkafka ${log.fac}: ${log.message}\n`));
consumer.on('event.error', (error) => say({ ev: 'error', message: String(error) }));
consumer.on('rebalance', (error, assignment) => {
  const kind = error.code === Kafka.CODES.ERRORS.ERR__ASSIGN_PARTITIONS ? 'assign' : 'revoke';
  say({ ev: 'rebalance', kind, partitions: sorted(assignment) });
  // The default handler (rebalance_cb: true) runs (incremental) assign/unassign after this
  // event; report the result once it did.
  // While closing, assignments() fails with ERR__STATE: nothing to report then.
  setImmediate(() => {
    let partitions;
    try {
      partitions = sorted(consumer.assignments());
    } catch (error) {
      if (error.code !== Kafka.CODES.ERRORS.ERR__STATE) throw error;
      return;
    }
    say({ ev: 'assignment', partitions });
  });
});
consumer.on('data', (message) => {
  say({
    ev: 'message', partition: message.partition, offset: message.offset,
    key: message.key ? message.key.toString() : null, value: message.value.toString(),
  });
});

consumer.on('ready', () => {
  consumer.subscribe([topic]);
  consumer.consume();
  say({ ev: 'subscribed' });
});
consumer.connect({ timeout: 10000 }, (error) => {
  if (error) {
    say({ ev: 'error', message: `connect: ${error}` });
    process.exit(2);
  }
});

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line);
  if (command.cmd === 'commit') {
    try {
      consumer.commitSync(command.offsets.map(({ partition, offset }) => ({ topic, partition, offset })));
      say({ ev: 'committed' });
    } catch (error) {
      say({ ev: 'error', message: `commit: ${error}` });
    }
  } else if (command.cmd === 'close') {
    consumer.disconnect(() => {
      say({ ev: 'closed' });
      process.exit(0);
    });
  }
});
