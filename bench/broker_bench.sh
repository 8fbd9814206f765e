#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Broker benchmark (produce, fetch, consumer groups): the same librdkafka workload against
# kgroupsd and against librdkafka's own mock cluster (the baseline), in one run.
# Phases: produce (acks=all, every delivery report awaited), consume (plain
# assignment) and group (a 2-member consumer group; join time and throughput).
# Each broker's CPU time comes from /proc/<pid>/stat (utime+stime), read by the
# client around each timed window. Prints a table, the kgroupsd/mock ratios and
# PASS/MISS per target of docs/PERFORMANCE.md. Everything listens on 127.0.0.1 and is
# killed on exit. Run with --help for the options.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: bench/broker_bench.sh [options]
  --phases LIST          comma-separated: produce,consume,group (default: all three)
  --targets LIST         comma-separated: mock,kgroupsd (default: both)
  --messages N           messages per phase (default 1000000)
  --round-messages R     consume/group phases write and read in rounds of R messages,
                         because the mock cluster keeps only 5 MiB per partition
                         (default 150000)
  --repeat K             run every phase K times per target, report the median (default 1)
  --build-dir DIR        build directory (default build/release; configured as the
                         release preset, or as Release if it is another new directory)
  --no-build             use the binaries already in the build directory
  --kgroupsd PATH        the kgroupsd binary to measure (default: the build directory's)
  --keep-logs            keep the brokers' and clients' logs (path printed at the end)
  --warm-up              before each measured produce run, produce the same messages to the
                         same topic once, unmeasured: the steady state of a broker that
                         already holds (and, with retention, recycles) its log's memory,
                         instead of a fresh process faulting its log's memory in
EOF
}

phases=produce,consume,group
targets=mock,kgroupsd
messages=1000000
round_messages=150000
repeat=1
build_dir=build/release
build=1
keep_logs=0
warm_up=0
kgroupsd_override=
while (($#)); do
  case $1 in
    --phases) phases=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --messages) messages=$2; shift 2 ;;
    --round-messages) round_messages=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --kgroupsd) kgroupsd_override=$2; shift 2 ;;
    --keep-logs) keep_logs=1; shift ;;
    --warm-up) warm_up=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "broker_bench: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
IFS=, read -r -a phase_list <<<"$phases"
IFS=, read -r -a target_list <<<"$targets"
for phase in "${phase_list[@]}"; do
  [[ $phase =~ ^(produce|consume|group)$ ]] ||
    { echo "broker_bench: unknown phase '$phase' (produce, consume or group)" >&2; exit 2; }
done
for target in "${target_list[@]}"; do
  [[ $target =~ ^(mock|kgroupsd)$ ]] ||
    { echo "broker_bench: unknown target '$target' (mock or kgroupsd)" >&2; exit 2; }
done
for number in "$messages" "$round_messages" "$repeat"; do
  [[ $number =~ ^[1-9][0-9]*$ ]] ||
    { echo "broker_bench: '$number' is not a positive integer" >&2; exit 2; }
done

client=$build_dir/bench/broker/kgroups_broker_bench
mock=$build_dir/bench/broker/kgroups_mock_cluster
kgroupsd=${kgroupsd_override:-$build_dir/tools/kgroupsd/kgroupsd}

# ---- build ----------------------------------------------------------------
if ((build)); then
  if [[ ! -f $build_dir/CMakeCache.txt ]]; then
    if [[ $build_dir == build/release ]]; then
      cmake --preset release >/dev/null
    else
      cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKGROUPS_BUILD_TESTS=OFF \
        -DKGROUPS_BUILD_BENCH=ON -DKGROUPS_BUILD_BROKER=ON -DKGROUPS_BUILD_CLI=OFF \
        -DKGROUPS_BUILD_PYTHON=OFF -DKGROUPS_BUILD_NODE=OFF -DKGROUPS_INSTALL=OFF >/dev/null
    fi
  fi
  build_targets=(kgroups_mock_cluster kgroups_broker_bench)
  [[ ,$targets, == *,kgroupsd,* ]] && build_targets+=(kgroupsd)
  cmake --build "$build_dir" -j2 --target "${build_targets[@]}"
fi
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
if [[ $build_type != Release && $build_type != RelWithDebInfo ]]; then
  echo "broker_bench: warning: $build_dir is a '${build_type:-unknown}' build; figures from an" \
    "unoptimized kgroupsd mean little" >&2
fi
for binary in "$client" "$mock"; do
  [[ -x $binary ]] || { echo "broker_bench: $binary is missing; build it or drop --no-build" >&2; exit 1; }
done
if [[ ,$targets, == *,kgroupsd,* && ! -x $kgroupsd ]]; then
  echo "broker_bench: $kgroupsd is missing; build it or use --targets mock" >&2
  exit 1
