package dev.moraine.core.catalog.model;

import java.util.Optional;

/** A column's statistics over its table ({@code ducklake_table_column_stats}). */
public record ColumnStats(
    long tableId,
    long columnId,
    Optional<Boolean> containsNull,
    Optional<Boolean> containsNan,
    Optional<String> minValue,
    Optional<String> maxValue,
    Optional<String> extraStats) {}
