package dev.moraine.core.catalog;

import dev.moraine.core.commit.CommitWork;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.SnapshotView;

/** A host's {@link CommitBody} as the commit path runs it: one {@link Transaction} per run. */
final class TransactionRun implements CommitWork {
  private final CommitBody body;
  private final CatalogOptions options;

  TransactionRun(CommitBody body, CatalogOptions options) {
    this.body = body;
    this.options = options;
  }

  @Override
  public Draft run(SnapshotView premise, SnapshotValue premiseRecord) {
    Transaction handle = new Transaction(premise, premiseRecord, options);
    try {
      body.run(handle);
    } catch (Throwable t) {
      // The run is over: a handle the body kept refuses verbs from now on, instead of taking
      // changes that would go nowhere.
      handle.seal();
      throw t;
    }
    return handle.draft();
  }
}
