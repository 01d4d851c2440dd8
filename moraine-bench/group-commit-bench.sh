#!/usr/bin/env bash
# Group commit under load, Java and the Rust crate on the same points, one run.
#
# Both harnesses drive N concurrent committers through one catalog, each commit registering one
# small data file (10 rows, 900 bytes, footer 300) into one shared table (or one table per
# committer with TABLES=separate), on a fresh store per point: a warm-up, then a measured window.
# Java: dev.moraine.bench.GroupCommitBench (one OS thread per committer, its coalescer).
# Rust: moraine-group-bench (one tokio task per committer calling moraine 0.7.0's own
# Catalog::commit, its coalescer). The two take turns per (store, spacing): the Java harness
# runs every concurrency of that pair, then the Rust harness does, then the next pair, so both
# sides of a ratio are measured within minutes of each other on a machine whose load may drift.
#
# Writes into RESULTS: java.csv and rust.csv (the harnesses' own CSV, one header each), java.log
# and rust.log (their progress lines), load.txt (the load average before each turn and at the
# end) and ratios.txt (what is printed at the end: per point, each side's commits/s, commits per
# WAL PUT, p50/p99 latency and CPU per commit, and Java/Rust commits/s).
#
# Fsync: the local store fsyncs on both sides, local-nofsync on neither, and the memory stores
# have nothing to sync. The crate publishes no checkpoint per commit, so PUBLISH=off (the
# default) is the like-for-like comparison; PUBLISH=on runs the Java side with publication and
# its ratio then compares a stronger guarantee with a weaker one.
#
# Needs, built beforehand from the repository root:
#   mvn -B -q package -pl moraine-bench -am -DskipTests      (moraine-bench/target/benchmarks.jar)
#   (cd moraine-store/native && cargo build --release --locked -p moraine-oracle)
#                                   (moraine-store/native/target/release/moraine-group-bench)
# S3: the stores s3 and s3-put25ms (the second adds 25 ms to every PUT) run the Java side only, on
# an S3Proxy this script starts on loopback (moraine-bench/s3proxy.sh) with a filesystem backend
# under RESULTS; the Rust harness has no S3 client, so those points have no ratio.
#
# Environment: STORES (default local-nofsync,memory; also local, memory-put25ms, s3, s3-put25ms), SPACINGS
# (flush spacings in ms, default 0,100), CONCURRENCY (default 1,2,4,8,16,32,64,128,256), TABLES
# (shared or separate, default shared), PUBLISH (the Java side's publication, default off),
# WARMUP and POINT_SECONDS (per point, default 2 and 5), RESULTS (default a new directory under
# moraine-bench/target/group-commit-bench/), JAR (the benchmarks jar, default the one above),
# RUST (the Rust harness, default moraine-group-bench under CARGO_TARGET_DIR, itself defaulting
# to moraine-store/native/target), JAVA_OPTS (extra JVM options), WORKERS (the Rust runtime's
# worker threads, default the machine's cores).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jar=${JAR:-$root/moraine-bench/target/benchmarks.jar}
rust=${RUST:-${CARGO_TARGET_DIR:-$root/moraine-store/native/target}/release/moraine-group-bench}
stores=${STORES:-local-nofsync,memory}
spacings=${SPACINGS:-0,100}
concurrency=${CONCURRENCY:-1,2,4,8,16,32,64,128,256}
tables=${TABLES:-shared}
publish=${PUBLISH:-off}
warmup=${WARMUP:-2}
seconds=${POINT_SECONDS:-5}
for f in "$jar" "$rust"; do
  [[ -e $f ]] || { echo "group-commit-bench: $f is missing; build it first (see the header)" >&2; exit 1; }
