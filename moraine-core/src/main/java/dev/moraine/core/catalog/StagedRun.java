package dev.moraine.core.catalog;

import dev.moraine.core.commit.CommitWork;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.verb.StagedTranslation;
import dev.moraine.core.view.SnapshotView;

/**
 * Rows DuckLake authored ({@link Catalog#commitStaged}) as the commit path runs them: translated
 * against each premise, and rebased onto it when they are data-only. Rows that change the catalog's
 * shape cannot be rebased: they commit alone, and a race they lose makes arrivals yield to their
 * re-drive.
 */
final class StagedRun implements CommitWork {
  private final StagedRows rows;
  private final CatalogOptions options;
  private final boolean changesShape;

  StagedRun(StagedRows rows, CatalogOptions options) {
    this.rows = rows;
    this.options = options;
    this.changesShape = StagedTranslation.changesShape(rows);
  }

  @Override
  public Draft run(SnapshotView premise, SnapshotValue premiseRecord) {
    return StagedTranslation.translate(
        premise, premiseRecord, rows, options, CatalogSnapshot.of(premise));
  }

  @Override
  public boolean commitsAlone() {
    return changesShape;
  }
}
