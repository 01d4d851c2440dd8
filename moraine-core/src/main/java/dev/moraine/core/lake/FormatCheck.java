package dev.moraine.core.lake;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.UnsupportedFormatException;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.keyspace.proto.MigrationValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReadView;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The open-time format check of RFC 0002 §8: a migration marker refuses the store whatever the
 * stamp says; a stamp other than {@link Bootstrap#FORMAT_VERSION} refuses it; no stamp means an
 * empty store.
 */
public final class FormatCheck {
  private static final byte[] FORMAT_KEY = KeyCodec.encode(SysKey.FORMAT);
  private static final byte[] MIGRATION_KEY = KeyCodec.encode(SysKey.MIGRATION);

  private FormatCheck() {}

  /**
   * The store's format stamp, or empty for a store that holds no catalog.
   *
   * @throws UnsupportedFormatException on a migration marker or a stamp other than 9
   */
  public static Optional<FormatValue> validate(KvReadView view) {
    List<byte[]> found = view.getAll(List.of(MIGRATION_KEY, FORMAT_KEY));
    FormatValue format =
        found.get(1) == null
            ? null
            : ValueCodec.decode(SysKey.FORMAT, found.get(1), FormatValue.class);
    if (found.get(0) != null) {
      refuseMigration(
          ValueCodec.decode(SysKey.MIGRATION, found.get(0), MigrationValue.class), format);
    }
    if (format == null) {
      return Optional.empty();
    }
    long version = format.getFormatVersion();
    if (version != Bootstrap.FORMAT_VERSION) {
      String direction =
          Long.compareUnsigned(version, Bootstrap.FORMAT_VERSION) > 0
              ? "newer than this library reads"
              : "older than this library reads; migrate it up with the Rust implementation's"
                  + " Catalog::migrate first";
      throw new UnsupportedFormatException(
          ErrorCode.UNSUPPORTED_FORMAT,
          "the store is format "
              + Long.toUnsignedString(version)
              + " (written by \""
              + format.getWriterVersion()
              + "\"), "
              + direction
              + "; this library reads format "
              + Bootstrap.FORMAT_VERSION
              + " only",
          OptionalLong.of(version));
    }
    return Optional.of(format);
  }

  /** Refuses a store whose migration marker {@code m} is set. */
  public static void refuseMigration(MigrationValue m, FormatValue format) {
    throw new UnsupportedFormatException(
        ErrorCode.MIGRATION_IN_PROGRESS,
        "the store carries a migration marker (from format "
            + Long.toUnsignedString(m.getFromFormat())
            + " to format "
            + Long.toUnsignedString(m.getToFormat())
            + ", cursor of "
            + m.getCursor().size()
            + " byte(s)); finish the migration with the Rust implementation's Catalog::migrate"
            + " before opening it",
        format == null ? OptionalLong.empty() : OptionalLong.of(format.getFormatVersion()));
  }
}
