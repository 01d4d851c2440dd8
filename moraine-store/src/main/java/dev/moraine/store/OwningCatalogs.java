package dev.moraine.store;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.lake.KvErrors;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Catalogs that own the store handle they were opened on: closing one closes the catalog, then the
 * handle. Every other call goes to the catalog unchanged.
 *
 * <p>The owner is a dynamic proxy of the catalog's interface rather than a class that forwards each
 * method by hand, so that it forwards every method the interface has, those added later included,
 * and a read-only catalog's proxy implements {@link ReadOnlyCatalog} alone (no cast reaches a
 * commit method).
 */
final class OwningCatalogs {
  private OwningCatalogs() {}

  /** {@code catalog}, which also closes {@code store} when closed. */
  static Catalog writer(Catalog catalog, KvStore store, String where) {
    return own(Catalog.class, catalog, store::close, "writer catalog on " + where);
  }

  /** {@code catalog}, which also closes {@code reader} when closed. */
  static ReadOnlyCatalog reader(ReadOnlyCatalog catalog, KvReader reader, String where) {
    return own(ReadOnlyCatalog.class, catalog, reader::close, "read-only catalog on " + where);
  }

  private static <T extends ReadOnlyCatalog> T own(
      Class<T> type, T catalog, Runnable closeHandle, String description) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            new Owner(catalog, closeHandle, description)));
  }

  private static final class Owner implements InvocationHandler {
    private final ReadOnlyCatalog catalog;
    private final Runnable closeHandle;
    private final String description;
    private final AtomicBoolean closed = new AtomicBoolean();

    Owner(ReadOnlyCatalog catalog, Runnable closeHandle, String description) {
      this.catalog = catalog;
      this.closeHandle = closeHandle;
      this.description = description;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return switch (method.getName()) {
          case "equals" -> proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          default -> description;
        };
      }
      if (method.getName().equals("close") && method.getParameterCount() == 0) {
        close();
        return null;
      }
      try {
        return method.invoke(catalog, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }

    /** The catalog first (it borrows the handle), then the handle, each once. */
    private void close() {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
      try {
        catalog.close();
      } finally {
        try {
          closeHandle.run();
        } catch (RuntimeException e) {
          throw KvErrors.map("closing the lake's store", e);
        }
      }
    }
  }
}
