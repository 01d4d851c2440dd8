package dev.moraine.core.lake;

import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FencedException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvDataException;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvUnavailableException;
import java.util.function.Supplier;

/**
 * The catalog boundary for errors: every store and codec exception that leaves a catalog call is
 * translated here into the catalog's own family, so a caller only ever sees {@link
 * MoraineException}s. Public for the code that opens stores for a catalog (moraine-store's {@code
 * Lake}), which answers in the same family.
 */
public final class KvErrors {
  private KvErrors() {}

  /** Runs {@code body}, translating store and codec failures. */
  public static <T> T translate(String what, Supplier<T> body) {
    try {
      return body.get();
    } catch (RuntimeException e) {
      throw map(what, e);
    }
  }

  /**
   * The catalog exception for {@code e}, raised while doing {@code what}; catalog exceptions, and
   * exceptions of neither family, pass through unchanged.
   */
  public static RuntimeException map(String what, RuntimeException e) {
    if (e instanceof MoraineException m) {
      return m;
    }
    if (e instanceof KeyspaceDataException k) {
      return new CorruptionException(what + ": " + k.getMessage(), k);
    }
    if (e instanceof KvDataException d) {
      return new CorruptionException(
          what + ": the store refused its own data: " + d.getMessage(), d);
    }
    if (e instanceof KvFencedException f) {
      return new FencedException(what + ": " + f.getMessage(), f);
    }
    if (e instanceof KvClosedException c) {
      return new ClosedException(what + ": the store handle is closed", c);
    }
    if (e instanceof dev.moraine.core.kv.KvOutcomeUnknownException o) {
      return new StoreUnavailableException(what + ": outcome unknown: " + o.getMessage(), o);
    }
    if (e instanceof KvUnavailableException u) {
      return new StoreUnavailableException(what + ": " + u.getMessage(), u);
    }
    if (e instanceof dev.moraine.core.kv.KvException k) {
      // Invalid arguments and unexpected conflicts on a read path are defects here, not the
      // caller's: report them as such rather than as a store outage.
      return new MoraineException(ErrorCode.INTERNAL, what + ": " + k.getMessage(), k);
    }
    return e;
  }
}
