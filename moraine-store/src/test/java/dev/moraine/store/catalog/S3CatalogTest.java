package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.s3.S3FixtureExtension;
import dev.moraine.store.s3.S3Location;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Open, bootstrap, reopen and time travel on an S3-compatible store (S3Proxy in this JVM). */
@ExtendWith(S3FixtureExtension.class)
class S3CatalogTest {
  @Test
  void bootstrapReopenAndTimeTravelOnS3(S3Location location) {
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(
                    ObjectStoreSpec.s3(
                        location.endpoint().toString(),
                        location.bucket(),
                        location.prefix(),
                        location.region(),
                        location.accessKey(),
                        location.secretKey(),
                        location.allowHttp()),
                    "lake")
                .withSettings(Stores.settings()));
    try (KvStore store = provider.openWriter()) {
      try (Catalog catalog =
          Catalog.open(store, CatalogOptions.defaults().withDataPath("s3://x/"))) {
        assertTrue(catalog.createdByThisOpen());
      }
      LakeFixture fixture = new LakeFixture(store);
      fixture.commit(
          "created_table:\"main\".\"a\"",
          c -> {
            c.schemaChange(1);
            c.put(new EntityKey.Table(c.catalogId()), TimeTravelLake.table(1, c.n, "a", 1));
          });
      fixture.commit(
          "altered_table:1",
          c -> {
            c.schemaChange(1);
            c.put(new EntityKey.Table(1), TimeTravelLake.table(1, c.n, "a2", 1));
          });
      store.flushWal();
    }
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertFalse(catalog.createdByThisOpen());
      assertEquals(Optional.of("s3://x/"), catalog.snapshot().dataPath());
      assertEquals("a", catalog.snapshotAt(1).table(1).orElseThrow().name());
      assertEquals(
          List.of("a2"), catalog.snapshot().tables().stream().map(TableInfo::name).toList());
      try (KvReader reader = provider.openReader(ReaderMode.followLatest());
          ReadOnlyCatalog ro = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
        assertEquals(2, ro.head().snapshotId());
        assertEquals("a", ro.snapshotAt(1).table(1).orElseThrow().name());
      }
    }
  }
}
