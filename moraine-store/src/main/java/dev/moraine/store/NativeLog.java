package dev.moraine.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards the native library's log records (SlateDB's, object_store's) to slf4j.
 *
 * <p>Native code never calls into Java to log: its threads (tokio workers) are not attached to the
 * JVM. It appends each record, formatted and with credentials masked, to a bounded queue (see
 * {@code log_bridge.rs}); one daemon thread here, {@value #THREAD_NAME}, drains it with one native
 * call per batch and logs each record to the slf4j logger named after the record's target, with
 * {@code ::} turned into {@code .} so that logger configuration works by prefix (target {@code
 * slatedb::db} logs to {@code slatedb.db}). A record logged while the queue is full is dropped; the
 * count of dropped records is logged as a warning by {@value #DROPPED_LOGGER}.
 *
 * <p>Which records cross at all is decided once, at load: the most detailed level that slf4j
 * enables for the loggers {@code slatedb} and {@code object_store}, or the level named by the
 * system property {@value #LEVEL_PROPERTY} ({@code off}, {@code error}, {@code warn}, {@code info},
 * {@code debug}, {@code trace}).
 */
final class NativeLog {
  /** System property naming the most detailed native level forwarded. */
  static final String LEVEL_PROPERTY = "moraine.native.logLevel";

  static final String THREAD_NAME = "moraine-native-log";

  static final String DROPPED_LOGGER = "dev.moraine.store.NativeLog";

  private static final Logger LOG = LoggerFactory.getLogger(DROPPED_LOGGER);

  /** How long one poll waits in native code for a record. */
  private static final long POLL_MILLIS = 200;

  /** Records forwarded since load, and records the native queue dropped. */
  private static final AtomicLong FORWARDED = new AtomicLong();

  private static final AtomicLong DROPPED = new AtomicLong();

  /** Observers of every forwarded record, for tests; the thread only reads the list. */
  private static final List<Consumer<String>> TAPS = new CopyOnWriteArrayList<>();

  private NativeLog() {}

  /**
   * Installs the native bridge and starts the draining thread. Called once, from {@link Native}'s
   * static initialiser (so exactly once per class loader, after the library is loaded).
   */
  static void start() {
    setLevel(level());
    Thread drainer = new Thread(NativeLog::drain, THREAD_NAME);
    drainer.setDaemon(true);
    drainer.start();
  }

  /**
   * Sets the most detailed native level that crosses to Java ({@code 0} off to {@code 5} trace).
   * The slf4j loggers still filter what they print; tests raise it to see every record.
   */
  static void setLevel(int level) {
    Native.logInit(level);
  }

  /** The level chosen at load: the system property, or what slf4j enables. */
  static int configuredLevel() {
    return level();
  }

  /** Records forwarded to slf4j so far. */
  static long forwarded() {
    return FORWARDED.get();
  }

  /** Records the native queue dropped because it was full. */
  static long dropped() {
    return DROPPED.get();
  }

  /**
   * Calls {@code tap} with {@code "LEVEL target message"} for every record forwarded from now on,
   * on the draining thread. For tests.
   */
  static void addTap(Consumer<String> tap) {
    TAPS.add(tap);
  }

  static void removeTap(Consumer<String> tap) {
    TAPS.remove(tap);
  }

  private static int level() {
    String named = System.getProperty(LEVEL_PROPERTY);
    if (named != null && !named.isBlank()) {
      return switch (named.trim().toLowerCase(Locale.ROOT)) {
        case "off" -> 0;
        case "error" -> 1;
        case "warn" -> 2;
        case "info" -> 3;
        case "debug" -> 4;
        case "trace" -> 5;
        default ->
            throw new IllegalArgumentException(
                LEVEL_PROPERTY + " must be off, error, warn, info, debug or trace: " + named);
      };
    }
    return Math.max(
        enabledLevel(LoggerFactory.getLogger("slatedb")),
        enabledLevel(LoggerFactory.getLogger("object_store")));
  }

  private static int enabledLevel(Logger logger) {
    if (logger.isTraceEnabled()) {
      return 5;
    }
    if (logger.isDebugEnabled()) {
      return 4;
    }
    if (logger.isInfoEnabled()) {
      return 3;
    }
    if (logger.isWarnEnabled()) {
      return 2;
    }
    return logger.isErrorEnabled() ? 1 : 0;
  }

  /** The draining loop; never ends (the thread is a daemon). */
  private static void drain() {
    while (true) {
      try {
        byte[] batch = Native.logPoll(POLL_MILLIS);
        if (batch != null) {
          forward(ByteBuffer.wrap(batch));
        }
      } catch (RuntimeException | Error e) {
        // A failed poll must not end forwarding for the life of the process; it is reported, and
        // the next poll goes on after a pause so a persistent failure cannot spin.
        LOG.warn("forwarding native log records failed", e);
        try {
          Thread.sleep(1000);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static void forward(ByteBuffer batch) {
    long dropped = batch.getLong();
    if (dropped > 0) {
      DROPPED.addAndGet(dropped);
      LOG.warn("{} native log records were dropped: the queue was full", dropped);
    }
    while (batch.hasRemaining()) {
      int level = batch.get();
      String target = text(batch);
      String message = text(batch);
      Logger logger = LoggerFactory.getLogger(target.replace("::", "."));
      switch (level) {
        case 1 -> logger.error(message);
        case 2 -> logger.warn(message);
        case 3 -> logger.info(message);
        case 4 -> logger.debug(message);
        default -> logger.trace(message);
      }
      FORWARDED.incrementAndGet();
      if (!TAPS.isEmpty()) {
        String line = levelName(level) + " " + target + " " + message;
        for (Consumer<String> tap : TAPS) {
          tap.accept(line);
        }
      }
    }
  }

  private static String text(ByteBuffer batch) {
    int length = batch.getInt();
    String text = new String(batch.array(), batch.position(), length, StandardCharsets.UTF_8);
    batch.position(batch.position() + length);
    return text;
  }

  private static String levelName(int level) {
    return switch (level) {
      case 1 -> "ERROR";
      case 2 -> "WARN";
      case 3 -> "INFO";
      case 4 -> "DEBUG";
      default -> "TRACE";
    };
  }
}
