package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.KvStoreContractTest;
import dev.moraine.store.ObjectStoreSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole store contract on an S3-compatible object store: S3Proxy started in this JVM, or the
 * endpoint named by {@code -Dmoraine.s3.endpoint} and friends (see {@link S3Fixture}). Every test
 * gets its own prefix in the bucket.
 */
@ExtendWith(S3FixtureExtension.class)
class S3KvStoreContractTest extends KvStoreContractTest {
  private static S3Fixture fixture;
  private static volatile String currentTest = "test";

  /** Runs before the contract's own set-up, so the new location can carry the test's name. */
  @RegisterExtension
  static final BeforeEachCallback NAME_THE_LOCATION =
      context -> currentTest = context.getRequiredTestMethod().getName();

  private S3Location location;

  @BeforeAll
  static void useFixture(S3Fixture shared) {
    fixture = shared;
  }

  /** SlateDB recognises its own WAL object on S3. */
  @Override
  protected LostResponseAnswer lostWalResponseAnswer() {
    return LostResponseAnswer.FLUSH_SUCCEEDS;
  }

  @Override
  protected ObjectStoreSpec newObjectStore() {
    location = fixture.newLocation(currentTest);
    return ObjectStoreSpec.s3(
        location.endpoint().toString(),
        location.bucket(),
        location.prefix(),
        location.region(),
        location.accessKey(),
        location.secretKey(),
        location.allowHttp());
  }

  @Test
  void objectsLandUnderTheConfiguredPrefix() {
    try (KvStore store = openWriter()) {
      byte[] key = "k".getBytes(StandardCharsets.UTF_8);
      var receipt = store.write(new WriteBatch().put(key, key));
      store.flushWal();
      store.awaitDurable(receipt);
    }
    List<String> objects = new S3HttpClient(location).list();
    String root = storePath() + "/";
    assertTrue(
        objects.stream().anyMatch(o -> o.startsWith(root + "manifest/")),
        () -> "no manifest in " + objects);
    assertTrue(
        objects.stream().anyMatch(o -> o.startsWith(root + "wal/")), () -> "no WAL in " + objects);
    assertEquals(
        List.of(),
        objects.stream().filter(o -> !o.startsWith(root)).toList(),
        "every object is under the store's path");
  }
}
