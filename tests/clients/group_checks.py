# SPDX-License-Identifier: Apache-2.0
"""Checks shared by the consumer-group tests of every Python-driven client: members reading
side by side, and the split of what they read."""
import threading


def read_in_parallel(members, read, count, seconds):
    """Each member reads in its own thread with read(member, count, seconds); returns the rows
    (partition, offset, value) that each member read."""
    results = [[] for _ in members]
    threads = [threading.Thread(target=lambda i=i: results[i].extend(read(members[i], count,
                                                                         seconds)))
               for i in range(len(members))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def assert_split(results, assignments, sent):
    """Every member read only its own partitions, nothing was read twice, nothing is missing."""
    for rows, assignment in zip(results, assignments):
        assert {p for p, _, _ in rows} <= assignment, "read outside the assignment"
    values = [(p, v) for rows in results for p, _, v in rows]
    assert len(values) == len(set(values)), "a message was read twice"
    assert set(values) == sent, "a message is missing"
