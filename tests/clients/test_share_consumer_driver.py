# SPDX-License-Identifier: Apache-2.0
"""The librdkafka 2.15 share consumer driver (share_consumer_process.py) against a kgroupsd
that does not serve share groups yet: it starts, subscribes, polls nothing, acknowledges
nothing and closes cleanly, without hanging; kgroupsd sees no share-group request, since
librdkafka sends none to a broker whose ApiVersions lacks ShareGroupHeartbeat v1
(docs/CLIENTS.md). Once kgroupsd serves share groups, the share-group tests take over.
"""
from share_consumer_process import ShareConsumer


def test_without_share_groups_the_consumer_polls_nothing_and_closes(kgroupsd, tmp_path):
    consumer = ShareConsumer(tmp_path / "share-consumer.log", kgroupsd.bootstrap, "queue",
                             "orders", {"share.acknowledgement.mode": "explicit"})
    try:
        records, reply = consumer.poll(1, 1500)
        assert records == [] and reply.errors == [], consumer.log()
        assert consumer.ack("all", "accept") == 0
        assert consumer.commit() == {}
        reply = consumer.close()
        assert reply.errors == [] and reply.lines == ["closed"], consumer.log()
        assert consumer.process.returncode == 0
    finally:
        consumer.kill()
    log = kgroupsd.log()
    assert "does not serve" not in log and "outside the supported" not in log, log
