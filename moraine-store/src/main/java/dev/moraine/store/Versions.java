package dev.moraine.store;

import dev.moraine.core.lake.Bootstrap;

/**
 * What this build of the library is and what it writes: its own version, the lake format it stamps
 * and the SlateDB release its native library is built on.
 */
public final class Versions {
  /** The SlateDB release the native library is built on, pinned exactly in its Cargo.toml. */
  public static final String SLATEDB = "0.16.0";

  /**
   * The release of the Rust implementation whose lake format this library writes byte for byte, so
   * that a lake written by either opens in the other.
   */
  public static final String RUST_MORAINE = "0.7.0";

  private Versions() {}

  /** This library's version, as a lake it creates records it ({@code moraine-java <version>}). */
  public static String library() {
    return Bootstrap.WRITER_VERSION;
  }

  /** The lake format version this library stamps on a new lake, and the only one it opens. */
  public static long lakeFormat() {
    return Bootstrap.FORMAT_VERSION;
  }
}
