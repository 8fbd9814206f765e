# SPDX-License-Identifier: Apache-2.0
"""Checks shared by the consumer-group tests of every Python-driven client: waiting for the
group to settle, members reading side by side, and the split of what they read."""
import threading
import time


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


def wait_for_assignment(members, poll_once, assignment_of, partitions, deadline_s):
    """Keeps every member polling (poll_once(member), each in its own thread, so the client
    library takes part in the rebalance) until the members' assignments (assignment_of(member),
    a set of partitions) are non-empty, disjoint and cover `partitions`, or the deadline
    passes; returns the assignments last seen."""
    stop = threading.Event()

    def keep_polling(member):
        while not stop.is_set():
            poll_once(member)

    threads = [threading.Thread(target=keep_polling, args=(m,), daemon=True) for m in members]
    for thread in threads:
        thread.start()
    assignments = []
    deadline = time.monotonic() + deadline_s
    try:
        while time.monotonic() < deadline:
            assignments = [assignment_of(member) for member in members]
            if (set().union(*assignments) == partitions and all(assignments) and
                    sum(len(a) for a in assignments) == len(partitions)):
                break
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return assignments