done
case $publish in on|off) ;; *) echo "group-commit-bench: PUBLISH is on or off" >&2; exit 1 ;; esac
results=${RESULTS:-$root/moraine-bench/target/group-commit-bench/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$results"
rust_args=()
[[ -n ${WORKERS:-} ]] && rust_args+=(--workers "$WORKERS")
java_props=()
if [[ ,$stores, == *,s3,* || ,$stores, == *,s3-put25ms,* ]]; then
  S3PROXY_JAR=${S3PROXY_JAR:-$root/moraine-bench/target/stock-bench/s3proxy.jar}
  source "$root/moraine-bench/s3proxy.sh"
  trap s3proxy_stop EXIT
  s3proxy_start "$results/s3proxy" moraine-bench
  echo "# S3Proxy on $S3PROXY_ENDPOINT, backend in $results/s3proxy/data" >&2
  java_props=(-Dmoraine.bench.s3.endpoint="$S3PROXY_ENDPOINT" -Dmoraine.bench.s3.bucket=moraine-bench
    -Dmoraine.bench.s3.access-key="$S3PROXY_ACCESS_KEY" -Dmoraine.bench.s3.secret-key="$S3PROXY_SECRET_KEY")
fi

common=(--concurrency "$concurrency" --tables "$tables" --warmup "$warmup" --seconds "$seconds")
: >"$results/java.log"
: >"$results/rust.log"
: >"$results/load.txt"
load() { # load <label>
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $1 load=$(cat /proc/loadavg)" | tee -a "$results/load.txt" >&2
}
# Appends one run's CSV to the side's file, keeping only the first header.
append() { # append <part> <file>
  if [[ -s $2 ]]; then tail -n +2 "$1" >>"$2"; else cat "$1" >"$2"; fi
  rm -f "$1"
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) nproc=$(nproc) stores=$stores spacings=$spacings" \
  "concurrency=$concurrency tables=$tables java_publish=$publish warmup=${warmup}s" \
  "seconds=${seconds}s results=$results" >&2
rm -f "$results/java.csv" "$results/rust.csv"
IFS=, read -r -a store_list <<<"$stores"
IFS=, read -r -a spacing_list <<<"$spacings"
for store in "${store_list[@]}"; do
  for spacing in "${spacing_list[@]}"; do
    load "java $store spacing=$spacing"
    java ${JAVA_OPTS:-} ${java_props[@]+"${java_props[@]}"} -cp "$jar" dev.moraine.bench.GroupCommitBench --stores "$store" \
      --spacings "$spacing" --publish "$publish" "${common[@]}" --csv "$results/java.part" \
      2>&1 | tee -a "$results/java.log" >&2
    append "$results/java.part" "$results/java.csv"
    [[ $store == s3 || $store == s3-put25ms ]] && continue
    load "rust $store spacing=$spacing"
    "$rust" --stores "$store" --spacings "$spacing" --publish off "${common[@]}" \
      ${rust_args[@]+"${rust_args[@]}"} --csv "$results/rust.part" \
      2>&1 | tee -a "$results/rust.log" >&2
    append "$results/rust.part" "$results/rust.csv"
  done
done
load end

# Side by side, joined on store, spacing, concurrency and tables.
awk -F, '
  FNR == 1 { next }
  FILENAME ~ /java\.csv$/ { key = $1 FS $2 FS $4 FS $5; j[key] = $0; order[++n] = key; next }
  { r[$1 FS $2 FS $4 FS $5] = $0 }
  END {
    printf "%-14s %7s %5s %-8s | %9s %9s %6s | %7s %7s | %7s %7s | %8s %8s | %7s %7s\n",
      "store", "spacing", "n", "tables", "java c/s", "rust c/s", "j/r",
      "j c/PUT", "r c/PUT", "j p50", "r p50", "j p99", "r p99", "j us", "r us"
    for (i = 1; i <= n; i++) {
      key = order[i]
      split(j[key], a, FS)
      if (!(key in r)) { printf "%-14s %7s %5s %-8s | %9.0f %9s\n", a[1], a[2] " ms", a[4], a[5], a[8], "-"; continue }
      split(r[key], b, FS)
      printf "%-14s %7s %5s %-8s | %9.0f %9.0f %6.2f | %7.1f %7.1f | %7.2f %7.2f | %8.2f %8.2f | %7.0f %7.0f\n",
        a[1], a[2] " ms", a[4], a[5], a[8], b[8], (b[8] > 0 ? a[8] / b[8] : 0),
        a[10], b[10], a[12], b[12], a[13], b[13], a[14], b[14]
    }
  }' "$results/java.csv" "$results/rust.csv" | tee "$results/ratios.txt"
echo "# java publish=$publish; rust publishes none; c/PUT = commits per WAL PUT; latencies in ms;" \
  "us = process CPU microseconds per commit; results in $results" | tee -a "$results/ratios.txt"
