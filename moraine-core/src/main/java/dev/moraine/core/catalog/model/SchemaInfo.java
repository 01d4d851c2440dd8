package dev.moraine.core.catalog.model;

/** A schema ({@code ducklake_schema}) as it stands at a snapshot. */
public record SchemaInfo(
    long schemaId,
    String schemaUuid,
    long beginSnapshot,
    String name,
    String path,
    boolean pathIsRelative) {}
