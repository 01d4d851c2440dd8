#!/usr/bin/env python3
"""Writes src/test/resources/keyspace/golden-values.txt: one line per sample record,
`name key-hex value-hex`.

The bytes are computed here from first principles, independently of protobuf-java: the key
rules of RFC 0002 section 3 and the value frame and wire rules of section 7 (fields in ascending
number; a plain scalar or string equal to its default is left out; an `optional` one is written
whenever present; repeated scalars are packed; each repeated message or bytes element is its own
field; a map entry is a message with key 1 and value 2). GoldenValuesTest builds the same records
with the generated Java classes and requires the same bytes, and decodes these bytes back to them.

Run from moraine-core: python3 src/test/python/golden_values.py
"""
import struct

OUT = "src/test/resources/keyspace/golden-values.txt"


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key_field(num, wire):
    return varint((num << 3) | wire)


class Opt:
    """Marks a proto3 `optional` value: written even when it equals the default."""

    def __init__(self, v):
        self.v = v


def scalar(num, v):
    """uint64 / int64 / bool field."""
    present = isinstance(v, Opt)
    if present:
        v = v.v
    if isinstance(v, bool):
        v = int(v)
    if v == 0 and not present:
        return b""
    return key_field(num, 0) + varint(v)


def text(num, v):
    """string / bytes field (also an embedded message's bytes)."""
    present = isinstance(v, Opt)
    if present:
        v = v.v
    if isinstance(v, str):
        v = v.encode("utf-8")
    if len(v) == 0 and not present:
        return b""
    return key_field(num, 2) + varint(len(v)) + v


def packed(num, values):
    if not values:
        return b""
    body = b"".join(varint(int(x)) for x in values)
    return key_field(num, 2) + varint(len(body)) + body


def each(num, messages):
    return b"".join(text(num, Opt(m)) for m in messages)


def frame(payload):
    return b"MRNE\x00" + payload


def be(x):
    return struct.pack(">Q", x)


def ids(*xs):
    return b"".join(be(x) for x in xs)


U = "00000000-0000-4000-8000-0000000000"
rows = []


def add(name, key, payload):
    rows.append((name, key, frame(payload)))


T0 = 1764460800000000

# sys
add("format", bytes([2, 2]), scalar(1, 9) + text(2, "0.7.0"))
add("format_v1_seed", bytes([2, 2]), scalar(1, 1))
add("head_bootstrap", bytes([2, 3]), b"")
add("head", bytes([2, 3]), scalar(1, 44) + scalar(2, 46))
add("migration", bytes([2, 4]), scalar(1, 8) + scalar(2, 9) + text(3, bytes([6, 3, 3, 0, 1])))
step = text(1, "sweep") + text(2, "ok") + text(3, "3 keys")
pass_ = scalar(1, T0) + text(2, "manual") + each(3, [step])
add("maintenance_status", bytes([2, 5]), each(1, [pass_]))

# snapshot, schema_version, changelog
add("snapshot_bootstrap", bytes([3]) + ids(0),
    scalar(2, T0) + scalar(4, 1) + text(7, 'created_schema:"main"'))
add("snapshot_create_table", bytes([3]) + ids(1),
    scalar(1, 1) + scalar(2, T0 + 1_000_000) + scalar(3, 1) + scalar(4, 2)
    + text(7, 'created_table:"main"."t"') + packed(11, [1]))
add("snapshot_staged", bytes([3]) + ids(7),
    scalar(1, 7) + scalar(2, -5) + scalar(3, 2) + scalar(4, 9) + scalar(5, 4)
    + text(7, "deleted_from_table:3") + text(8, Opt("")) + text(9, Opt("fix"))
    + text(10, Opt("{}")) + packed(11, [3, 2]) + packed(12, [0, 300]))
add("schema_version", bytes([8]) + ids(1, 1), scalar(1, 1))
cl_keys = sorted([bytes([4, 2, 3]) + ids(1), bytes([4, 2, 5]) + ids(1, 1),
                  bytes([4, 2, 5]) + ids(1, 2), bytes([4, 2, 0x0a]) + ids(1)])
add("changelog", bytes([9]) + ids(1), each(1, cl_keys))

# current entities
add("schema", bytes([4, 2, 2]) + ids(0),
    text(2, U + "00") + text(5, "main") + text(6, "main/") + scalar(7, True))
