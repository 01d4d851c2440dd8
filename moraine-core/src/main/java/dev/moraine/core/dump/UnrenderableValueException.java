package dev.moraine.core.dump;

/**
 * An inlined value whose Arrow type version 1 of the dump format gives no JSON form (floating
 * point, decimal, temporal, binary, nested: docs/dump-format.md §6.3). The message names the table,
 * the row id and the type. The catalog is unchanged (a dump only reads); text already handed to the
 * output may be an incomplete document and must be discarded.
 */
public final class UnrenderableValueException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UnrenderableValueException(String message) {
    super(message);
  }
}
