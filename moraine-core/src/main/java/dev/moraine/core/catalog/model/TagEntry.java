package dev.moraine.core.catalog.model;

import java.util.OptionalLong;

/**
 * One tag or comment on an object or a column ({@code ducklake_tag}, {@code ducklake_column_tag});
 * a comment is the tag with key {@code comment}. Only entries live at the snapshot are handed out,
 * so {@code endSnapshot}, when present, lies after it.
 */
public record TagEntry(long beginSnapshot, OptionalLong endSnapshot, String key, String value) {}
