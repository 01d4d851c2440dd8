/**
 * The values a {@link dev.moraine.core.catalog.CatalogSnapshot} hands out: immutable records, one
 * per DuckLake catalog row kind, carrying every field the lake stores for it. Ids are unsigned
 * 64-bit values held in {@code long}s and named {@code <entity>Id}; compare them with {@link
 * Long#compareUnsigned}. Times are microseconds since the Unix epoch ({@code ...Micros}); a field
 * the lake stores as optional is an {@link java.util.Optional} or {@link java.util.OptionalLong}.
 */
package dev.moraine.core.catalog.model;
