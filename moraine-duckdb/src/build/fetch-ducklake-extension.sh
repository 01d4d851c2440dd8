#!/usr/bin/env bash
# Fetches the DuckLake extension for DuckDB into a local cache, unattended.
#
# DuckDB's own extension server is not assumed to be reachable. The same binary
# is published on PyPI as the wheel `duckdb-extension-ducklake`, whose version
# equals the DuckDB version it was built for. This script downloads that wheel
# with pip and extracts ducklake.duckdb_extension from it.
#
# Usage: fetch-ducklake-extension.sh <extension version> <target file>
#   e.g. fetch-ducklake-extension.sh 1.5.5 ~/.cache/moraine/duckdb-extensions/v1.5.5/ducklake.duckdb_extension
#
# Idempotent: when <target file> already exists nothing is downloaded.
# Environment: PYTHON (default python3) chooses the interpreter whose pip is used;
# MORAINE_PIP_ARGS adds arguments to `pip download` (an index URL, a proxy, ...).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <extension version> <target file>" >&2
  exit 2
fi
version="$1"
target="$2"

if [[ -s "$target" ]]; then
  echo "ducklake extension ${version}: present at ${target}"
  exit 0
fi

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  echo "fetch-ducklake-extension: ${python} not found; install Python 3 with pip, or put the extension at ${target}" >&2
  exit 1
fi

target_dir="$(dirname "$target")"
mkdir -p "$target_dir"
work="$(mktemp -d "${target_dir}/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "ducklake extension ${version}: downloading wheel duckdb-extension-ducklake==${version}"
# shellcheck disable=SC2086
"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --dest "$work" ${MORAINE_PIP_ARGS:-} \
  "duckdb-extension-ducklake==${version}"

# Extract with Python's zipfile so that no unzip binary is needed. The member
# sits at duckdb_extension_ducklake/extensions/v<version>/ducklake.duckdb_extension.
"$python" - "$work" "$work/ducklake.duckdb_extension" <<'PY'
import glob, shutil, sys, zipfile
work, out = sys.argv[1], sys.argv[2]
wheels = glob.glob(work + "/*.whl")
if len(wheels) != 1:
    sys.exit("expected one wheel in %s, found %r" % (work, wheels))
with zipfile.ZipFile(wheels[0]) as wheel:
    members = [n for n in wheel.namelist() if n.endswith("/ducklake.duckdb_extension")]
    if len(members) != 1:
        sys.exit("expected one ducklake.duckdb_extension in %s, found %r" % (wheels[0], members))
    with wheel.open(members[0]) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    print("extracted " + members[0])
PY

# Rename into place last, so that a reader never sees a half-written file.
mv -f "$work/ducklake.duckdb_extension" "$target"
echo "ducklake extension ${version}: installed at ${target}"
