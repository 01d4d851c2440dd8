package dev.moraine.ducklake.ops;

import dev.moraine.ducklake.changes.ChangeKind;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The combined effect of the operations of one commit.
 *
 * <p>DuckLake bumps {@code schema_version} once for the whole commit if anything in the catalog
 * changed, then once more per table that needed its first inlined-data table. Counters advance if
 * any operation advances them. The emitted kinds are the union of the operations' kinds.
 */
public final class CommitShape {
  private final List<DuckLakeOperation> operations;
  private final long schemaVersionIncrement;
  private final Set<ChangeKind> kinds;

  private CommitShape(List<DuckLakeOperation> operations) {
    this.operations = List.copyOf(operations);
    boolean catalogChange =
        operations.stream().anyMatch(o -> o.effects().contains(Effect.BUMPS_SCHEMA_VERSION));
    long extra =
        operations.stream()
            .filter(o -> o.effects().contains(Effect.EXTRA_SCHEMA_VERSION_PER_TABLE))
            .count();
    this.schemaVersionIncrement = (catalogChange ? 1 : 0) + extra;
    EnumSet<ChangeKind> union = EnumSet.noneOf(ChangeKind.class);
    operations.forEach(o -> union.addAll(o.emittedKinds()));
    this.kinds = Collections.unmodifiableSet(union);
  }

  /**
   * Combines the operations of one commit. List an operation once per affected object when the
   * count matters ({@link DuckLakeOperation#INLINED_INSERT_NEW_INLINED_TABLE} once per table).
   *
   * @throws IncompatibleOperationsException if DuckLake would refuse the combination
   */
  public static CommitShape of(List<DuckLakeOperation> operations) {
    Objects.requireNonNull(operations, "operations");
    validate(operations);
    return new CommitShape(operations);
  }

  /**
   * @see #of(List)
   */
  public static CommitShape of(DuckLakeOperation... operations) {
    return of(List.of(operations));
  }

  private static void validate(List<DuckLakeOperation> ops) {
    long outside = ops.stream().filter(DuckLakeOperation::outsideSnapshotProtocol).count();
    if (outside > 0 && outside < ops.size()) {
      throw new IncompatibleOperationsException(
          "operations outside the snapshot protocol cannot share a commit with versioned changes: "
              + ops);
    }
    long compaction = ops.stream().filter(DuckLakeOperation::exclusiveCompaction).count();
    if (compaction > 0 && compaction < ops.size()) {
      throw new IncompatibleOperationsException(
          "a commit either compacts or makes changes, not both: " + ops);
    }
  }

  /** The operations, in the order given. */
  public List<DuckLakeOperation> operations() {
    return operations;
  }

  /**
   * Whether the commit mints a snapshot (false only for an empty list or operations outside the
   * protocol).
   */
  public boolean mintsSnapshot() {
    return !operations.isEmpty() && !operations.get(0).outsideSnapshotProtocol();
  }

  /** How much {@code schema_version} grows over the premise's. */
  public long schemaVersionIncrement() {
    return schemaVersionIncrement;
  }

  /** Whether {@code schema_version} grows. */
  public boolean bumpsSchemaVersion() {
    return schemaVersionIncrement > 0;
  }

  /** Whether any {@code ducklake_schema_versions} row is written. */
  public boolean writesSchemaVersionsRow() {
    return operations.stream().anyMatch(DuckLakeOperation::writesSchemaVersionsRow);
  }

  /** Whether {@code next_file_id} advances. */
  public boolean advancesNextFileId() {
    return operations.stream().anyMatch(DuckLakeOperation::advancesNextFileId);
  }

  /** Whether {@code next_catalog_id} advances. */
  public boolean advancesNextCatalogId() {
    return operations.stream().anyMatch(DuckLakeOperation::advancesNextCatalogId);
  }

  /** The union of the kinds the operations emit. */
  public Set<ChangeKind> emittedKinds() {
    return kinds;
  }

  @Override
  public String toString() {
    return "CommitShape" + operations;
  }
}
