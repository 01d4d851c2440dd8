#!/usr/bin/env bash
# Equality-index commit cost, Java and Rust side by side in one run.
#
# For 0, 1 and 3 indexes on main.events (id, name, ok): each implementation creates the table and
# the indexes in a new lake in a local directory, then inlines one row a commit, WARMUP and then
# SAMPLES times, with a WAL flush a commit (the Java side with flush spacing zero and no checkpoint
# publication, as the Rust side commits). The two sides alternate, Java then Rust, for each count,
# ROUNDS times. Then the lookup benchmark: ROWS rows in one file, two indexes built from it, LOOKUPS
# lookups of each.
#
# Needs, built beforehand from the repository root:
#   mvn -B -q package -pl moraine-bench -am -DskipTests      (moraine-bench/target/benchmarks.jar)
#   (cd moraine-store/native && cargo build --release --locked -p moraine-oracle)
# Environment: WARMUP (default 2000), SAMPLES (default 3000), ROUNDS (default 2), ROWS (default
# 1000000), LOOKUPS (default 20000), WORK (a scratch directory, default a new one under /tmp,
# removed afterwards), JAVA_OPTS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jar=${JAR:-$root/moraine-bench/target/benchmarks.jar}
rust=$root/moraine-store/native/target/release/moraine-index-bench
warmup=${WARMUP:-2000}
samples=${SAMPLES:-3000}
rounds=${ROUNDS:-2}
rows=${ROWS:-1000000}
lookups=${LOOKUPS:-20000}
for f in "$jar" "$rust"; do
  [[ -e $f ]] || { echo "index-commit-bench: $f is missing; build it first (see the header)" >&2; exit 1; }
done
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/index-commit-bench.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
java_run() {
  java --add-opens=java.base/java.nio=ALL-UNNAMED ${JAVA_OPTS:-} -cp "$jar" "$@" 2>/dev/null
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) warmup=$warmup samples=$samples rounds=$rounds nproc=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for k in 0 1 3; do
    java_run dev.moraine.bench.IndexCommitBench "$work/j$round-$k" "$k" "$warmup" "$samples" | grep '^impl='
    "$rust" run "$work/r$round-$k" "$k" "$warmup" "$samples"
    rm -rf "$work/j$round-$k" "$work/r$round-$k"
  done
done
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) lookups: rows=$rows lookups=$lookups load=$(cut -d' ' -f1 /proc/loadavg)"
java_run dev.moraine.bench.IndexLookupBench "$work/lookup" "$rows" "$lookups" | grep -E '^(rows|index)='
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) done load=$(cut -d' ' -f1 /proc/loadavg)"
