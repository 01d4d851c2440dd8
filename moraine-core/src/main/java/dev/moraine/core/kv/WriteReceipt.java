package dev.moraine.core.kv;

/**
 * What a store returns for an applied write: its sequence number. Writes are ordered by sequence
 * number; a write is durable once the store's durable sequence number reaches it.
 *
 * @param seqnum the store-assigned sequence number of the write
 */
public record WriteReceipt(long seqnum) {}
