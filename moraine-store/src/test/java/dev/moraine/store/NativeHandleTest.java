package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.core.kv.KvClosedException;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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
  void childrenFailOnceTheParentClosesAndAreFreedWithIt() {
    AtomicInteger parentFrees = new AtomicInteger();
    AtomicInteger childFrees = new AtomicInteger();
    NativeHandle parent = new NativeHandle("parent", 1, a -> parentFrees.incrementAndGet(), null);
    Object owner = new Object();
    parent.enter();
    NativeHandle child = new NativeHandle("child", 2, a -> childFrees.incrementAndGet(), parent);
    child.owner(owner);
    parent.exit();
    assertEquals(2, child.enter());
    child.exit();
    assertTrue(parent.beginClose());
    parent.finishClose();
    assertEquals(1, parentFrees.get());
    assertEquals(1, childFrees.get(), "the parent's release freed the open child");
    assertTrue(child.isClosed());
    assertThrows(KvClosedException.class, child::enter);
    // Closing the child afterwards finds its memory freed already.
    assertTrue(child.beginClose());
    child.finishClose();
    assertEquals(1, childFrees.get());
    assertEquals(1, parentFrees.get());
    Reference.reachabilityFence(owner);
  }

  @Test
  void aChildClosedFirstIsNotFreedAgainByItsParent() {
    AtomicInteger childFrees = new AtomicInteger();
    NativeHandle parent = new NativeHandle("parent", 1, a -> {}, null);
    Object owner = new Object();
    parent.enter();
    NativeHandle child = new NativeHandle("child", 2, a -> childFrees.incrementAndGet(), parent);
    child.owner(owner);
    parent.exit();
    long cleanedBefore = NativeHandle.cleanerFrees();
    assertTrue(child.beginClose());
    child.finishClose();
    assertEquals(1, childFrees.get());
    assertTrue(parent.beginClose());
    parent.finishClose();
    assertEquals(1, childFrees.get());
    assertEquals(cleanedBefore, NativeHandle.cleanerFrees(), "an explicit close is no leak");
    Reference.reachabilityFence(owner);
  }

  @Test
  void theCleanerFreesAChildWhoseOwnerWasDropped() throws Exception {
    AtomicInteger parentFrees = new AtomicInteger();
    AtomicInteger childFrees = new AtomicInteger();
    NativeHandle parent = new NativeHandle("parent", 1, a -> parentFrees.incrementAndGet(), null);
    long cleanedBefore = NativeHandle.cleanerFrees();
    NativeHandle child = abandonedChild(parent, childFrees);
    collectUntil("the cleaner freed the child", child::isFreed);
    assertEquals(1, childFrees.get());
    assertTrue(NativeHandle.cleanerFrees() > cleanedBefore);
    // The parent still works, and its release does not free the child again.
    assertEquals(1, parent.enter());
    parent.exit();
    assertTrue(parent.beginClose());
    parent.finishClose();
    assertEquals(1, childFrees.get());
    assertEquals(1, parentFrees.get());
  }

  @Test
  void theCleanerWaitsForACallStillInFlight() throws Exception {
    AtomicInteger childFrees = new AtomicInteger();
    NativeHandle parent = new NativeHandle("parent", 1, a -> {}, null);
    NativeHandle child = abandonedChild(parent, childFrees);
    // A call that outlives its owner, as when the JIT drops `this` during a native call.
    child.enter();
    collectUntil("the cleaner closed the child", child::isClosed);
    assertFalse(child.isFreed(), "a call is still in flight");
    assertEquals(0, childFrees.get());
    child.exit();
    assertTrue(child.isFreed());
    assertEquals(1, childFrees.get());
    assertTrue(parent.beginClose());
    parent.finishClose();
    assertEquals(1, childFrees.get());
  }

  /** A child handle whose owner is unreachable once this returns. */
  private static NativeHandle abandonedChild(NativeHandle parent, AtomicInteger frees) {
    parent.enter();
    try {
      NativeHandle child = new NativeHandle("child", 2, a -> frees.incrementAndGet(), parent);
      child.owner(new Object());
      return child;
    } finally {
      parent.exit();
    }
  }

  /** Asks for garbage collection until {@code condition} holds; fails after ten seconds. */
  static void collectUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting until " + what);
      }
      System.gc();
      Thread.sleep(20);
    }
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
