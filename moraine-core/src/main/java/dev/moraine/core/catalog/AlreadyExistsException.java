package dev.moraine.core.catalog;

/**
 * A verb named something that already exists: a schema name, a table or view name in its schema, or
 * a column name among its siblings; names compare ASCII case-insensitively, as DuckLake compares
 * them. Thrown from inside the commit closure; if the closure lets it escape, the commit writes
 * nothing and the catalog is unchanged. Pick another name, or read the existing entity.
 */
public final class AlreadyExistsException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A name already taken. */
  public AlreadyExistsException(String message) {
    super(ErrorCode.ALREADY_EXISTS, message);
  }
}
