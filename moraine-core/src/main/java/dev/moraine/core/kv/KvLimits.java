package dev.moraine.core.kv;

/**
 * The size limits every store enforces before a key or value reaches it. They are SlateDB's: a key
 * is 1 to 65,535 bytes, a value at most {@link Integer#MAX_VALUE} - 8 bytes (the largest Java
 * array, below SlateDB's own 4 GiB bound).
 */
public final class KvLimits {
  /** Longest key in bytes. */
  public static final int MAX_KEY_BYTES = 0xFFFF;

  /** Longest value in bytes. */
  public static final int MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;

  private KvLimits() {}

  /**
   * Checks a key.
   *
   * @throws KvInvalidArgumentException if it is null, empty or longer than {@link #MAX_KEY_BYTES}
   */
  public static void checkKey(byte[] key) {
    if (key == null) {
      throw new KvInvalidArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new KvInvalidArgumentException("key must not be empty");
    }
    if (key.length > MAX_KEY_BYTES) {
      throw new KvInvalidArgumentException(
          "key is " + key.length + " bytes; the limit is " + MAX_KEY_BYTES);
    }
  }

  /**
   * Checks a value.
   *
   * @throws KvInvalidArgumentException if it is null or longer than {@link #MAX_VALUE_BYTES}
   */
  public static void checkValue(byte[] value) {
    if (value == null) {
      throw new KvInvalidArgumentException("value must not be null");
    }
    if (value.length > MAX_VALUE_BYTES) {
      throw new KvInvalidArgumentException(
          "value is " + value.length + " bytes; the limit is " + MAX_VALUE_BYTES);
    }
  }
}
