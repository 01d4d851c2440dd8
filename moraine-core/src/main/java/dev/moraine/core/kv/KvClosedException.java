package dev.moraine.core.kv;

/**
 * The handle was closed before or during the call: by the caller, by the store after a fatal error,
 * or by the binding after an earlier call on the handle failed in a way that left its state unknown
 * (a panic in native code; that call itself threw {@link KvUnavailableException}). Nothing further
 * can be done with the handle except closing it; whether writes made through it before are durable
 * is unknown unless they were acknowledged as durable.
 */
public final class KvClosedException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvClosedException(String message) {
    super(message);
  }

  public KvClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
