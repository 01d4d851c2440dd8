package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.store.Lake;
import dev.moraine.store.LakeLocation;
import dev.moraine.store.LakeLocationException;
import dev.moraine.store.S3Credentials;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * The one-call door on an S3-compatible store (S3Proxy in this JVM, or the endpoint configured).
 */
@ExtendWith(S3FixtureExtension.class)
class S3LakeTest {

  /** {@code s3://bucket/prefix} of {@code location}, with its keys and endpoint. */
  private static LakeLocation lake(S3Location location) {
    return LakeLocation.of(
            "s3://" + location.bucket() + "/" + location.prefix(),
            S3Credentials.ofKeys(location.accessKey(), location.secretKey()))
        .withEndpoint(location.endpoint().toString(), location.allowHttp())
        .withRegion(location.region());
  }

  @Test
  void aLakeIsCreatedReopenedAndReadThroughItsUri(S3Location location) {
    long table;
    try (Catalog catalog = Lake.open(lake(location))) {
      assertTrue(catalog.createdByThisOpen());
      table =
          catalog
              .commitReturning(
                  tx -> tx.createTable(0, "orders", List.of(ColumnDef.of("id", "int64"))))
              .value();
    }
    assertTrue(
        new S3HttpClient(location).list().stream().anyMatch(k -> k.startsWith("manifest/")),
        "the database is at the URI's prefix");
    try (ReadOnlyCatalog reader = Lake.openReadOnly(lake(location))) {
      assertEquals("orders", reader.snapshot().table(table).orElseThrow().name());
    }
    try (Catalog again = Lake.open(lake(location))) {
      assertFalse(again.createdByThisOpen());
    }
  }

  @Test
  void aMissingBucket_isRefusedInOneLineAndStaysMissing(S3Location location) {
    S3Location nowhere =
        new S3Location(
            location.endpoint(),
            "no-such-bucket-" + Long.toHexString(System.nanoTime()),
            location.prefix(),
            location.region(),
            location.accessKey(),
            location.secretKey(),
            location.allowHttp());
    for (Executable open :
        List.<Executable>of(
            () -> Lake.open(lake(nowhere)), () -> Lake.openReadOnly(lake(nowhere)))) {
      LakeLocationException e = assertThrows(LakeLocationException.class, open);
      assertEquals(ErrorCode.LOCATION_NOT_FOUND, e.code());
      assertTrue(
          e.getMessage().contains("the bucket '" + nowhere.bucket() + "' does not exist"),
          e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    IllegalStateException listing =
        assertThrows(IllegalStateException.class, () -> new S3HttpClient(nowhere).list());
    assertTrue(listing.getMessage().contains("404"), listing.getMessage());
  }

  @Test
  void aPrefixHoldingOtherObjects_isNotALakeAndStaysAsItIs(S3Location location) {
    S3HttpClient s3 = new S3HttpClient(location);
    assertEquals(
        200,
        s3.put("notes.txt", "not a lake".getBytes(StandardCharsets.UTF_8), Map.of()).statusCode());
    for (Executable open :
        List.<Executable>of(
            () -> Lake.open(lake(location)), () -> Lake.openReadOnly(lake(location)))) {
      LakeLocationException e = assertThrows(LakeLocationException.class, open);
      assertEquals(ErrorCode.NOT_A_LAKE, e.code());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    assertEquals(List.of("notes.txt"), s3.list());
  }

  @Test
  void anEmptyPrefix_opensReadOnlyAsNoLakeAndWritesNothing(S3Location location) {
    NotFoundException e =
        assertThrows(NotFoundException.class, () -> Lake.openReadOnly(lake(location)));
    assertEquals(ErrorCode.NOT_INITIALIZED, e.code());
    assertEquals(List.of(), new S3HttpClient(location).list());
  }
}
