package dev.moraine.store;

import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The two bulk byte layouts shared with the native crate (its {@code codec} module), so that a
 * batch or a run of scan results crosses JNI in one call.
 *
 * <ul>
 *   <li>Batch: per operation {@code op:u8} (0 put, 1 delete), {@code keyLen:u32}, key, and for a
 *       put {@code valueLen:u32}, value.
 *   <li>Entries: per entry {@code keyLen:u32}, key, {@code valueLen:u32}, value.
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
    long size = 0;
    for (WriteBatch.Op op : ops) {
      size += encodedSize(op.key().length, op.isDelete() ? -1 : op.value().length);
    }
    requireEncodable(size);
    ByteBuffer out = ByteBuffer.allocate((int) size);
    for (WriteBatch.Op op : ops) {
      out.put(op.isDelete() ? OP_DELETE : OP_PUT);
      out.putInt(op.key().length);
      out.put(op.key());
      if (!op.isDelete()) {
        out.putInt(op.value().length);
        out.put(op.value());
      }
    }
    return out.array();
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
