package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import java.time.Instant;
import java.util.Optional;

/** What the inspection commands print the same way. */
final class Inspect {
  private Inspect() {}

  /** A snapshot time, in microseconds since the epoch, as ISO-8601 UTC text. */
  static String time(long micros) {
    return Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000)
        .toString();
  }

  /** A table's name qualified by its schema's, as {@code schema.table}. */
  static String qualifiedName(CatalogSnapshot at, TableInfo t) {
    Optional<SchemaInfo> schema = at.schema(t.schemaId());
    return schema.map(SchemaInfo::name).orElse("?") + "." + t.name();
  }

  /** The long as an unsigned JSON number (a {@code Long}, or a {@code BigInteger} above 2^63). */
  static Object unsigned(long value) {
    return value >= 0 ? (Object) value : new java.math.BigInteger(Long.toUnsignedString(value));
  }
}
