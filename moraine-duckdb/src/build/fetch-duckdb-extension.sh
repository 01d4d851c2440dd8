#!/usr/bin/env bash
# Fetches one of DuckDB's extensions into a local cache, unattended.
#
# DuckDB's own extension server is not assumed to be reachable. Its extensions
# are published on PyPI as wheels named `duckdb-extension-<name>` (underscores
# in the name become dashes: postgres_scanner is duckdb-extension-postgres-scanner),
# whose version equals the DuckDB version they were built for. This script
# downloads that wheel with pip and extracts <name>.duckdb_extension from it.
# DuckDB finds an extension's entry point by its file name, so the file keeps
# the extension's own name (postgres_scanner, not its alias postgres).
#
# Usage: fetch-duckdb-extension.sh <extension name> <version> <target file>
#   e.g. fetch-duckdb-extension.sh ducklake 1.5.5 ~/.cache/moraine/duckdb-extensions/v1.5.5/ducklake.duckdb_extension
#        fetch-duckdb-extension.sh postgres_scanner 1.5.5 ~/.cache/moraine/duckdb-extensions/v1.5.5/postgres_scanner.duckdb_extension
#
# Idempotent: when <target file> already exists nothing is downloaded.
# Environment: PYTHON (default python3) chooses the interpreter whose pip is used;
# MORAINE_PIP_ARGS adds arguments to `pip download` (an index URL, a proxy, ...).
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <extension name> <version> <target file>" >&2
  exit 2
fi
name="$1"
version="$2"
target="$3"
if [[ ! $name =~ ^[a-z0-9_]+$ ]]; then
  echo "fetch-duckdb-extension: not an extension name: ${name}" >&2
  exit 2
fi
package="duckdb-extension-${name//_/-}"
file="${name}.duckdb_extension"

if [[ -s "$target" ]]; then
  echo "${name} extension ${version}: present at ${target}"
  exit 0
fi

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  echo "fetch-duckdb-extension: ${python} not found; install Python 3 with pip, or put the extension at ${target}" >&2
  exit 1
fi

target_dir="$(dirname "$target")"
mkdir -p "$target_dir"
work="$(mktemp -d "${target_dir}/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "${name} extension ${version}: downloading wheel ${package}==${version}"
# shellcheck disable=SC2086
"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --dest "$work" ${MORAINE_PIP_ARGS:-} \
  "${package}==${version}"

# Extract with Python's zipfile so that no unzip binary is needed. The member
# sits at duckdb_extension_<name>/extensions/v<version>/<name>.duckdb_extension.
"$python" - "$work" "$work/$file" "$file" <<'PY'
import glob, shutil, sys, zipfile
work, out, file = sys.argv[1], sys.argv[2], sys.argv[3]
wheels = glob.glob(work + "/*.whl")
if len(wheels) != 1:
    sys.exit("expected one wheel in %s, found %r" % (work, wheels))
with zipfile.ZipFile(wheels[0]) as wheel:
    members = [n for n in wheel.namelist() if n.endswith("/" + file)]
    if len(members) != 1:
        sys.exit("expected one %s in %s, found %r" % (file, wheels[0], members))
    with wheel.open(members[0]) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    print("extracted " + members[0])
PY

# Rename into place last, so that a reader never sees a half-written file.
mv -f "$work/$file" "$target"
echo "${name} extension ${version}: installed at ${target}"
