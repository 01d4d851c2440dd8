package dev.moraine.core.catalog;

import java.util.Objects;

/**
 * The root of every error the catalog raises. Unchecked. {@link #code()} is stable and documented
 * in docs/errors.md; the message is for people and may change. Each subtype's javadoc says what the
 * caller should do and what holds afterwards.
 */
public class MoraineException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  /** An error with {@code code} and a message for people. */
  public MoraineException(ErrorCode code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** An error with {@code code}, a message for people and the failure that caused it. */
  public MoraineException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable code of this error. */
  public ErrorCode code() {
    return code;
  }
}
