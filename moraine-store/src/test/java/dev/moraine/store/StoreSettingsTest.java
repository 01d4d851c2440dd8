package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Validation of the settings, without native code. */
class StoreSettingsTest {

  @Test
  void intervalsBelowOneMillisecondAreRefused() {
    StoreSettings defaults = StoreSettings.defaults();
    for (Duration tooShort :
        new Duration[] {
          Duration.ZERO, Duration.ofNanos(1), Duration.ofNanos(999_999), Duration.ofMillis(-1)
        }) {
      assertThrows(
          KvInvalidArgumentException.class,
          () -> defaults.withFlushInterval(tooShort),
          "flush interval " + tooShort);
      assertThrows(
          KvInvalidArgumentException.class,
          () -> defaults.withManifestPollInterval(tooShort),
          "manifest poll interval " + tooShort);
      assertThrows(
          KvInvalidArgumentException.class,
          () -> defaults.withReaderPollInterval(tooShort),
          "reader poll interval " + tooShort);
    }
    assertThrows(KvInvalidArgumentException.class, () -> defaults.withManifestPollInterval(null));
    assertThrows(KvInvalidArgumentException.class, () -> defaults.withFlushInterval(null));
  }

  @Test
  void oneMillisecondAndAnOffTimerAreAccepted() {
    StoreSettings settings =
        StoreSettings.defaults()
            .withFlushInterval(Duration.ofMillis(1))
            .withManifestPollInterval(Duration.ofMillis(1))
            .withReaderPollInterval(Duration.ofNanos(1_500_000));
    assertEquals(1, StoreSettings.millisOrNone(settings.flushInterval()));
    assertEquals(1, StoreSettings.millisOrNone(settings.manifestPollInterval()));
    assertEquals(1, StoreSettings.millisOrNone(settings.readerPollInterval()));
    StoreSettings off = settings.withFlushTimerOff();
    assertNull(off.flushInterval());
    assertEquals(-1, StoreSettings.millisOrNone(off.flushInterval()));
  }

  @Test
  void theFlushTimerIsOffByDefault_forAWriterCatalogPacesItsOwnFlushes() {
    assertNull(StoreSettings.defaults().flushInterval());
  }

  @Test
  void theOperationTimeoutIsRequiredAndDefaultsToOneMinute() {
    StoreSettings defaults = StoreSettings.defaults();
    assertEquals(Duration.ofSeconds(60), defaults.operationTimeout());
    assertThrows(KvInvalidArgumentException.class, () -> defaults.withOperationTimeout(null));
    assertThrows(
        KvInvalidArgumentException.class, () -> defaults.withOperationTimeout(Duration.ZERO));
    assertEquals(
        Duration.ofMillis(1),
        defaults.withOperationTimeout(Duration.ofMillis(1)).operationTimeout());
  }

  @Test
  void compactionTuningDefaultsToSlateDbsAndIsChecked() {
    StoreSettings defaults = StoreSettings.defaults();
    assertNull(defaults.compactorPollInterval());
    assertNull(defaults.l0SstBytes());
    assertEquals(-1, defaults.l0SstBytesOrNone());
    StoreSettings tuned =
        defaults.withCompactorPollInterval(Duration.ofMillis(5)).withL0SstBytes(4096L);
    assertEquals(5, StoreSettings.millisOrNone(tuned.compactorPollInterval()));
    assertEquals(4096, tuned.l0SstBytesOrNone());
    assertEquals(defaults.flushInterval(), tuned.flushInterval(), "other settings are kept");
    assertEquals(tuned, tuned.withFlushTimerOff());
    assertThrows(
        KvInvalidArgumentException.class,
        () -> defaults.withCompactorPollInterval(Duration.ofNanos(10)));
    assertThrows(KvInvalidArgumentException.class, () -> defaults.withL0SstBytes(0L));
  }
}