fi

# ---- brokers --------------------------------------------------------------
work=$(mktemp -d /tmp/broker_bench.XXXXXX)
declare -A broker_pid broker_address startup_ms
drain_pids=()
client_pid=
cleanup() {
  local pid
  for pid in $client_pid "${broker_pid[@]}" "${drain_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${broker_pid[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if ((keep_logs)); then
    echo "broker_bench: logs kept in $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every phase and repetition gets its own topic of 6 partitions, and one for a
# retry, created at start-up.
topic_flags=()
for phase in "${phase_list[@]}"; do
  for ((rep = 1; rep <= repeat; rep++)); do
    topic_flags+=(--topic "bench-$phase-$rep:6" --topic "bench-$phase-$rep-retry:6")
  done
done

# start_broker NAME COMMAND...: starts the broker with its stdout on a FIFO, reads
# its ready line ("... listening on HOST:PORT") and times launch-to-ready.
start_broker() {
  local name=$1 fifo=$work/$1.stdout line started ready
  shift
  mkfifo "$fifo"
  exec {fd}<>"$fifo"
  started=$EPOCHREALTIME
  "$@" >"$fifo" 2>"$work/$name.log" &
  broker_pid[$name]=$!
  if ! read -r -t 30 -u "$fd" line; then
    echo "broker_bench: $name printed no ready line within 30 s; its log:" >&2
    tail -20 "$work/$name.log" >&2
    exit 1
  fi
  ready=$EPOCHREALTIME
  cat <&"$fd" >>"$work/$name.log" &  # keep draining its stdout
  drain_pids+=($!)
  broker_address[$name]=${line##* }
  startup_ms[$name]=$(awk -v a="$started" -v b="$ready" 'BEGIN { printf "%.1f", (b - a) * 1000 }')
  echo "broker_bench: $name ready in ${startup_ms[$name]} ms at ${broker_address[$name]}" \
    "(pid ${broker_pid[$name]})" >&2
}

# startup_median NAME COMMAND...: launches the broker 5 more times, each until its
# ready line, and prints the median launch-to-ready time in ms (one launch is noisy
# on a loaded machine).
startup_median() {
  local name=$1 fifo=$work/$1.probe line started ready pid times=()
  shift
  mkfifo "$fifo"
  exec {probe_fd}<>"$fifo"
  for ((i = 0; i < 5; i++)); do
    started=$EPOCHREALTIME
    "$@" >"$fifo" 2>/dev/null &
    pid=$!
    read -r -t 10 -u "$probe_fd" line || { kill "$pid"; echo -; return; }
    ready=$EPOCHREALTIME
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    times+=("$(awk -v a="$started" -v b="$ready" 'BEGIN { printf "%.1f", (b - a) * 1000 }')")
  done
  exec {probe_fd}<&-
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

for target in "${target_list[@]}"; do
  case $target in
    mock) command=("$mock" "${topic_flags[@]}") ;;
    kgroupsd) command=("$kgroupsd" --listen 127.0.0.1:0 "${topic_flags[@]}") ;;
  esac
  start_broker "$target" "${command[@]}"
  # One topic: the mock stalls about 1 s on its second rd_kafka_mock_topic_create.
  startup_ms[$target]=$(startup_median "$target" "${command[@]:0:${#command[@]}-${#topic_flags[@]}}" \
    --topic bench-startup:6)
  echo "broker_bench: $target start-up to ready, median of 5 more launches:" \
    "${startup_ms[$target]} ms" >&2
done

# ---- runs -----------------------------------------------------------------
# results holds one line per run: "target phase rep key=value ..." or
# "target phase rep FAILED reason".
results=$work/results
: >"$results"
# run_client TARGET PHASE REP TOPIC: one client run; appends its line to $results.
run_client() {
  local target=$1 phase=$2 rep=$3 topic=$4 log=$work/client-$1-$2-$4.log status=0 line
  # In the background with `wait`, so that SIGINT/SIGTERM reach the trap at once.
  "$client" --bootstrap "${broker_address[$target]}" --phase "$phase" --topic "$topic" \
    --messages "$messages" --round-messages "$round_messages" \
    --broker-pid "${broker_pid[$target]}" --group-id "group-$topic" >"$log.out" 2>"$log" &
  client_pid=$!
  wait "$client_pid" || status=$?
  client_pid=
  if ((status == 0)); then
    line=$(<"$log.out")
    echo "$target $phase $rep ${line#result }" >>"$results"
  else
    line=$(grep 'FAILED' "$log" | tail -1)
    echo "$target $phase $rep FAILED ${line:-exit status $status}" >>"$results"
    echo "broker_bench: $phase against $target FAILED:" >&2
    grep -v '^%[0-9]|' "$log" | tail -5 >&2 || true
  fi
  if ! kill -0 "${broker_pid[$target]}" 2>/dev/null; then
    echo "broker_bench: $target exited during the $phase phase; its log:" >&2
    tail -20 "$work/$target.log" >&2
    exit 1
  fi
  return "$status"
}

# warm_up TARGET TOPIC: the produce phase once, unmeasured (--warm-up).
warm_up() {
  echo "broker_bench: warm-up: produce against $1, unmeasured..." >&2
  "$client" --bootstrap "${broker_address[$1]}" --phase produce --topic "$2" \
    --messages "$messages" --broker-pid "${broker_pid[$1]}" >/dev/null 2>"$work/warm-up-$1-$2.log" ||
    { echo "broker_bench: the warm-up against $1 failed:" >&2; tail -5 "$work/warm-up-$1-$2.log" >&2; exit 1; }
}

for ((rep = 1; rep <= repeat; rep++)); do
  for phase in "${phase_list[@]}"; do
    for target in "${target_list[@]}"; do
      if ((warm_up)) && [[ $phase == produce ]]; then warm_up "$target" "bench-$phase-$rep"; fi
      echo "broker_bench: $phase against $target (run $rep of $repeat)..." >&2
      if ! run_client "$target" "$phase" "$rep" "bench-$phase-$rep"; then
        echo "broker_bench: retrying once on a fresh topic (the failure stays in the table)" >&2
        run_client "$target" "$phase" "$rep" "bench-$phase-$rep-retry" || true
      fi
    done
  done
done

# ---- report ---------------------------------------------------------------
# median TARGET PHASE KEY: the median of KEY over the successful runs, or "-".
median() {
  awk -v t="$1" -v p="$2" -v k="$3" '
    $1 == t && $2 == p && $4 != "FAILED" {
      for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) v[n++] = kv[2] + 0 }
    }
    END {
      if (n == 0) { print "-"; exit }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
      print (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
    }' "$results"
}
# per_million VALUE MESSAGES: VALUE * 1e6 / MESSAGES, or "-".
per_million() {
  [[ $1 == - ]] && { echo -; return; }
  awk -v v="$1" -v n="$2" 'BEGIN { printf "%.3f", v * 1e6 / n }'
}
# fixed VALUE DECIMALS: VALUE rounded to DECIMALS places, or "-".
fixed() { [[ $1 == - ]] && echo - || printf "%.${2}f" "$1"; }
failures() { awk -v t="$1" -v p="$2" '$1 == t && $2 == p && $4 == "FAILED"' "$results" | wc -l; }

