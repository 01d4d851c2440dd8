/**
 * The lake's keyspace (RFC 0002): key encoding ({@code key}), framed protobuf values ({@code
 * value}) and inline Arrow chunks ({@code inline}), byte for byte the format of the Rust
 * implementation, crate moraine 0.7.0.
 *
 * <p>All ids, counters and snapshot numbers are unsigned 64-bit values held in {@code long}s:
 * compare them with {@link Long#compareUnsigned} and print them with {@link Long#toUnsignedString}.
 */
package dev.moraine.core.keyspace;
