package dev.moraine.store.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Opening and dumping a lake in a local directory the way both implementations do. */
final class Lakes {
  private Lakes() {}

  /** The layout of docs/dump-format.md §11: the database at the root of the directory. */
  static SlateStoreProvider provider(Path lake) {
    return new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
  }

  /** The Java dump of the lake, whole ({@code at} null) or at one snapshot, read-only. */
  static String javaDump(Path lake, Long at) {
    try (KvReader reader = provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      return at == null ? CatalogDump.allToString(catalog) : CatalogDump.atToString(catalog, at);
    }
  }

  /** Every key and value of the store, hex-encoded, read through a reader that writes nothing. */
  static SortedMap<String, String> contents(Path lake) {
    HexFormat hex = HexFormat.of();
    SortedMap<String, String> all = new TreeMap<>();
    try (KvReader reader = provider(lake).openReader(ReaderMode.followLatest());
        KvIterator it = reader.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        all.put(hex.formatHex(kv.key()), hex.formatHex(kv.value()));
      }
    }
    return all;
  }

  static JsonNode lastOf(JsonNode array) {
    return array.get(array.size() - 1);
  }

  /** Copies a lake's directory, so that a test can add records without touching the original. */
  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
