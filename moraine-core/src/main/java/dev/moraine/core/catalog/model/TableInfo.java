package dev.moraine.core.catalog.model;

/**
 * A table ({@code ducklake_table}) as it stands at a snapshot; {@code nextColumnId} is the next
 * column id the table hands out.
 */
public record TableInfo(
    long tableId,
    String tableUuid,
    long beginSnapshot,
    long schemaId,
    String name,
    String path,
    boolean pathIsRelative,
    long nextColumnId) {}
