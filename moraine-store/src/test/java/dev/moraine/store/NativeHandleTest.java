package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The close-versus-call guard, without native code. */
class NativeHandleTest {

  @Test
  void freesOnceWhenIdle() {
    AtomicInteger frees = new AtomicInteger();
    NativeHandle handle = new NativeHandle("thing", 42, a -> frees.incrementAndGet(), null);
    assertEquals(42, handle.enter());
    handle.exit();
    assertTrue(handle.beginClose());
    assertFalse(handle.beginClose());
    assertEquals(0, frees.get(), "the closer still holds it");
    handle.finishClose();
    assertEquals(1, frees.get());
    assertThrows(KvClosedException.class, handle::enter);
    assertEquals(1, frees.get());
  }

  @Test
  void theLastCallInFlightFrees() {
    AtomicInteger frees = new AtomicInteger();
    NativeHandle handle = new NativeHandle("thing", 1, a -> frees.incrementAndGet(), null);
    handle.enter();
    assertTrue(handle.beginClose());
    handle.finishClose();
    assertEquals(0, frees.get(), "a call is in flight");
    handle.exit();
    assertEquals(1, frees.get());
  }

  @Test
  void childrenFailOnceTheParentClosesAndAreClosedWithIt() throws Exception {
    AtomicInteger frees = new AtomicInteger();
    NativeHandle parent = new NativeHandle("parent", 1, a -> frees.incrementAndGet(), null);
    AtomicBoolean childClosed = new AtomicBoolean();
    parent.enter();
    NativeHandle child = new NativeHandle("child", 2, a -> frees.incrementAndGet(), parent);
    child.owner(
        () -> {
          childClosed.set(true);
          if (child.beginClose()) {
            child.finishClose();
          }
        });
    parent.exit();
    assertEquals(2, child.enter());
    child.exit();
    assertTrue(parent.beginClose());
    parent.finishClose();
    assertTrue(childClosed.get());
    assertEquals(2, frees.get());
    assertThrows(KvClosedException.class, child::enter);
  }

  @Test
  void racingCallsAndCloseFreeExactlyOnce() throws Exception {
    for (int round = 0; round < 200; round++) {
      AtomicInteger frees = new AtomicInteger();
      AtomicBoolean usedAfterFree = new AtomicBoolean();
      NativeHandle handle = new NativeHandle("thing", 7, a -> frees.incrementAndGet(), null);
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < 1000; i++) {
                    try {
                      handle.enter();
                    } catch (KvClosedException closed) {
                      return;
                    }
                    if (frees.get() != 0) {
                      usedAfterFree.set(true);
                    }
                    handle.exit();
                  }
                }));
      }
      threads.forEach(Thread::start);
      go.countDown();
      if (handle.beginClose()) {
        handle.finishClose();
      }
      for (Thread thread : threads) {
        thread.join();
      }
      assertEquals(1, frees.get());
      assertFalse(usedAfterFree.get());
    }
  }
}