declare -A figure
echo
echo "Broker throughput: $messages messages of 8-byte keys and 100-byte values, 6 partitions," \
  "acks=all; consume/group in rounds of $round_messages; median of $repeat run(s)" \
  "$( ((warm_up)) && echo "; produce after an unmeasured warm-up into the same topic")"
row='%-9s %-8s %10s %7s %10s %10s %10s %8s %12s %6s\n'
printf "$row" target phase 'msgs/s' 'MB/s' 'broker CPU' 'broker CPU' 'client CPU' 'join ms' \
  'after-join' failed
printf "$row" '' '' '' '' 's/1M stat' 's/1M sched' 's/1M' '' 'msgs/s' ''
for phase in "${phase_list[@]}"; do
  for target in "${target_list[@]}"; do
    rate=$(fixed "$(median "$target" "$phase" msgs_per_s)" 0)
    mb=$(fixed "$(median "$target" "$phase" mb_per_s)" 1)
    broker_cpu=$(per_million "$(median "$target" "$phase" broker_cpu_s)" "$messages")
    broker_run=$(per_million "$(median "$target" "$phase" broker_run_s)" "$messages")
    client_cpu=$(per_million "$(median "$target" "$phase" client_cpu_s)" "$messages")
    join=$(fixed "$(median "$target" "$phase" join_ms)" 1)
    after=$(fixed "$(median "$target" "$phase" after_join_msgs_per_s)" 0)
    figure[$target.$phase.rate]=$rate
    figure[$target.$phase.cpu]=$broker_run
    figure[$target.$phase.join]=$join
    figure[$target.$phase.after]=$after
    printf "$row" "$target" "$phase" "$rate" "$mb" "$broker_cpu" "$broker_run" "$client_cpu" \
      "$join" "$after" "$(failures "$target" "$phase")"
  done
done
for target in "${target_list[@]}"; do
  echo "start-up to ready (median of 5 launches): $target ${startup_ms[$target]} ms"
