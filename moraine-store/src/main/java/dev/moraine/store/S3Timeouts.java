package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.time.Duration;

/**
 * The S3 client's timeouts. Each one that fires fails that HTTP attempt; the client retries it (at
 * most twice within 20 s) and SlateDB retries the operation on top ({@code
 * StoreSettings.objectStoreMaxRetries}), after which the call fails with {@code
 * KvUnavailableException}. So a request to an endpoint that never answers fails after at most about
 * {@code (objectStoreMaxRetries + 1) * 3 * (timeout + backoff)}, where the timeout is {@code
 * connect} for an endpoint that never accepts a connection and {@code request} for one that accepts
 * and then stays silent (the client starts no retry 20 s after its first attempt). With the
 * defaults and 10 retries that is about two minutes and five and a half minutes; lower the retries
 * and these timeouts where a dead endpoint must fail within seconds.
 *
 * @param connect how long establishing a connection (TCP and TLS) may take; default 3 s
 * @param request how long one whole request may take, from connecting to the last byte of the
 *     response; default 30 s (it must cover uploading the largest object SlateDB writes over the
 *     slowest link in use)
 * @param poolIdle how long an idle pooled connection is kept for reuse; default 20 s, below the
 *     idle limit of common S3 servers, so a reused connection is rarely one the server has already
 *     closed
 */
public record S3Timeouts(Duration connect, Duration request, Duration poolIdle) {
  /** The defaults: connect 3 s, request 30 s, pool idle 20 s. */
  public static final S3Timeouts DEFAULTS =
      new S3Timeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(20));

  /**
   * Checks the timeouts.
   *
   * @throws KvInvalidArgumentException if one is null, below 1 ms or above 24 hours; nothing is
   *     created
   */
  public S3Timeouts {
    requireMillis(connect, "connect");
    requireMillis(request, "request");
    requireMillis(poolIdle, "poolIdle");
  }

  /** These timeouts with {@code connect} replaced. */
  public S3Timeouts withConnect(Duration connect) {
    return new S3Timeouts(connect, request, poolIdle);
  }

  /** These timeouts with {@code request} replaced. */
  public S3Timeouts withRequest(Duration request) {
    return new S3Timeouts(connect, request, poolIdle);
  }

  /** These timeouts with {@code poolIdle} replaced. */
  public S3Timeouts withPoolIdle(Duration poolIdle) {
    return new S3Timeouts(connect, request, poolIdle);
  }

  private static void requireMillis(Duration value, String what) {
    if (value == null) {
      throw new KvInvalidArgumentException("S3 " + what + " timeout must not be null");
    }
    if (value.compareTo(Duration.ofMillis(1)) < 0) {
      throw new KvInvalidArgumentException(
          "S3 " + what + " timeout must be at least 1 ms, was " + value);
    }
    if (value.compareTo(Duration.ofHours(24)) > 0) {
      throw new KvInvalidArgumentException(
          "S3 " + what + " timeout must be at most 24 hours, was " + value);
    }
  }
}
