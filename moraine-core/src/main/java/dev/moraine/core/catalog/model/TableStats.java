package dev.moraine.core.catalog.model;

/** A table's statistics ({@code ducklake_table_stats}); {@code nextRowId} is its row-id counter. */
public record TableStats(long tableId, long recordCount, long nextRowId, long fileSizeBytes) {}
