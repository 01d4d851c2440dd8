package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.store.commit.CatalogModel.Intent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Histories of {@link ConcurrentVerbModelPropertiesTest}'s intents that a concurrent run reached
 * only rarely, replayed on one thread through the catalog (real SlateDB) and through {@link
 * CatalogModel}: each commit must land or be refused with the same error on both sides, and the
 * catalog must read as the model says after every commit.
 */
class CatalogModelReplayTest {

  @Test
  void commentsBetweenTwoInlinedInsertsLeaveOneSchemaVersionForTheFlush() {
    // A comment bumps schema_version but writes no schema_versions record (RFC 0004 §3), so the
    // rows inlined before and after it share one schema version and one flush takes them all.
    List<Class<?>> outcomes =
        replay(
            new Intent.CreateTable(0, "t", 1),
            new Intent.InsertInlined(1, 2),
            new Intent.Tag(CatalogModel.TagOn.TABLE, 1, 0, "comment", "table note"),
            new Intent.Tag(CatalogModel.TagOn.COLUMN, 1, 1, "comment", "column note"),
            new Intent.InsertInlined(1, 2),
            new Intent.Flush(1, 4, false, Set.of()));
    assertEquals(List.of(), outcomes.stream().filter(o -> o != null).toList());
  }

  @Test
  void aColumnAddedBetweenTwoInlinedInsertsLeavesTwoSchemaVersionsNoFlushTakesTogether() {
    List<Class<?>> outcomes =
        replay(
            new Intent.CreateTable(0, "t", 1),
            new Intent.InsertInlined(1, 2),
            new Intent.AddColumn(1, "extra", "int64"),
            new Intent.InsertInlined(1, 2),
            new Intent.Flush(1, 4, false, Set.of()));
    assertEquals(InvalidArgumentException.class, outcomes.get(4));
  }

  @Test
  void aFlushWithRowAndFileDeletesNumbersItsFilesAsStockDuckLake() {
    // File 0 holds rows 0-5; rows 6-8 are inlined; row 7 (inlined) and row 2 (of file 0) are
    // deleted inline. The flush's files: the data file (2), the delete file of file 0 (3), then
    // the delete file of the flushed rows (4).
    List<Class<?>> outcomes =
        replay(
            new Intent.CreateTable(0, "t", 1),
            new Intent.RegisterFile(1, 6, 0),
            new Intent.InsertInlined(1, 3),
            new Intent.DeleteInline(1, 7),
            new Intent.DeleteInline(1, 2),
            new Intent.Flush(1, 3, true, Set.of(0L)));
    assertEquals(List.of(), outcomes.stream().filter(o -> o != null).toList());
  }

  /**
   * Commits each intent, applies it to the model at the snapshot it would mint, and checks that
   * both agree on the outcome and that the head reads as the model; then reads every snapshot
   * through a reader opened afterwards, with the files a flush backdated. Returns each commit's
   * error (null when it landed).
   */
  private static List<Class<?>> replay(Intent... intents) {
    List<Class<?>> outcomes = new ArrayList<>();
    try (CommitLake lake = new CommitLake()) {
      CatalogModel model = CatalogModel.bootstrap();
      List<CatalogModel> bySnapshot = new ArrayList<>(List.of(model));
      for (Intent intent : intents) {
        long premise = lake.catalog.snapshot().snapshotId();
        Class<?> error = null;
        try {
          lake.catalog.commit(tx -> ConcurrentVerbModelPropertiesTest.perform(tx, intent));
        } catch (MoraineException e) {
          error = e.getClass();
        }
        CatalogModel next = model.copy();
        next.at = premise + 1;
        Class<? extends RuntimeException> expected = next.apply(intent);
        assertEquals(expected, error, intent + " on snapshot " + premise);
        if (expected == null) {
          model = next;
          bySnapshot.add(model);
        }
        ConcurrentVerbModelPropertiesTest.check(model, lake.catalog.snapshot());
        outcomes.add(error);
      }
      try (ReadOnlyCatalog reader = Catalog.openReadOnly(lake.store, CatalogOptions.defaults())) {
        for (int s = 0; s < bySnapshot.size(); s++) {
          ConcurrentVerbModelPropertiesTest.check(
              bySnapshot.get(s).asReadAfter(model), reader.snapshotAt(s));
        }
      }
    }
    return outcomes;
  }
}
