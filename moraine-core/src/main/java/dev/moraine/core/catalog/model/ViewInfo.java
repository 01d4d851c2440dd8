package dev.moraine.core.catalog.model;

import java.util.Optional;

/** A view ({@code ducklake_view}) as it stands at a snapshot. */
public record ViewInfo(
    long viewId,
    String viewUuid,
    long beginSnapshot,
    long schemaId,
    String name,
    String dialect,
    String sql,
    Optional<String> columnAliases) {}
