package dev.moraine.core.lake;

import dev.moraine.core.catalog.WalStoreMismatchException;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReadView;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The record of a catalog's separate write-ahead-log store (the commit RFC, "The log's object
 * store"): its location, as the store names it ({@code KvStore.walStore()}), in the global option
 * {@value #OPTION}, written at creation beside {@code encrypted} and {@code data_path} and read
 * back by every open with the format stamp. SlateDB keeps nothing usable about it, and an open
 * handed the wrong log (or none) would replay the wrong one and miss every commit no sorted-string
 * table holds yet.
 */
public final class WalStoreRecord {
  /** The global option that names the separate log store. */
  public static final String OPTION = "wal_path";

  private static final byte[] GLOBAL =
      KeyCodec.encode(CurrentKey.of(EntityKey.OptionScope.global()));

  private WalStoreRecord() {}

  /** The log store the catalog records, or empty for the store's own object store. */
  public static Optional<String> recorded(KvReadView v) {
    byte[] bytes = v.get(GLOBAL);
    if (bytes == null) {
      return Optional.empty();
    }
    OptionScopeValue global =
        ValueCodec.decode(
            CurrentKey.of(EntityKey.OptionScope.global()), bytes, OptionScopeValue.class);
    String path = global.getOptionsMap().get(OPTION);
    return path == null || path.isEmpty() ? Optional.empty() : Optional.of(path);
  }

  /**
   * Refuses a store opened with another log store than the recorded one.
   *
   * @throws WalStoreMismatchException if they differ (one missing, one different, or one given
   *     where the record names none)
   */
  public static void check(KvReadView v, Optional<String> opened) {
    Optional<String> recorded = recorded(v);
    if (!recorded.equals(opened)) {
      throw new WalStoreMismatchException(recorded.orElse(null), opened.orElse(null));
    }
  }

  /**
   * Whether the log store {@code location} lies inside the lake's data path {@code dataPath}: an
   * orphaned-file cleanup listing the data path would delete log objects holding commits that no
   * sorted-string table carries yet. The comparison is lexical: both are made URIs (a plain path is
   * a local directory), without query, compared by scheme, authority and path, the data path's path
   * followed by a separator.
   */
  public static boolean inside(String location, String dataPath) {
    URI log = uri(location);
    URI data = uri(dataPath);
    if (log == null || data == null) {
      return false;
    }
    if (!same(log.getScheme(), data.getScheme())
        || !same(log.getAuthority(), data.getAuthority())) {
      return false;
    }
    String logPath = withSlash(log.getPath());
    String dataRoot = withSlash(data.getPath());
    return logPath.startsWith(dataRoot);
  }

  private static URI uri(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      if (text.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
        URI u = URI.create(text);
        return new URI(u.getScheme(), u.getAuthority(), u.getPath(), null, null).normalize();
      }
      return Path.of(text).toAbsolutePath().normalize().toUri();
    } catch (IllegalArgumentException | java.net.URISyntaxException e) {
      return null;
    }
  }

  private static boolean same(String a, String b) {
    return a == null
        ? b == null
        : b != null && a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }

  private static String withSlash(String path) {
    String p = path == null ? "" : path;
    return p.endsWith("/") ? p : p + "/";
  }
}
