# SPDX-License-Identifier: Apache-2.0
"""kcat -G (librdkafka 2.0.2 balanced consumer) against kgroupsd: a group of one
reads part of a topic and commits on exit; the next member of the group resumes from the
committed offsets and reads nothing twice; two kcat members split a topic."""
import subprocess
import threading
import time

from confluent_kafka import Consumer, TopicPartition

TIMEOUT_S = 30
PARTITIONS = 6
GROUP_OPTIONS = ("-X", "auto.offset.reset=earliest", "-X", "session.timeout.ms=6000",
                 "-X", "heartbeat.interval.ms=500", "-q", "-u", "-f", "%p\t%o\t%s\n")


def kcat(*args, stdin=None):
    result = subprocess.run(["kcat", *args], input=stdin, capture_output=True,
                            timeout=TIMEOUT_S, text=True)
    assert result.returncode == 0, f"kcat {' '.join(args)} failed:\n{result.stderr}"
    return result.stdout


def produce(bootstrap, topic, count):
    for partition in range(PARTITIONS):
        lines = "".join(f"v{i}\n" for i in range(count) if i % PARTITIONS == partition)
        kcat("-b", bootstrap, "-P", "-t", topic, "-p", str(partition), stdin=lines)
    return {(i % PARTITIONS, f"v{i}") for i in range(count)}


def group_read(bootstrap, group, topic, *extra):
    rows = []
    for line in kcat("-b", bootstrap, "-G", group, *GROUP_OPTIONS, *extra, topic).splitlines():
        partition, offset, value = line.split("\t")
        rows.append((int(partition), int(offset), value))
    return rows


def test_group_of_one_commits_and_a_new_member_resumes(kgroupsd):
    sent = produce(kgroupsd.bootstrap, "kcat-resume", 60)
    # -c: stop after 36 messages; on exit kcat commits the offsets of what it printed.
    first = group_read(kgroupsd.bootstrap, "kcat-resume-group", "kcat-resume", "-c", "36")
    rest = group_read(kgroupsd.bootstrap, "kcat-resume-group", "kcat-resume", "-e")
    assert len(first) == 36
    values = [(p, v) for p, _, v in first + rest]
    assert len(values) == len(set(values)) == 60, "a message was read twice or lost"
    assert set(values) == sent


def wait_for_log(broker, text, deadline_s=TIMEOUT_S):
    deadline = time.monotonic() + deadline_s
    while text not in broker.log():
        assert time.monotonic() < deadline, f"kgroupsd never logged {text!r}:\n{broker.log()}"
        time.sleep(0.05)


def test_two_members_split_a_topic_without_overlap_or_gap(start_kgroupsd):
    kgroupsd = start_kgroupsd("--topic", "kcat-split:6")
    members = [subprocess.Popen(["kcat", "-b", kgroupsd.bootstrap, "-G", "kcat-split-group",
                                 *GROUP_OPTIONS, "kcat-split"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
               for _ in range(2)]
    results = [[], []]
    threads = []
    try:
        wait_for_log(kgroupsd, "with 2 member(s)")
        wait_for_log(kgroupsd, "is stable")
        sent = produce(kgroupsd.bootstrap, "kcat-split", 120)

        def collect(index):
            for line in members[index].stdout:
                partition, offset, value = line.rstrip("\n").split("\t")
                results[index].append((int(partition), int(offset), value))

        threads = [threading.Thread(target=collect, args=(i,), daemon=True) for i in range(2)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + TIMEOUT_S
        while len(results[0]) + len(results[1]) < 120 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        for member in members:
            member.terminate()
            member.wait(timeout=TIMEOUT_S)
        for thread in threads:
            thread.join(TIMEOUT_S)  # the pipes are closed: this drains what is left
    partitions = [{p for p, _, _ in rows} for rows in results]
    assert all(partitions) and partitions[0].isdisjoint(partitions[1]), partitions
    values = [(p, v) for p, _, v in results[0] + results[1]]
    assert len(values) == len(set(values)) == 120 and set(values) == sent


def test_clean_leave_rebalances_without_waiting_for_the_session_timeout(start_kgroupsd):
    kgroupsd = start_kgroupsd("--topic", "kcat-leave:6")
    members = [subprocess.Popen(["kcat", "-b", kgroupsd.bootstrap, "-G", "kcat-leave-group",
                                 *GROUP_OPTIONS, "-X", "session.timeout.ms=30000", "kcat-leave"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for _ in range(2)]
    try:
        wait_for_log(kgroupsd, "with 2 member(s)")
        members[1].terminate()  # kcat closes its consumer: LeaveGroup
        members[1].wait(timeout=TIMEOUT_S)
        started = time.monotonic()
        wait_for_log(kgroupsd, "left the group")
        deadline = started + 10
        while kgroupsd.log().split("left the group")[-1].count("with 1 member(s)") == 0:
            assert time.monotonic() < deadline, f"no rebalance after the leave:\n{kgroupsd.log()}"
            time.sleep(0.05)
    finally:
        for member in members:
            member.terminate()
            member.wait(timeout=TIMEOUT_S)


def committed_offsets(bootstrap, group, topic):
    """The group's committed offset of each partition (-1001 where none), via OffsetFetch."""
    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        partitions = [TopicPartition(topic, p) for p in range(PARTITIONS)]
        return [tp.offset for tp in reader.committed(partitions, timeout=TIMEOUT_S)]
    finally:
        reader.close()


def test_crashed_member_partitions_replay_from_the_last_commit(start_kgroupsd):
    kgroupsd = start_kgroupsd("--group-min-session-timeout-ms", "1000")
    produce(kgroupsd.bootstrap, "kcat-crash", 60)
    crash_options = ("-X", "session.timeout.ms=3000", "-X", "auto.commit.interval.ms=100")
    crashing = subprocess.Popen(["kcat", "-b", kgroupsd.bootstrap, "-G", "kcat-crash-group",
                                 *GROUP_OPTIONS, *crash_options, "kcat-crash"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert all(crashing.stdout.readline() for _ in range(60)), "it did not read everything"
        # Wait until its auto-commit has stored offset 10 (all read) on every partition.
        deadline = time.monotonic() + TIMEOUT_S
        while committed_offsets(kgroupsd.bootstrap, "kcat-crash-group", "kcat-crash") != [10] * 6:
            assert time.monotonic() < deadline, "the member never committed what it read"
            time.sleep(0.1)
    finally:
        crashing.kill()  # SIGKILL: no LeaveGroup, no final commit
        crashing.wait()
    more = {(i % PARTITIONS, f"v{i}") for i in range(60, 72)}
    for partition in range(PARTITIONS):
        kcat("-b", kgroupsd.bootstrap, "-P", "-t", "kcat-crash", "-p", str(partition),
             stdin="".join(f"v{i}\n" for i in range(60, 72) if i % PARTITIONS == partition))
    # The survivor waits for the dead member's session timeout, then replays from the last
    # commit: only the 12 messages produced after it.
    rows = group_read(kgroupsd.bootstrap, "kcat-crash-group", "kcat-crash", "-e",
                      *crash_options)
    assert sorted((p, v) for p, _, v in rows) == sorted(more)
    assert all(offset >= 10 for _, offset, _ in rows)
    assert "sent no heartbeat within its session timeout of 3000 ms" in kgroupsd.log()
