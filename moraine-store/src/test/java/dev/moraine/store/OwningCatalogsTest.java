package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvUnavailableException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A catalog that owns its handle: calls pass through, and close closes both, in order, once. */
class OwningCatalogsTest {
  private final List<String> calls = new ArrayList<>();

  /** A {@code type} that records each call as {@code name.method} and answers from {@code with}. */
  private <T> T fake(Class<T> type, String name, Map<String, Supplier<Object>> with) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("equals")
                    ? proxy == args[0]
                    : method.getName().equals("hashCode") ? 1 : name;
              }
              calls.add(name + "." + method.getName());
              Supplier<Object> answer = with.get(method.getName());
              return answer == null ? null : answer.get();
            }));
  }

  @Test
  void callsPassThroughAndTheirErrorsUnchanged() {
    NotFoundException missing = new NotFoundException(ErrorCode.NOT_FOUND, "no snapshot 7");
    Catalog inner =
        fake(
            Catalog.class,
            "catalog",
            Map.of(
                "createdByThisOpen",
                () -> true,
                "snapshotAt",
                () -> {
                  throw missing;
                }));
    Catalog owned = OwningCatalogs.writer(inner, fake(KvStore.class, "store", Map.of()), "here");
    assertEquals(true, owned.createdByThisOpen());
    assertSame(missing, assertThrows(NotFoundException.class, () -> owned.snapshotAt(7)));
    assertEquals(List.of("catalog.createdByThisOpen", "catalog.snapshotAt"), calls);
    assertEquals("writer catalog on here", owned.toString());
    assertEquals(owned, owned);
    assertNotEquals(owned, inner);
  }

  @Test
  void closeClosesTheCatalogThenTheStoreOnce() {
    Catalog owned =
        OwningCatalogs.writer(
            fake(Catalog.class, "catalog", Map.of()), fake(KvStore.class, "store", Map.of()), "x");
    owned.close();
    owned.close();
    assertEquals(List.of("catalog.close", "store.close"), calls);
  }

  @Test
  void aCatalogThatFailsToClose_stillClosesItsStore() {
    ClosedException broken = new ClosedException("already gone", null);
    Catalog owned =
        OwningCatalogs.writer(
            fake(
                Catalog.class,
                "catalog",
                Map.of(
                    "close",
                    () -> {
                      throw broken;
                    })),
            fake(KvStore.class, "store", Map.of()),
            "x");
    assertSame(broken, assertThrows(ClosedException.class, owned::close));
    assertEquals(List.of("catalog.close", "store.close"), calls);
  }

  @Test
  void aStoreThatFailsToClose_isReportedInTheCatalogsFamily() {
    ReadOnlyCatalog owned =
        OwningCatalogs.reader(
            fake(ReadOnlyCatalog.class, "catalog", Map.of()),
            fake(
                KvReader.class,
                "reader",
                Map.of(
                    "close",
                    () -> {
                      throw new KvUnavailableException("the object store is down");
                    })),
            "x");
    StoreUnavailableException e = assertThrows(StoreUnavailableException.class, owned::close);
    assertEquals(ErrorCode.STORE_UNAVAILABLE, e.code());
    assertEquals(List.of("catalog.close", "reader.close"), calls);
    assertFalse(owned instanceof Catalog, "a read-only catalog has no commit methods");
  }
}