done
if [[ ,$phases, == *,group,* ]]; then
  for target in "${target_list[@]}"; do
    echo "group ($target): first assignment after" \
      "$(fixed "$(median "$target" group assigned_ms)" 1) ms, first message after" \
      "$(fixed "$(median "$target" group join_ms)" 1) ms, every member's first message after" \
      "$(fixed "$(median "$target" group all_joined_ms)" 1) ms"
  done
fi
echo "Broker CPU: utime+stime from /proc/<pid>/stat (10 ms ticks) and the threads' run time" \
  "from /proc/<pid>/task/*/schedstat (ns); the targets use the schedstat figure."

# check NAME VALUE OP LIMIT: prints "PASS"/"MISS" for VALUE OP LIMIT, "n/a" without figures.
check() {
  local name=$1 value=$2 op=$3 limit=$4 verdict
  if [[ $value == - || $limit == - || -z $value || -z $limit ]]; then
    verdict=n/a
  elif awk -v v="$value" -v l="$limit" -v op="$op" \
    'BEGIN { exit !((op == ">=" && v >= l) || (op == "<=" && v <= l) || (op == "<" && v < l)) }'; then
    verdict=PASS
  else
    verdict=MISS
  fi
  printf '  %-4s %-52s %s %s %s\n' "$verdict" "$name" "$value" "$op" "$limit"
}
ratio() {
  [[ $1 == - || $2 == - ]] && { echo -; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'
}
half() { [[ $1 == - ]] && echo - || awk -v v="$1" 'BEGIN { printf "%.3f", v / 2 }'; }

if [[ ,$targets, == *,kgroupsd,* ]]; then
  echo
  echo "Targets (kgroupsd vs mock):"
  check "kgroupsd start-up to ready (ms)" "${startup_ms[kgroupsd]}" "<" 50
  for phase in "${phase_list[@]}"; do
    if [[ ,$targets, == *,mock,* ]]; then
      echo "  $phase: throughput ratio kgroupsd/mock" \
        "$(ratio "${figure[kgroupsd.$phase.rate]}" "${figure[mock.$phase.rate]}")," \
        "broker CPU ratio kgroupsd/mock" \
        "$(ratio "${figure[kgroupsd.$phase.cpu]}" "${figure[mock.$phase.cpu]}")"
    fi
    if [[ $phase == group ]]; then
      check "group join (ms)" "${figure[kgroupsd.group.join]}" "<" 100
      [[ ,$targets, == *,mock,* ]] || continue
      check "group msgs/s after the join >= mock" "${figure[kgroupsd.group.after]}" ">=" \
        "${figure[mock.group.after]}"
    else
      [[ ,$targets, == *,mock,* ]] || continue
      check "$phase msgs/s >= mock" "${figure[kgroupsd.$phase.rate]}" ">=" \
        "${figure[mock.$phase.rate]}"
    fi
    check "$phase broker CPU s per 1M msgs <= half the mock's" \
      "${figure[kgroupsd.$phase.cpu]}" "<=" "$(half "${figure[mock.$phase.cpu]}")"
    if [[ $phase == produce ]]; then
      # The copy the broker cannot avoid: memcpy of the same key and value bytes, timed by
      # the client after each produce run (issue 32: at most 2x).
      memcpy_cpu=$(per_million "$(median kgroupsd produce memcpy_s)" "$messages")
      echo "  produce: memcpy of the same bytes $memcpy_cpu s per 1M msgs; broker CPU / memcpy:" \
        "kgroupsd $(ratio "${figure[kgroupsd.produce.cpu]}" "$memcpy_cpu")," \
        "mock $(ratio "${figure[mock.produce.cpu]:--}" "$memcpy_cpu")"
      check "produce broker CPU per MB <= 2x a memcpy of the bytes" \
        "$(ratio "${figure[kgroupsd.produce.cpu]}" "$memcpy_cpu")" "<=" 2
    fi
  done
fi
# A failed kgroupsd run (lost, duplicated or altered messages, or an error) fails
# the benchmark; so does a phase without any successful run. The mock's own
# failures are listed but tolerated: librdkafka 2.0.2's mock sometimes leaves a
# group member without its assignment until its session times out, then rejects
# the other member's commit with REBALANCE_IN_PROGRESS, so messages repeat.
status=0
if grep -q ' FAILED' "$results"; then
  echo
  echo "Failed runs:"
  awk '$4 == "FAILED" { $4 = ""; print "  " $0 }' "$results"
  grep -q '^kgroupsd [a-z]* [0-9]* FAILED' "$results" && status=1
fi
for phase in "${phase_list[@]}"; do
  for target in "${target_list[@]}"; do
    [[ ${figure[$target.$phase.rate]} == - ]] && status=1
  done
done
exit "$status"
