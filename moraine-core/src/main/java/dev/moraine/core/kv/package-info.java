/**
 * The key-value store SPI: exactly what the Moraine engine needs from an ordered, transactional,
 * durable key-value store, and nothing more.
 *
 * <h2>Shape</h2>
 *
 * <ul>
 *   <li>{@link dev.moraine.core.kv.KvStore}: the one read-write handle of a process. Atomic {@link
 *       dev.moraine.core.kv.WriteBatch} writes, snapshot transactions with write-write conflict
 *       detection, consistent snapshots, explicit WAL flush, waiting for one write to be durable,
 *       durable checkpoints.
 *   <li>{@link dev.moraine.core.kv.KvReader}: a read-only handle, either following the latest
 *       durable state or pinned at a checkpoint.
 *   <li>{@link dev.moraine.core.kv.KvStoreProvider}: opens both for one configured location.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * Every failure is an unchecked {@link dev.moraine.core.kv.KvException} subtype that tells the
 * caller what happened: a lost write-write race ({@link
 * dev.moraine.core.kv.KvTransactionConflictException}), a newer writer ({@link
 * dev.moraine.core.kv.KvFencedException}), a closed handle ({@link
 * dev.moraine.core.kv.KvClosedException}), an unreachable or failing object store ({@link
 * dev.moraine.core.kv.KvUnavailableException}), an argument the store refuses ({@link
 * dev.moraine.core.kv.KvInvalidArgumentException}), or stored data that is corrupt or missing
 * ({@link dev.moraine.core.kv.KvDataException}). These say that nothing was written. A call that
 * fails after it handed its effect to the store throws {@link
 * dev.moraine.core.kv.KvOutcomeUnknownException} instead, whose reason tells a fence, a close, a
 * store failure, a timeout and an interrupt apart: its effect is unknown, and only the durable
 * sequence number proves a write durable. Implementations classify once, at their boundary; callers
 * decide by type, never by message.
 *
 * <h2>Byte arrays</h2>
 *
 * Keys and values cross the SPI as {@code byte[]}. The store never keeps a reference to an array it
 * was given and never hands out an array it still uses: both sides may mutate their arrays
 * afterwards.
 */
package dev.moraine.core.kv;
