#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cold appends from a process's start, kgroups against the naive model (issue 32).

Runs bench/cold_start_bench.cc's program in new processes, the two implementations
taking turns, and prints, for 32-byte and 1 KiB values (200,000 records a batch):

- first: the first batch of a fresh process, on memory it never touched;
- steady, cold: the later batches of that process, each into a new topic after every
  free page went back to the kernel (the median of batches 2..N);
- steady, warm: the later batches of a process that keeps its freed memory.

Each figure is the median over the rounds; each ratio is naive time / kgroups time
of the same run (above 1: kgroups is faster). The first-batch ratio of every round is
printed too, since a first batch happens once per process. Before the rounds, the
machine-state experiment (kgroups_page_population_experiment) shows what faulting in
200 MiB costs each way on this machine now.

    bench/cold_start_bench.py [--build-dir build/release] [--rounds 5] [--batches 5]
                              [--fault-in huge|populate|first-touch]

--fault-in makes the kgroups processes fault in their regions one fixed way instead of
the chunk supply's policy (KGROUPS_BENCH_FAULT_IN, bench/bench_fault_in.h).

Targets (docs/PERFORMANCE.md, "Issue 32"): small appends >= 2x naive and 1 KiB >= 1.5x,
for the first batch and the steady state.
"""
import argparse
import os
import statistics
import subprocess
import sys

VALUE_SIZES = {32: "small (32 B)", 1024: "1 KiB"}
TARGETS = {32: 2.0, 1024: 1.5}


def run_process(program, impl, value_bytes, batches, warm, fault_in):
    command = [program, impl, str(value_bytes), str(batches)] + (["warm"] if warm else [])
    environment = dict(os.environ)
    environment.pop("KGROUPS_BENCH_FAULT_IN", None)
    if fault_in:
        environment["KGROUPS_BENCH_FAULT_IN"] = fault_in
    output = subprocess.run(command, check=True, capture_output=True, text=True,
                            env=environment).stdout
    walls, regions = [], {}
    for line in output.splitlines():
        fields = dict(part.split("=", 1) for part in line.split()[1:] if "=" in part)
        if line.startswith("batch="):
            walls.append(float(line.split()[1].split("=")[1]))
        elif line.startswith("regions "):
            regions = {name: int(count) for name, count in fields.items()}
    if len(walls) != batches:
        raise RuntimeError(f"{' '.join(command)} printed {len(walls)} batches, not {batches}")
    return walls, regions


def machine_state(build_dir):
    program = os.path.join(build_dir, "bench", "kgroups_page_population_experiment")
    if not os.path.exists(program):
        return ["(kgroups_page_population_experiment not built)"]
    return [subprocess.run([program, mode, "200"], check=True, capture_output=True,
                           text=True).stdout.strip() for mode in ("huge", "populate", "touch")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build/release")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--fault-in", choices=("huge", "populate", "first-touch"))
    args = parser.parse_args()
    if args.rounds < 1 or args.batches < 2:
        parser.error("--rounds must be at least 1 and --batches at least 2")
    program = os.path.join(args.build_dir, "bench", "kgroups_cold_start_bench")
    if not os.path.exists(program):
        sys.exit(f"cold_start_bench: {program} is not built; build the target "
                 f"kgroups_cold_start_bench (e.g. cmake --build {args.build_dir} "
                 "--target kgroups_cold_start_bench)")

    print("machine state (one fresh process each, 200 MiB):")
    for line in machine_state(args.build_dir):
        print("  " + line)

    # results[(impl, size, case)] = list over rounds; first_ratios[size] = per round
    results, first_ratios = {}, {size: [] for size in VALUE_SIZES}
    regions = {"small": 0, "huge": 0, "dear_huge": 0}
    for round_index in range(args.rounds):
        impls = ("kgroups", "naive") if round_index % 2 == 0 else ("naive", "kgroups")
        for size in VALUE_SIZES:
            firsts = {}
            for impl in impls:
                cold, counts = run_process(program, impl, size, args.batches, False, args.fault_in)
                warm, _ = run_process(program, impl, size, args.batches, True, args.fault_in)
                firsts[impl] = cold[0]
                results.setdefault((impl, size, "first"), []).append(cold[0])
                results.setdefault((impl, size, "cold"), []).append(statistics.median(cold[1:]))
                results.setdefault((impl, size, "warm"), []).append(statistics.median(warm[1:]))
                for name in regions:
                    regions[name] += counts.get(name, 0)
            first_ratios[size].append(firsts["naive"] / firsts["kgroups"])

    policy = f"KGROUPS_BENCH_FAULT_IN={args.fault_in}" if args.fault_in else "the supply's policy"
    print(f"\nkgroups with {policy}; {args.rounds} rounds, {args.batches} batches of 200,000 "
          "records per process; medians in ms (kgroups M records/s); ratio = naive / kgroups time")
    header = f"{'case':<28}{'kgroups':>18}{'naive':>12}{'ratio':>9}{'target':>9}  verdict"
    print(header)
    print("-" * len(header))
    failures = 0
    for size, label in VALUE_SIZES.items():
        for case, case_label in (("first", "first batch"), ("cold", "steady, cold"),
                                 ("warm", "steady, warm")):
            kgroups_ms = statistics.median(results[("kgroups", size, case)])
            naive_ms = statistics.median(results[("naive", size, case)])
            ratio = naive_ms / kgroups_ms
            rate = 200000 / kgroups_ms / 1e3
            target = TARGETS[size] if case != "warm" else None
            verdict = "" if target is None else ("PASS" if ratio >= target else "MISS")
            failures += verdict == "MISS"
            target_text = f">={target}x" if target else ""
            print(f"{label + ', ' + case_label:<28}{kgroups_ms:>9.1f} ({rate:5.1f} M/s)"
                  f"{naive_ms:>12.1f}{ratio:>8.2f}x{target_text:>9}  {verdict}")
    for size, label in VALUE_SIZES.items():
        ratios = ", ".join(f"{ratio:.2f}x" for ratio in first_ratios[size])
        print(f"first-batch ratio per round, {label}: {ratios}")
    print(f"chunk supply regions over all kgroups runs: 4 KiB pages {regions['small']}, "
          f"huge pages {regions['huge']} (of which dear, turning them off: {regions['dear_huge']})")
    print("all targets met" if failures == 0 else f"{failures} target(s) missed")


if __name__ == "__main__":
    main()
