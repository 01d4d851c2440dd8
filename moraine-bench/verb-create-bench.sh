#!/usr/bin/env bash
# Create-one-table commit cost against catalog size, two builds of the library on copies of one
# lake, one run.
#
# For each size N (default 100 10000 100000): the current build creates a lake of N one-column
# tables in main through the verbs (PER_COMMIT tables a commit), the directory is copied, and each
# build then commits WARMUP and SAMPLES times on its own copy, each commit creating one table in
# main with a WAL flush (dev.moraine.bench.VerbCreateBench). Prints each build's figures per
# commit, the ratio between them, and each build's scaling from the smallest size.
#
# Needs, built beforehand:
#   mvn -B -q package -pl moraine-bench -am -DskipTests      (moraine-bench/target/benchmarks.jar)
#   BEFORE_JAR: the benchmarks.jar of the build to compare with (VerbCreateBench is compiled
#   against it here, since it uses only the public API).
# Environment: SIZES, PER_COMMIT (default 10000), WARMUP (default 200), SAMPLES (default 300),
# NATIVE_LIB (passed to both builds as -Dmoraine.native.lib when set), WORK (a scratch directory,
# default a new one under /tmp, removed afterwards).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
after=$root/moraine-bench/target/benchmarks.jar
before=${BEFORE_JAR:?set BEFORE_JAR to the benchmarks.jar to compare with}
sizes=${SIZES:-100 10000 100000}
per_commit=${PER_COMMIT:-10000}
warmup=${WARMUP:-200}
samples=${SAMPLES:-300}
for f in "$after" "$before"; do
  [[ -e $f ]] || { echo "verb-create-bench: $f is missing; build it first (see the header)" >&2; exit 1; }
done
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/verb-create-bench.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
native=()
[[ -n ${NATIVE_LIB:-} ]] && native=("-Dmoraine.native.lib=$NATIVE_LIB")
main=dev.moraine.bench.VerbCreateBench
rm -rf "$work/before-classes"
javac -d "$work/before-classes" -cp "$before" "$root/moraine-bench/src/main/java/dev/moraine/bench/VerbCreateBench.java"

field() { # field <line> <key>
  sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) per_commit=$per_commit warmup=$warmup samples=$samples nproc=$(nproc)"
declare -A a_cpu a_alloc b_cpu b_alloc
for n in $sizes; do
  rm -rf "$work/lake-$n" "$work/before-$n" "$work/after-$n"
  java "${native[@]}" -cp "$after" $main build "$work/lake-$n" "$n" "$per_commit"
  cp -a "$work/lake-$n" "$work/before-$n"
  cp -a "$work/lake-$n" "$work/after-$n"
  b=$(java "${native[@]}" -cp "$work/before-classes:$before" $main run "$work/before-$n" "$warmup" "$samples")
  a=$(java "${native[@]}" -cp "$after" $main run "$work/after-$n" "$warmup" "$samples")
  echo "build=before $b"
  echo "build=after $a"
  a_cpu[$n]=$(field "$a" thread_cpu_us); a_alloc[$n]=$(field "$a" alloc_bytes)
  b_cpu[$n]=$(field "$b" thread_cpu_us); b_alloc[$n]=$(field "$b" alloc_bytes)
  awk -v n="$n" -v ac="${a_cpu[$n]}" -v bc="${b_cpu[$n]}" -v aa="${a_alloc[$n]}" \
    -v ba="${b_alloc[$n]}" -v ap="$(field "$a" process_cpu_us)" -v bp="$(field "$b" process_cpu_us)" 'BEGIN {
      printf "ratio tables=%s before/after thread_cpu=%.2f heap_alloc=%.2f process_cpu=%.2f\n",
        n, bc / ac, ba / aa, bp / ap }'
  rm -rf "$work/lake-$n" "$work/before-$n" "$work/after-$n"
done
set -- $sizes
first=$1
for n in $sizes; do
  awk -v n="$n" -v f="$first" -v ac="${a_cpu[$n]}" -v ac0="${a_cpu[$first]}" \
    -v aa="${a_alloc[$n]}" -v aa0="${a_alloc[$first]}" -v bc="${b_cpu[$n]}" \
    -v bc0="${b_cpu[$first]}" -v ba="${b_alloc[$n]}" -v ba0="${b_alloc[$first]}" 'BEGIN {
      printf "scaling tables=%s vs %s after: thread_cpu=%.2fx heap_alloc=%.2fx before: thread_cpu=%.2fx heap_alloc=%.2fx\n",
        n, f, ac / ac0, aa / aa0, bc / bc0, ba / ba0 }'
done
