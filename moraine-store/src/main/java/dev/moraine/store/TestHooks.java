package dev.moraine.store;

/**
 * Test-only ways into the native library, refused unless the system property {@value #PROPERTY} is
 * {@code true}. Nothing in the library calls them.
 */
final class TestHooks {
  /** The system property that enables the hooks. */
  static final String PROPERTY = "moraine.store.testHooks";

  private TestHooks() {}

  /**
   * Makes the next native call on {@code handle} panic inside the JNI boundary, as a bug in native
   * code would. That call throws {@code KvUnavailableException} and the handle is closed from then
   * on.
   *
   * @throws IllegalStateException if test hooks are not enabled
   */
  static void panicOnNextCall(NativeHandle handle) {
    requireEnabled();
    Native.testPanicOnNextCall(handle.address());
  }

  /**
   * Makes the next native call on {@code handle} that hands an effect to the store (a write, a
   * transaction commit, a flush, a checkpoint) panic right after it marked the effect submitted.
   * That call throws {@code KvOutcomeUnknownException} with reason {@code STORE_FAILURE} and the
   * handle is closed from then on. Calls that submit nothing (reads) do not trigger it.
   *
   * @throws IllegalStateException if test hooks are not enabled
   */
  static void panicAfterSubmission(NativeHandle handle) {
    requireEnabled();
    Native.testPanicAfterSubmission(handle.address());
  }

  /**
   * Sends {@code text} out of native code both ways text leaves it: as a log record (warn, target
   * {@code moraine_store_native::test_hook}) and as the message of the {@code
   * KvUnavailableException} this throws.
   *
   * @throws IllegalStateException if test hooks are not enabled
   */
  static void logAndFail(String text) {
    requireEnabled();
    Native.testLogAndFail(text);
  }

  private static void requireEnabled() {
    if (!Boolean.getBoolean(PROPERTY)) {
      throw new IllegalStateException("test hooks are off; set -D" + PROPERTY + "=true");
    }
  }
}
