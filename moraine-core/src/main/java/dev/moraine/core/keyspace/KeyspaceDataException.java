package dev.moraine.core.keyspace;

/**
 * Bytes read from the store are not a valid record of the lake format: a key that does not decode,
 * a value whose frame is short, carries another magic or an encoding version this library does not
 * know, a payload that is not the message its key calls for, or a value whose ids disagree with its
 * key.
 *
 * <p>What holds afterwards: nothing was written and nothing was returned; the stored bytes are as
 * they were. The record is unusable by this library, so retrying the same read gives the same
 * error. {@link #key()} names the record: its printable form (for example {@code current/table/7})
 * when the key decodes, otherwise its bytes in hex.
 */
public final class KeyspaceDataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String key;

  public KeyspaceDataException(String key, String problem) {
    super("corrupt lake record " + key + ": " + problem);
    this.key = key;
  }

  public KeyspaceDataException(String key, String problem, Throwable cause) {
    super("corrupt lake record " + key + ": " + problem, cause);
    this.key = key;
  }

  /** The printable form of the record's key, or its bytes in hex when the key itself is bad. */
  public String key() {
    return key;
  }
}
