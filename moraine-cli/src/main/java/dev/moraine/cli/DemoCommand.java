package dev.moraine.cli;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.store.SlateStoreProvider;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Walks through what the store under a Moraine catalog guarantees, on a local-directory store:
 * atomic batches, first-committer-wins transactions, explicit durability, checkpoints and the
 * readers pinned at them, reopening, and fencing. Each step states what it expects and checks it;
 * the command fails if any expectation does not hold.
 */
@Command(name = "demo", description = "Exercise a Moraine store on a local directory.")
final class DemoCommand implements Callable<Integer> {

  @Mixin StoreOptions store;

  @Spec CommandSpec spec;

  private PrintWriter out;
  private int failures;

  @Override
  public Integer call() {
    out = spec.commandLine().getOut();
    out.printf(
        "Moraine store demo in %s (store path '%s')%n",
        store.directory.toAbsolutePath(), store.storePath);
    SlateStoreProvider provider = new SlateStoreProvider(store.config());
    String run = Long.toString(System.currentTimeMillis());

    CheckpointId checkpoint;
    try (KvStore writer = provider.openWriter()) {
      step("1. one atomic batch of three keys");
      WriteReceipt receipt =
          writer.write(
              new WriteBatch()
                  .put(key("demo/" + run + "/a"), text("alpha"))
                  .put(key("demo/" + run + "/b"), text("beta"))
                  .put(key("demo/" + run + "/c"), text("gamma")));
      check(writer.get(key("demo/" + run + "/b")) != null, "the batch is visible at once");

      step("2. two transactions race on one key");
      racingTransactions(writer, run);

      step("3. durability and a checkpoint");
      writer.flushWal();
      check(writer.durableSeqnum() >= receipt.seqnum(), "the batch is durable after a WAL flush");
      checkpoint = writer.createCheckpoint(Duration.ofMinutes(10));
      out.printf("   checkpoint %s%n", checkpoint.id());
      writer.write(new WriteBatch().put(key("demo/" + run + "/later"), text("after checkpoint")));
      writer.flushWal();

      step("4. readers");
      try (KvReader pinned = provider.openReader(ReaderMode.pinned(checkpoint))) {
        check(pinned.get(key("demo/" + run + "/a")) != null, "the pinned reader sees the batch");
        check(
            pinned.get(key("demo/" + run + "/later")) == null,
            "the pinned reader does not see the write after its checkpoint");
      }
      try (KvReader latest = provider.openReader(ReaderMode.followLatest())) {
        check(
            latest.get(key("demo/" + run + "/later")) != null,
            "a latest-following reader sees the durable later write");
      }
    }

    step("5. reopen");
    try (KvStore reopened = provider.openWriter()) {
      byte[] value = reopened.get(key("demo/" + run + "/c"));
      check(
          value != null && new String(value, StandardCharsets.UTF_8).equals("gamma"),
          "a durable write survives close and reopen");

      step("6. fencing");
      try (KvStore newer = provider.openWriter()) {
        try {
          reopened.write(new WriteBatch().put(key("demo/" + run + "/fenced"), text("lost")));
          reopened.flushWal();
          check(false, "the fenced writer's write fails");
        } catch (KvFencedException refused) {
          check(true, "opening a second writer fences the first: " + refused.getMessage());
        } catch (KvOutcomeUnknownException unknown) {
          // The flush found the fence after the write was handed over: its outcome is unknown
          // until read back, which the next check does.
          check(
              unknown.reason() == KvOutcomeUnknownException.Reason.FENCED,
              "opening a second writer fences the first: " + unknown.getMessage());
        }
        check(newer.get(key("demo/" + run + "/fenced")) == null, "the fenced writer wrote nothing");
      }
    } catch (KvFencedException closedFenced) {
      // A call on the fenced writer after the fence is refused as fenced.
    }

    out.printf("%n%s: %d failed expectation(s)%n", failures == 0 ? "OK" : "FAILED", failures);
    out.flush();
    return failures == 0 ? 0 : 1;
  }

  private void racingTransactions(KvStore writer, String run) {
    byte[] contested = key("demo/" + run + "/contested");
    try (KvTransaction first = writer.begin();
        KvTransaction second = writer.begin()) {
      first.put(contested, text("first"));
      second.put(contested, text("second"));
      first.commit();
      try {
        second.commit();
        check(false, "the second transaction is refused");
      } catch (KvTransactionConflictException expected) {
        check(true, "the first committer wins; the second gets a typed conflict");
      }
    }
    byte[] value = writer.get(contested);
    check(
        value != null && new String(value, StandardCharsets.UTF_8).equals("first"),
        "the loser wrote nothing");
  }

  private void step(String title) {
    out.printf("%n%s%n", title);
  }

  private void check(boolean holds, String expectation) {
    out.printf("   [%s] %s%n", holds ? "ok" : "FAILED", expectation);
    if (!holds) {
      failures++;
    }
  }

  private static byte[] key(String s) {
    return text(s);
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
