package dev.moraine.core.kv;

/**
 * Stored data is corrupt or missing (an object the manifest names is gone, a checkpoint does not
 * exist, a block fails its checksum). Retrying does not help.
 */
public final class KvDataException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvDataException(String message) {
    super(message);
  }

  public KvDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
