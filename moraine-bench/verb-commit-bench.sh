#!/usr/bin/env bash
# Verb commit cost against catalog size, Java and Rust on copies of one lake, one run.
#
# For each size N (default 100 10000 100000): the Rust implementation builds a lake of the
# table main.target and N unrelated tables in a local directory (moraine-verb-bench build), the
# directory is copied, and each implementation then commits WARMUP and SAMPLES times on its own
# copy, each commit updating main.target's table statistics and its column's statistics with a
# WAL flush. Prints each side's figures per commit and the ratios.
#
# Needs, built beforehand from the repository root:
#   mvn -B -q package -pl moraine-bench -am -DskipTests      (moraine-bench/target/benchmarks.jar)
#   (cd moraine-store/native && cargo build --release --locked -p moraine-oracle)
# Environment: SIZES, WARMUP (default 3000), SAMPLES (default 3000), WORK (a scratch directory,
# default a new one under /tmp, removed afterwards), JAR (the benchmarks jar to run, default the
# one above; a copy of an earlier build gives a before/after on the same lakes and machine).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jar=${JAR:-$root/moraine-bench/target/benchmarks.jar}
rust=$root/moraine-store/native/target/release/moraine-verb-bench
sizes=${SIZES:-100 10000 100000}
warmup=${WARMUP:-3000}
samples=${SAMPLES:-3000}
for f in "$jar" "$rust"; do
  [[ -e $f ]] || { echo "verb-commit-bench: $f is missing; build it first (see the header)" >&2; exit 1; }
done
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/verb-commit-bench.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi

field() { # field <line> <key>
  sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) warmup=$warmup samples=$samples nproc=$(nproc)"
declare -A java_cpu java_alloc java_process rust_process
for n in $sizes; do
  rm -rf "$work/rust-$n" "$work/java-$n"
  "$rust" build "$work/rust-$n" "$n"
  cp -a "$work/rust-$n" "$work/java-$n"
  r=$("$rust" run "$work/rust-$n" "$warmup" "$samples")
  j=$(java -cp "$jar" dev.moraine.bench.VerbCommitBench "$work/java-$n" "$warmup" "$samples")
  echo "$r"
  echo "$j"
  # The store's native runtime against the Rust process's runtime workers (tokio's own thread
  # name), each from its side's per-thread line.
  rw=$(sed -n 's/.*thread\[tokio-rt-worker\]_us=\([^ ]*\).*/\1/p' <<<"$r")
  awk -v n="$n" -v jr="$(field "$j" runtime_threads_cpu_us)" -v jj="$(field "$j" jit_gc_threads_cpu_us)" \
    -v rw="${rw:-0}" 'BEGIN {
      printf "runtime tables=%s java_runtime_threads_us=%.1f rust_runtime_workers_us=%.1f java_jit_gc_us=%.1f\n",
        n, jr, rw, jj }'
  java_cpu[$n]=$(field "$j" thread_cpu_us)
  java_alloc[$n]=$(field "$j" alloc_bytes)
  java_process[$n]=$(field "$j" process_cpu_us)
  rust_process[$n]=$(field "$r" process_cpu_us)
  awk -v n="$n" -v jp="$(field "$j" process_cpu_us)" -v jt="$(field "$j" thread_cpu_us)" \
    -v rp="$(field "$r" process_cpu_us)" -v ja="$(field "$j" alloc_bytes)" \
    -v ra="$(field "$r" alloc_bytes)" 'BEGIN {
      printf "ratio tables=%s java_process_cpu/rust_process_cpu=%.2f java_thread_cpu/rust_process_cpu=%.2f java_heap_alloc/rust_alloc=%.2f\n",
        n, jp / rp, jt / rp, ja / ra }'
  rm -rf "$work/rust-$n" "$work/java-$n"
done
set -- $sizes
first=$1
for n in $sizes; do
  awk -v n="$n" -v f="$first" -v c="${java_cpu[$n]}" -v c0="${java_cpu[$first]}" \
    -v a="${java_alloc[$n]}" -v a0="${java_alloc[$first]}" \
    -v p="${java_process[$n]}" -v p0="${java_process[$first]}" \
    -v r="${rust_process[$n]}" -v r0="${rust_process[$first]}" 'BEGIN {
      printf "scaling tables=%s vs %s java_thread_cpu=%.2fx java_heap_alloc=%.2fx java_process_cpu=%.2fx rust_process_cpu=%.2fx\n",
        n, f, c / c0, a / a0, p / p0, r / r0 }'
done
