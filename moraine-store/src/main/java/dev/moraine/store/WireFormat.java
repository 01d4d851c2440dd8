package dev.moraine.store;

import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvLimits;
import dev.moraine.core.kv.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bulk byte layouts shared with the native crate (its {@code codec} module), so that a batch or
 * a run of scan results crosses JNI in one call.
 *
 * <ul>
 *   <li>Batch: per operation {@code op:u8} (0 put, 1 delete), {@code keyLen:u32}, key, and for a
 *       put {@code valueLen:u32}, value.
 *   <li>Entries: per entry {@code keyLen:u32}, key, {@code valueLen:u32}, value.
 *   <li>Keys (multi-get request): per key {@code keyLen:u32}, key.
 *   <li>Values (multi-get result): one {@code valueLen:u32} per key, in key order, then the values'
 *       bytes in the same order; {@code 0xFFFFFFFF} marks an absent key, with no bytes.
 *   <li>Batches (several batches in one call): per batch {@code batchLen:u32}, then that batch's
 *       encoding.
 * </ul>
 *
 * All integers are big-endian.
 */
final class WireFormat {
  private static final byte OP_PUT = 0;
  private static final byte OP_DELETE = 1;
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private WireFormat() {}

  /**
   * Encodes a batch.
   *
   * @throws KvInvalidArgumentException if the batch is empty or too large to encode
   */
  static byte[] encode(WriteBatch batch) {
    if (batch == null || batch.isEmpty()) {
      throw new KvInvalidArgumentException("write batch must not be empty");
    }
    List<WriteBatch.Op> ops = batch.ops();
    long size = encodedSize(batch);
    requireEncodable(size);
    ByteBuffer out = ByteBuffer.allocate((int) size);
    writeOps(ops, out);
    return out.array();
  }

  private static void writeOps(List<WriteBatch.Op> ops, ByteBuffer out) {
    for (WriteBatch.Op op : ops) {
      out.put(op.isDelete() ? OP_DELETE : OP_PUT);
      out.putInt(op.key().length);
      out.put(op.key());
      if (!op.isDelete()) {
        out.putInt(op.value().length);
        out.put(op.value());
      }
    }
  }

  /**
   * The encoded size of one operation, in long arithmetic: a key and value near {@code
   * Integer.MAX_VALUE} bytes must not wrap around to a small or negative size that slips past the
   * limit check.
   *
   * @param valueLength the value's length, or -1 for a delete
   */
  static long encodedSize(int keyLength, int valueLength) {
    long size = 1L + 4L + keyLength;
    if (valueLength >= 0) {
      size += 4L + valueLength;
    }
    return size;
  }

  /**
   * Refuses an encoded batch size that does not fit in one Java array.
   *
   * @throws KvInvalidArgumentException if it does not
   */
  static void requireEncodable(long size) {
    if (size > MAX_ARRAY) {
      throw new KvInvalidArgumentException(
          "write batch encodes to " + size + " bytes; the limit is " + MAX_ARRAY);
    }
  }

  // ---------------------------------------------------------------- multi-get and batch lists

  /** The length that marks an absent key in an encoded multi-get result. */
  private static final int ABSENT = -1;

  /**
   * Encodes the keys of a multi-get, checking every key first.
   *
   * @throws KvInvalidArgumentException for a null list, a null, empty or oversized key, or keys too
   *     many to encode in one array
   */
  static byte[] encodeKeys(List<byte[]> keys) {
    if (keys == null) {
      throw new KvInvalidArgumentException("key list must not be null");
    }
    long size = 0;
    for (byte[] key : keys) {
      KvLimits.checkKey(key);
      size += 4L + key.length;
    }
    if (size > MAX_ARRAY) {
      throw new KvInvalidArgumentException(
          keys.size() + " keys encode to " + size + " bytes; the limit is " + MAX_ARRAY);
    }
    ByteBuffer out = ByteBuffer.allocate((int) size);
    for (byte[] key : keys) {
      out.putInt(key.length);
      out.put(key);
    }
    return out.array();
  }

  /** Decodes a multi-get result of {@code count} keys: fresh arrays, null for an absent key. */
  static List<byte[]> decodeValues(byte[] encoded, int count) {
    ByteBuffer lengths = ByteBuffer.wrap(encoded);
    int at = 4 * count;
    List<byte[]> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int length = lengths.getInt();
      if (length == ABSENT) {
        values.add(null);
      } else {
        values.add(Arrays.copyOfRange(encoded, at, at + length));
        at += length;
      }
    }
    return values;
  }

  /**
   * Encodes several batches for one call, checking every batch first.
   *
   * @throws KvInvalidArgumentException for a null or empty list, a null or empty batch, or batches
   *     too large to encode in one array
   */
  static byte[] encodeBatches(List<WriteBatch> batches) {
    if (batches == null || batches.isEmpty()) {
      throw new KvInvalidArgumentException("the list of batches must not be null or empty");
    }
    long[] sizes = new long[batches.size()];
    long size = 0;
    for (int i = 0; i < sizes.length; i++) {
      WriteBatch batch = batches.get(i);
      if (batch == null || batch.isEmpty()) {
        throw new KvInvalidArgumentException("batch " + i + " of the list is null or empty");
      }
      sizes[i] = encodedSize(batch);
      size += 4L + sizes[i];
    }
    requireEncodable(size);
    ByteBuffer out = ByteBuffer.allocate((int) size);
    for (int i = 0; i < sizes.length; i++) {
      // Each size is below the total, itself below the array limit, so it fits in an int.
      out.putInt((int) sizes[i]);
      writeOps(batches.get(i).ops(), out);
    }
    return out.array();
  }

  /** The encoded size of a batch, in long arithmetic. */
  private static long encodedSize(WriteBatch batch) {
    long size = 0;
    for (WriteBatch.Op op : batch.ops()) {
      size += encodedSize(op.key().length, op.isDelete() ? -1 : op.value().length);
    }
    return size;
  }

  /** Appends the entries of one native run to {@code into}, in order. */
  static void decodeEntries(byte[] run, ArrayDeque<KeyValue> into) {
    ByteBuffer in = ByteBuffer.wrap(run);
    while (in.hasRemaining()) {
      byte[] key = new byte[in.getInt()];
      in.get(key);
      byte[] value = new byte[in.getInt()];
      in.get(value);
      into.addLast(new KeyValue(key, value));
    }
  }
}
