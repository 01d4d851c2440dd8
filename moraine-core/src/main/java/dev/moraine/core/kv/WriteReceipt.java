package dev.moraine.core.kv;

/**
 * What a store returns for an applied write: the handle that issued it and the write's sequence
 * number. Writes of one handle are ordered by sequence number; a write is durable once that
 * handle's durable sequence number reaches it.
 *
 * <p>A receipt means something only to the handle that issued it: a reopened store numbers its
 * writes afresh and may reuse a sequence number. {@link KvStore#awaitDurable(WriteReceipt)} and
 * {@link KvStore#durableFuture(WriteReceipt)} refuse another handle's receipt with {@link
 * KvInvalidArgumentException}.
 *
 * @param storeId the process-unique identity of the store handle that issued the receipt (never a
 *     native address)
 * @param seqnum the store-assigned sequence number of the write
 */
public record WriteReceipt(long storeId, long seqnum) {}