add("table", bytes([4, 2, 3]) + ids(1),
    scalar(1, 1) + text(2, U + "01") + scalar(3, 1) + text(6, "t") + text(7, "t/")
    + scalar(8, True) + scalar(9, 3))
add("view", bytes([4, 2, 4]) + ids(5),
    scalar(1, 5) + text(2, U + "05") + scalar(3, 4) + scalar(5, 0) + text(6, "v")
    + text(7, "duckdb") + text(8, "SELECT 1") + text(9, Opt("")))
tag = scalar(1, 3) + text(3, "comment") + text(4, "ünïcode")
add("column", bytes([4, 2, 5]) + ids(1, 2),
    scalar(1, 2) + scalar(2, 1) + scalar(4, 1) + scalar(5, 2) + text(6, "b")
    + text(7, "varchar") + text(8, Opt("'x'")) + text(9, Opt("'x'")) + scalar(10, False)
    + scalar(11, Opt(1)) + text(12, Opt("literal")) + text(13, Opt("duckdb")) + each(14, [tag]))
add("column_int", bytes([4, 2, 5]) + ids(1, 1),
    scalar(1, 1) + scalar(2, 1) + scalar(4, 1) + scalar(5, 1) + text(6, "a")
    + text(7, "int64") + scalar(10, True))
pcol = scalar(1, 0) + scalar(2, 1) + text(3, "identity")
add("partition", bytes([4, 2, 6]) + ids(1, 6),
    scalar(1, 6) + scalar(2, 1) + scalar(3, 6) + each(5, [pcol]))
add("data_file", bytes([4, 2, 7]) + ids(1, 0),
    scalar(2, 1) + scalar(3, 2) + text(6, "ducklake-0001.parquet") + scalar(7, True)
    + text(8, "parquet") + scalar(9, 3) + scalar(10, 1024) + scalar(11, 200) + scalar(12, Opt(0)))
fpv = scalar(1, 0) + text(2, "2026")
add("data_file_full", bytes([4, 2, 7]) + ids(1, 4),
    scalar(1, 4) + scalar(2, 1) + scalar(3, 9) + scalar(5, Opt(2)) + text(6, "s3://b/f.parquet")
    + text(8, "parquet") + scalar(9, 10) + scalar(10, 4096) + scalar(11, 512) + scalar(12, Opt(3))
    + scalar(13, Opt(6)) + text(14, Opt("k")) + scalar(15, Opt(8)) + scalar(16, Opt(12))
    + each(17, [fpv]))
add("delete_file", bytes([4, 2, 8]) + ids(1, 5),
    scalar(1, 5) + scalar(2, 1) + scalar(3, 10) + scalar(5, 4) + text(6, "del.parquet")
    + scalar(7, True) + text(8, "parquet") + scalar(9, 2) + scalar(10, 300) + scalar(11, 90)
    + text(12, Opt("k2")) + scalar(13, Opt(1)))
var = text(1, "$.a") + text(2, "int64") + scalar(3, 10) + scalar(4, 2) + scalar(5, 1) \
    + text(6, Opt("1")) + text(7, Opt("9")) + scalar(8, Opt(False)) + text(9, Opt("{}"))
add("file_column_stats", bytes([4, 2, 9]) + ids(1, 4, 2),
    scalar(1, 4) + scalar(2, 1) + scalar(3, 2) + scalar(4, 77) + scalar(5, 10) + scalar(6, 1)
    + text(7, Opt("a")) + text(8, Opt("z")) + scalar(9, Opt(True)) + text(10, Opt("")) + each(11, [var]))
add("table_stats", bytes([4, 2, 0x0a]) + ids(1),
    scalar(1, 1) + scalar(2, 3) + scalar(3, 3) + scalar(4, 1024))
add("table_column_stats", bytes([4, 2, 0x0b]) + ids(1, 2),
    scalar(1, 1) + scalar(2, 2) + scalar(3, Opt(False)) + scalar(4, Opt(True)) + text(5, Opt("a"))
    + text(6, Opt("z")) + text(7, Opt("x")))
