package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.LakeFilesScenario;
import dev.moraine.store.ObjectStoreLakeFiles;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The file cleanup and the orphan search on a data path in an S3-compatible store (S3Proxy in this
 * JVM): the shared scenario, with the objects written by plain S3 PUTs under the data path's
 * prefix.
 */
@ExtendWith(S3FixtureExtension.class)
class S3LakeFilesTest {
  @Test
  void cleanupAndOrphans_onS3(S3Location location) throws Exception {
    S3Location data = location.child("data");
    S3HttpClient s3 = new S3HttpClient(data);
    ObjectStoreSpec spec =
        ObjectStoreSpec.s3(
            data.endpoint().toString(),
            data.bucket(),
            data.prefix(),
            data.region(),
            data.accessKey(),
            data.secretKey(),
            data.allowHttp());
    try (KvStore store =
            new SlateStoreProvider(
                    StoreConfig.of(ObjectStoreSpec.inMemory("s3files-" + UUID.randomUUID()), "l"))
                .openWriter();
        Catalog catalog =
            Catalog.open(
                store,
                CatalogOptions.defaults()
                    .withDataPath("s3://" + data.bucket() + "/" + data.prefix() + "/"));
        ObjectStoreLakeFiles files = ObjectStoreLakeFiles.of(spec, "")) {
      LakeFilesScenario.run(
          catalog,
          files,
          (path, bytes) -> assertEquals(200, s3.put(path, bytes, Map.of()).statusCode(), path));
    }
  }
}
