package dev.moraine.core.catalog;

import dev.moraine.core.commit.CommitWork;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.SnapshotView;

/** A host's {@link CommitBody} as the commit path runs it: one {@link Transaction} per run. */
final class TransactionRun implements CommitWork {
  private final CommitBody body;

  TransactionRun(CommitBody body) {
    this.body = body;
  }

  @Override
  public Draft run(SnapshotView premise, SnapshotValue premiseRecord) {
    Transaction handle = new Transaction(premise, premiseRecord);
    body.run(handle);
    return handle.draft();
  }
}
