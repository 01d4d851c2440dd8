package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.MaintenanceStatusPassValue;
import dev.moraine.core.keyspace.proto.MaintenanceStatusStepValue;
import dev.moraine.core.keyspace.proto.MaintenanceStatusValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.core.lake.KvErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * The record of the recent maintenance passes, {@code sys/maintenance_status} ({@code 02 05}, RFC
 * 0002 §4.1): the 16 most recent passes, oldest first, as the Rust implementation writes it. A pass
 * is added in a store transaction of its own that reads the record, appends, drops the oldest past
 * 16 and writes it back, without a head write (RFC 0002 §12.2: no reader's view depends on it), and
 * is then made durable.
 */
public final class MaintenanceStatusRecord {
  /** How many passes the record keeps. */
  public static final int RETAINED = 16;

  private static final byte[] KEY = KeyCodec.encode(SysKey.MAINTENANCE_STATUS);

  private MaintenanceStatusRecord() {}

  /** The passes recorded, newest first. */
  public static List<MaintenancePass> read(KvReadView v) {
    byte[] raw = v.get(KEY);
    List<MaintenancePass> out = new ArrayList<>();
    if (raw == null) {
      return out;
    }
    MaintenanceStatusValue value =
        ValueCodec.decode(SysKey.MAINTENANCE_STATUS, raw, MaintenanceStatusValue.class);
    for (MaintenanceStatusPassValue p : value.getPassesList()) {
      List<MaintenancePass.Step> steps = new ArrayList<>();
      for (MaintenanceStatusStepValue s : p.getStepsList()) {
        steps.add(new MaintenancePass.Step(s.getStep(), s.getStatus(), s.getDetail()));
      }
      out.add(
          0, new MaintenancePass(Micros.toInstant(p.getStartedAtMicros()), p.getTrigger(), steps));
    }
    return out;
  }

  /**
   * Adds {@code pass} to the record of {@code store} and waits until it is durable.
   *
   * @throws dev.moraine.core.catalog.MoraineException as the store fails
   */
  static void append(KvStore store, MaintenancePass pass) {
    MaintenanceStatusPassValue.Builder encoded =
        MaintenanceStatusPassValue.newBuilder()
            .setStartedAtMicros(Micros.of(pass.startedAt()))
            .setTrigger(pass.trigger());
    for (MaintenancePass.Step s : pass.steps()) {
      encoded.addSteps(
          MaintenanceStatusStepValue.newBuilder()
              .setStep(s.step())
              .setStatus(s.status())
              .setDetail(s.detail()));
    }
    KvErrors.translate(
        "recording a maintenance pass",
        () -> {
          for (int attempt = 0; ; attempt++) {
            try (KvTransaction tx = store.begin()) {
              byte[] raw = tx.get(KEY);
              MaintenanceStatusValue.Builder value =
                  raw == null
                      ? MaintenanceStatusValue.newBuilder()
                      : ValueCodec.decode(
                          SysKey.MAINTENANCE_STATUS, raw, MaintenanceStatusValue.class)
                          .toBuilder();
              value.addPasses(encoded);
              while (value.getPassesCount() > RETAINED) {
                value.removePasses(0);
              }
              tx.put(KEY, ValueCodec.encode(SysKey.MAINTENANCE_STATUS, value.build()));
              store.awaitDurable(commitAndFlush(store, tx));
              return null;
            } catch (KvTransactionConflictException lost) {
              if (attempt >= 9) {
                throw lost;
              }
            }
          }
        });
  }

  private static WriteReceipt commitAndFlush(KvStore store, KvTransaction tx) {
    WriteReceipt receipt = tx.commit();
    // The writer's store has no flush timer of its own (the commit path flushes its batches): this
    // write is made durable here.
    store.flushWal();
    return receipt;
  }
}
