package dev.moraine.store;

import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import java.lang.reflect.Field;

/**
 * Public entry to the native test hooks ({@link TestHooks}) for tests outside this package: arms a
 * failure inside the JNI boundary of a real SlateDB view (store, snapshot, transaction) or
 * iterator, so that its next native call fails the way a native defect would make it fail.
 *
 * <p>Only views and iterators of this binding qualify; anything else is refused with {@link
 * IllegalArgumentException}. The hooks must be enabled (surefire sets {@value TestHooks#PROPERTY}).
 */
public final class NativeFaults {
  private NativeFaults() {}

  /**
   * The next native call on {@code view} fails before it hands anything to SlateDB: it throws
   * {@code KvUnavailableException}, and the view (with every handle the call borrowed) is closed
   * from then on.
   */
  public static void failNextCall(KvReadView view) {
    TestHooks.panicOnNextCall(handleOf(view));
  }

  /**
   * The next native call on {@code view} that hands an effect to SlateDB (a write, a transaction
   * commit, a flush) fails right after it handed it over: it throws {@code
   * KvOutcomeUnknownException}, and the view is closed from then on.
   */
  public static void failNextCallAfterSubmission(KvReadView view) {
    TestHooks.panicAfterSubmission(handleOf(view));
  }

  /** The next native call on {@code iterator} fails as {@link #failNextCall} describes. */
  public static void failNextCall(KvIterator iterator) {
    if (!(iterator instanceof SlateKvIterator)) {
      throw new IllegalArgumentException("not an iterator of the SlateDB binding: " + iterator);
    }
    try {
      Field field = SlateKvIterator.class.getDeclaredField("handle");
      field.setAccessible(true);
      TestHooks.panicOnNextCall((NativeHandle) field.get(iterator));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the iterator's handle is out of reach", e);
    }
  }

  private static NativeHandle handleOf(KvReadView view) {
    if (!(view instanceof NativeReadView native_)) {
      throw new IllegalArgumentException("not a view of the SlateDB binding: " + view);
    }
    return native_.handle;
  }
}
