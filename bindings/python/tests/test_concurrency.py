# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Every call is atomic, also when called from several threads at once",
through the Python API (poll, join and leave run with the GIL released)."""

import threading

import kgroups

THREADS = 4
APPENDS_PER_THREAD = 2000


def test_concurrent_appends_get_distinct_dense_offsets():
    topic = kgroups.Topic(4)
    results = [[] for _ in range(THREADS)]

    def writer(index):
        for i in range(APPENDS_PER_THREAD):
            results[index].append(topic.append(f"t{index}-{i % 50}", f"{index}:{i}"))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    places = [place for result in results for place in result]
    assert len(places) == len(set(places)) == THREADS * APPENDS_PER_THREAD
    for partition in range(4):
        offsets = sorted(o for p, o in places if p == partition)
        assert offsets == list(range(topic.end_offset(partition)))


def test_concurrent_consumers_of_one_group_read_each_record_once():
    topic = kgroups.Topic(8)
    for i in range(4000):
        topic.append(f"key-{i}", str(i))
    consumers = ["A", "B", "C", "D"]
    for consumer in consumers:
        topic.join("g", consumer)
    seen = {consumer: [] for consumer in consumers}

    def reader(consumer):
        for _ in range(1000):  # bounded
            batch = topic.poll("g", consumer, max_records=97)
            if not batch:
                return
            seen[consumer].extend(record["value"] for record in batch)
            topic.commit("g", consumer)

    threads = [threading.Thread(target=reader, args=(c,)) for c in consumers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    values = [v for c in consumers for v in seen[c]]
    assert sorted(values, key=int) == [str(i) for i in range(4000)]
    assert sum(topic.committed("g", p) for p in range(8)) == 4000
