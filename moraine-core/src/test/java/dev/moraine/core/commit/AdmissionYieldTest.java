package dev.moraine.core.commit;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.SnapshotView;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The yield to a non-rebasable commit's re-drive (RFC 0004 spec, "Staged-row commits"): while it
 * lasts, the commit thread takes only commits that commit alone, each as a batch of its own; the
 * rest wait for its end, in arrival order; and a commit that commits alone never joins a batch
 * behind another member.
 */
class AdmissionYieldTest {
  private static final class Work implements CommitWork {
    private final boolean alone;

    Work(boolean alone) {
      this.alone = alone;
    }

    @Override
    public Draft run(SnapshotView premise, SnapshotValue premiseRecord) {
      throw new UnsupportedOperationException("never run here");
    }

    @Override
    public boolean commitsAlone() {
      return alone;
    }
  }

  @Test
  void duringAYield_onlyACommitThatCommitsAlone_isTaken_andAlone() throws Exception {
    Admission admission = new Admission();
    CommitRequest first = admission.admit(List.of(new Work(false)));
    CommitRequest second = admission.admit(List.of(new Work(false)));
    long start = System.nanoTime();
    admission.yieldArrivals(TimeUnit.MILLISECONDS.toNanos(300));
    CommitRequest redrive = admission.admit(List.of(new Work(true)));

    assertSame(redrive, admission.takeFirst(), "the re-drive goes first, past the others");
    assertNull(admission.takeNext(), "nothing joins it during the yield");

    assertSame(first, admission.takeFirst(), "the others, in order, once the yield is over");
    assertTrue(
        System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300),
        "not before the yield is over");
    assertSame(second, admission.takeNext());
  }

  @Test
  void aCommitThatCommitsAlone_startsABatchOfItsOwn() throws Exception {
    Admission admission = new Admission();
    CommitRequest first = admission.admit(List.of(new Work(false)));
    CommitRequest alone = admission.admit(List.of(new Work(true)));
    CommitRequest after = admission.admit(List.of(new Work(false)));
    assertSame(first, admission.takeFirst());
    assertNull(admission.takeNext(), "it does not join the batch behind another member");
    assertSame(alone, admission.takeFirst());
    assertSame(after, admission.takeNext(), "others may follow it");
  }
}
