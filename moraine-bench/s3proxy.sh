# S3Proxy for the benchmark scripts, sourced by them (not run on its own).
#
#   s3proxy_start <directory> <bucket>   starts the runnable jar moraine-store's tests embed
#       (copied to moraine-bench/target/stock-bench/s3proxy.jar by the benchmarks' build) on a free
#       loopback port, its filesystem backend in <directory>, with one empty bucket; sets
#       S3PROXY_ENDPOINT, S3PROXY_ACCESS_KEY, S3PROXY_SECRET_KEY and S3PROXY_PID.
#   s3proxy_stop                         stops it again (the directory is the caller's to remove).
#
# A PUT is acknowledged once S3Proxy has written the object to the directory, without fsync.

s3proxy_jar=${S3PROXY_JAR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/target/stock-bench/s3proxy.jar}

s3proxy_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

s3proxy_start() { # s3proxy_start <directory> <bucket>
  local dir=$1 bucket=$2 port deadline
  [[ -e $s3proxy_jar ]] || { echo "s3proxy: $s3proxy_jar is missing; build the benchmarks first" >&2; return 1; }
  port=$(s3proxy_free_port)
  mkdir -p "$dir/data/$bucket"
  cat >"$dir/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=bench-access
s3proxy.credential=bench-secret
s3proxy.ignore-unknown-headers=true
jclouds.provider=filesystem
jclouds.filesystem.basedir=$dir/data
CONF
  java -jar "$s3proxy_jar" --properties "$dir/s3proxy.conf" >"$dir/s3proxy.log" 2>&1 &
  S3PROXY_PID=$!
  deadline=$((SECONDS + 60))
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    if ((SECONDS > deadline)) || ! kill -0 "$S3PROXY_PID" 2>/dev/null; then
      echo "s3proxy: not listening on port $port (log: $dir/s3proxy.log)" >&2
      return 1
    fi
    sleep 0.2
  done
  S3PROXY_ENDPOINT=http://127.0.0.1:$port
  S3PROXY_ACCESS_KEY=bench-access
  S3PROXY_SECRET_KEY=bench-secret
}

s3proxy_stop() {
  if [[ -n ${S3PROXY_PID:-} ]]; then
    kill "$S3PROXY_PID" 2>/dev/null || true
    wait "$S3PROXY_PID" 2>/dev/null || true
    S3PROXY_PID=
  fi
}
