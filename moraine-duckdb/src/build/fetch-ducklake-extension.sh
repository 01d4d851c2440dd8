#!/usr/bin/env bash
# Fetches the DuckLake extension for DuckDB into a local cache, unattended: the
# wheel duckdb-extension-ducklake from PyPI (see fetch-duckdb-extension.sh).
#
# Usage: fetch-ducklake-extension.sh <extension version> <target file>
#   e.g. fetch-ducklake-extension.sh 1.5.5 ~/.cache/moraine/duckdb-extensions/v1.5.5/ducklake.duckdb_extension
#
# Idempotent: when <target file> already exists nothing is downloaded.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <extension version> <target file>" >&2
  exit 2
fi
exec bash "$(dirname "$0")/fetch-duckdb-extension.sh" ducklake "$1" "$2"
