package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An equality-index definition (native to the lake format, no DuckLake analog) at a snapshot, with
 * its build state as stored.
 */
public record IndexInfo(
    long tableId,
    long indexId,
    long beginSnapshot,
    String name,
    List<Long> columnIds,
    boolean unique,
    List<Boolean> columnDescending,
    List<Boolean> columnNullsFirst,
    Optional<String> buildState,
    Optional<Boolean> poisoned,
    OptionalLong ducklakeIndexId,
    Optional<Boolean> deferredMaintenance) {
  public IndexInfo {
    columnIds = List.copyOf(columnIds);
    columnDescending = List.copyOf(columnDescending);
    columnNullsFirst = List.copyOf(columnNullsFirst);
  }
}
