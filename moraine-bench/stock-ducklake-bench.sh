#!/usr/bin/env bash
# Moraine against stock DuckLake, one run: N appenders committing small appends to one shared
# table, at 1, 8, 16 and 32 appenders, on four configurations in turn:
#   stock-duckdb-file  DuckDB 1.5.5 + DuckLake 1.5.5, the catalog a DuckDB file
#   stock-postgres     the same with a PostgreSQL catalog (Debian's postgresql server)
#   moraine-local      Moraine on a local directory, fsync on
#   moraine-s3         Moraine on S3Proxy, every PUT delayed by 25 ms
# Each commit inserts ROWS rows, inlined into the catalog on both sides (see BENCHMARK.md). Prints
# progress while it runs and the side-by-side table at the end; every figure also goes to a CSV.
#
# What it sets up, and removes again when it ends:
#   - DuckDB's ducklake and postgres_scanner extensions, fetched from PyPI into the cache the build
#     uses (~/.cache/moraine/duckdb-extensions/v<version>/) when absent;
#   - PostgreSQL: Debian's postgresql package is installed when no server binaries are found
#     (apt-get, as root); a cluster is initdb'ed in a temporary directory and started on a free
#     loopback port (as the user postgres when run as root: the server refuses root), with one
#     empty database per appender count; stopped and removed afterwards;
#   - S3Proxy: the runnable jar moraine-store's tests embed, started on a free loopback port with
#     its filesystem backend in a temporary directory; stopped and removed afterwards.
#
# Needs, built beforehand from the repository root:
#   mvn -B -q package -pl moraine-bench -am -DskipTests
#   (moraine-bench/target/benchmarks.jar and moraine-bench/target/stock-bench/)
# Environment: SIDES (default "stock-duckdb-file stock-postgres moraine-local moraine-s3"),
# APPENDERS (default 1,8,16,32), ROWS (rows per commit, default 4), WARMUP_S (default 5),
# MEASURE_S (default 30), MORAINE_CONFIGS (Moraine's configurations, each <flush spacing ms>:<on|off>
# for checkpoint publication, default "0:on,100:on,0:off"; on is the catalog's default), PUT_LATENCY_MS
# (default 25), CSV (default moraine-bench/target/stock-ducklake-bench-<run>.csv, appended to),
# JAR (the benchmarks jar), WORK (a scratch directory, default a new one under /tmp).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jar=${JAR:-$root/moraine-bench/target/benchmarks.jar}
extra=$root/moraine-bench/target/stock-bench
sides=${SIDES:-stock-duckdb-file stock-postgres moraine-local moraine-s3}
appenders=${APPENDERS:-1,8,16,32}
rows=${ROWS:-4}
warmup=${WARMUP_S:-5}
measure=${MEASURE_S:-30}
configs=${MORAINE_CONFIGS:-0:on,100:on,0:off}
put_latency=${PUT_LATENCY_MS:-25}
run=$(date -u +%Y-%m-%dT%H:%M:%SZ)
csv=${CSV:-$root/moraine-bench/target/stock-ducklake-bench-${run//:/}.csv}
for f in "$jar" "$extra/classpath.txt" "$extra/s3proxy.jar"; do
  [[ -e $f ]] || { echo "stock-ducklake-bench: $f is missing; build it first (see the header)" >&2; exit 1; }
done
classpath="$jar:$(cat "$extra/classpath.txt")"
# Arrow (Moraine's inlined rows) needs java.nio's internals on JDK 17 (README, "Embedding").
jvm=(--add-opens=java.base/java.nio=ALL-UNNAMED)

say() { echo "== $*"; }
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ---- the extensions -------------------------------------------------------------------------
version=$(sed -n 's:.*<ducklake.extension.version>\(.*\)</ducklake.extension.version>.*:\1:p' "$root/pom.xml")
cache=${MORAINE_DUCKDB_EXTENSION_CACHE:-$HOME/.cache/moraine/duckdb-extensions}/v$version
for ext in ducklake postgres_scanner; do
  bash "$root/moraine-duckdb/src/build/fetch-duckdb-extension.sh" "$ext" "$version" "$cache/$ext.duckdb_extension"
done

# ---- PostgreSQL -----------------------------------------------------------------------------
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [[ -z $(pg_bin) ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "stock-ducklake-bench: no PostgreSQL server under /usr/lib/postgresql; install Debian's postgresql package" >&2
    exit 1
  fi
  say "installing Debian's postgresql package"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql ||
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; }
fi
pgbin=$(pg_bin)
as_pg=()
if [[ $(id -u) -eq 0 ]]; then
  as_pg=(runuser -u postgres --)
fi

if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/stock-ducklake-bench.XXXXXX)
fi
pgdir=$(mktemp -d /tmp/stock-ducklake-pg.XXXXXX)
cleanup() {
  set +e
  if [[ -f $pgdir/data/postmaster.pid ]]; then
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null
  fi
  if declare -F s3proxy_stop >/dev/null; then
    s3proxy_stop
  fi
  rm -rf "$pgdir"
  [[ -n ${WORK:-} ]] || rm -rf "$work"
}
trap cleanup EXIT
if [[ $(id -u) -eq 0 ]]; then
  chown postgres: "$pgdir"
fi
pgport=$(free_port)
say "PostgreSQL: initdb in $pgdir, server on 127.0.0.1:$pgport"
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -U postgres --auth=trust -E UTF8 >/dev/null
# The cluster keeps initdb's defaults, fsync and synchronous_commit on among them; only where it
# listens, and room for 32 DuckDB instances' connections, are set here.
cat >>"$pgdir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $pgport
unix_socket_directories = '$pgdir'
max_connections = 400
log_line_prefix = '%m [%p] '
EOF
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w start >/dev/null
IFS=, read -ra counts <<<"$appenders"
for n in "${counts[@]}"; do
  "${as_pg[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres "ducklake_bench_$n"
done

# ---- S3Proxy --------------------------------------------------------------------------------
S3PROXY_JAR=$extra/s3proxy.jar
source "$root/moraine-bench/s3proxy.sh"
s3proxy_start "$work/s3proxy" moraine-bench
say "S3Proxy: filesystem backend in $work/s3proxy/data, listening on $S3PROXY_ENDPOINT"

# ---- the run --------------------------------------------------------------------------------
say "run $run: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
say "$(java -version 2>&1 | head -n 1); $("$pgbin/postgres" --version); appenders $appenders, $rows rows a commit, warm-up $warmup s, measured $measure s"
say "CSV: $csv"
common=(--appenders "$appenders" --rows "$rows" --warmup-s "$warmup" --measure-s "$measure"
  --csv "$csv" --run "$run")
for side in $sides; do
  case $side in
    stock-duckdb-file)
      args=(--work "$work" --ducklake-extension "$cache/ducklake.duckdb_extension") ;;
    stock-postgres)
      args=(--work "$work" --ducklake-extension "$cache/ducklake.duckdb_extension"
        --postgres-extension "$cache/postgres_scanner.duckdb_extension"
        --pg "host=127.0.0.1 port=$pgport user=postgres" --pg-database-prefix ducklake_bench_
        --pg-log "$pgdir/server.log") ;;
    moraine-local)
      args=(--work "$work" --configs "$configs") ;;
    moraine-s3)
      args=(--s3-endpoint "$S3PROXY_ENDPOINT" --s3-bucket moraine-bench
        --s3-access-key "$S3PROXY_ACCESS_KEY" --s3-secret-key "$S3PROXY_SECRET_KEY"
        --put-latency-ms "$put_latency" --configs "$configs") ;;
    *)
      echo "stock-ducklake-bench: unknown side $side" >&2
      exit 2 ;;
  esac
  say "$side"
  java "${jvm[@]}" -cp "$classpath" dev.moraine.bench.StockDuckLakeBench "$side" "${args[@]}" "${common[@]}"
done

say "finished $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -cp "$jar" dev.moraine.bench.StockDuckLakeBench summary "$csv" "$run"