entry = scalar(1, 4) + scalar(2, Opt(6)) + text(3, "owner") + text(4, "ops")
add("tag", bytes([4, 2, 0x0c]) + ids(1), scalar(1, 1) + each(2, [entry]))
opt_entry = text(1, "encrypted") + text(2, "false")
add("option_global", bytes([4, 2, 0x0d]) + ids(0, 0), each(1, [opt_entry]))
sexpr = scalar(1, 0) + text(2, "a") + text(3, "duckdb") + text(4, "ASC") + text(5, "NULLS_LAST")
add("sort", bytes([4, 2, 0x0e]) + ids(7, 9), scalar(1, 9) + scalar(2, 7) + scalar(3, 3) + each(5, [sexpr]))
param = scalar(1, 0) + text(2, "x") + text(3, "int64") + text(4, Opt("1")) + text(5, "literal")
impl = scalar(1, 0) + text(2, "duckdb") + text(3, "x + 1") + text(4, "scalar") + each(5, [param])
add("macro", bytes([4, 2, 0x0f]) + ids(3), scalar(1, 3) + scalar(2, 2) + text(5, "inc") + each(6, [impl]))
nm = scalar(1, 1) + text(2, "src") + scalar(3, 7) + scalar(4, Opt(0)) + scalar(5, True)
add("mapping", bytes([4, 2, 0x10]) + ids(4, 21),
    scalar(1, 21) + scalar(2, 4) + text(3, "map_by_name") + each(4, [nm]))
cursor = scalar(1, 1) + scalar(2, 3) + scalar(3, 0) + scalar(4, 5) + scalar(5, True) \
    + scalar(6, False) + scalar(7, 3)
add("index_definition", bytes([4, 2, 0x11]) + ids(4, 7),
    scalar(1, 7) + scalar(2, 4) + scalar(3, 2) + text(5, "by_a") + packed(6, [1, 2]) + scalar(7, True)
    + text(8, Opt("building")) + scalar(9, Opt(0)) + scalar(10, Opt(2)) + scalar(11, Opt(0))
    + scalar(12, Opt(False)) + scalar(13, Opt(11)) + packed(14, [False, True])
    + packed(15, [True, False]) + scalar(16, Opt(4)) + scalar(17, Opt(True)) + text(18, Opt(cursor)))
add("scheduled_deletion", bytes([4, 3]) + ids(5),
    scalar(1, 5) + text(2, "old.parquet") + scalar(3, True) + scalar(4, T0))

# history
add("history_table", bytes([5, 3]) + ids(1, 5),
    scalar(1, 1) + text(2, U + "01") + scalar(3, 1) + scalar(4, Opt(5)) + text(6, "t")
    + text(7, "t/") + scalar(8, True) + scalar(9, 3))
add("history_file", bytes([5, 7]) + ids(1, 2, 9),
    scalar(1, 2) + scalar(2, 1) + scalar(3, 4) + scalar(4, Opt(9)) + text(6, "f.parquet")
    + scalar(7, True) + text(8, "parquet") + scalar(9, 1) + scalar(10, 10) + scalar(11, 4))

# inline
add("inline_schema_reference", bytes([6, 2]) + ids(1, 2), scalar(2, Opt(0)))
add("inline_schema", bytes([6, 2]) + ids(1, 0), text(1, bytes.fromhex("ffffffff0800000000000000")))
add("inline_chunk", bytes([6, 3, 2]) + ids(7, 3, 11, 0),
    text(1, bytes.fromhex("0400000001020304")) + scalar(2, 10) + scalar(3, 2))
add("inline_legacy_delete", bytes([6, 3, 3]) + ids(7, 9), scalar(1, 12))
add("inline_file_delete", bytes([6, 3, 4]) + ids(7, 2, 9), scalar(1, 12))
add("inline_archived_chunk", bytes([6, 4, 2]) + ids(7, 3, 11, 0),
    text(1, b"\x00") + scalar(2, 0) + scalar(3, 1) + scalar(4, Opt(6)))
add("inline_file_delete_table", bytes([6, 5]) + ids(7), b"")
add("inline_schema_dropped", bytes([6, 7]) + ids(7, 3), b"")
add("inline_chunk_locator", bytes([6, 8]) + ids(7, 11, 3, 11, 0),
    scalar(1, 10) + scalar(2, 3) + scalar(3, 11) + scalar(4, 0))
add("inline_row_tombstone", bytes([6, 9]) + ids(1, 4, 6), scalar(1, 6))

with open(OUT, "w") as f:
    f.write("# name key-hex value-hex; written by src/test/python/golden_values.py, do not edit\n")
    for name, key, value in rows:
        f.write(f"{name} {key.hex()} {value.hex()}\n")
print(f"{len(rows)} vectors -> {OUT}")
