package dev.moraine.store;

import dev.moraine.core.kv.KvReadView;

/**
 * Public entry to the native test hooks ({@link TestHooks}) for tests outside this package: arms a
 * failure inside the JNI boundary of a real SlateDB view (store, snapshot, transaction), so that
 * its next native call fails the way a native defect would make it fail.
 *
 * <p>Only views of this binding qualify; anything else is refused with {@link
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

  private static NativeHandle handleOf(KvReadView view) {
    if (!(view instanceof NativeReadView native_)) {
      throw new IllegalArgumentException("not a view of the SlateDB binding: " + view);
    }
    return native_.handle;
  }
}
