package dev.moraine.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the JNI library of this module once per class loader.
 *
 * <p>By default the library is taken from the jar, at {@code native/<platform>/<file>} (for example
 * {@code native/linux-x86_64/libmoraine_store_native.so}), copied to a new file in the extraction
 * directory, loaded from there, and the file is deleted right after loading (on Linux and macOS the
 * loaded library stays mapped, so nothing is left behind even if the JVM is killed; where the
 * system refuses to delete a loaded file, it is deleted when the JVM exits). The extraction
 * directory is the system property {@value #EXTRACT_DIR_PROPERTY} if set (created if missing; use
 * it where {@code java.io.tmpdir} is mounted {@code noexec}), else {@code java.io.tmpdir}.
 *
 * <p>Setting the system property {@value #LIBRARY_PROPERTY} to the path of a library loads that
 * file instead, for example a library built locally with cargo; it is never deleted.
 */
public final class NativeLibrary {
  /** System property naming a library file to load instead of the one in the jar. */
  public static final String LIBRARY_PROPERTY = "moraine.native.lib";

  /** System property naming the directory the jar's library is extracted to. */
  public static final String EXTRACT_DIR_PROPERTY = "moraine.native.extractDir";

  private static final String BASE_NAME = "moraine_store_native";

  // Guarded by the class monitor: the outcome of the one load attempt.
  private static boolean loaded;
  private static Throwable failure;

  private NativeLibrary() {}

  /**
   * Loads the library if it is not loaded yet. Safe to call from any thread, any number of times; a
   * failed load fails the same way on every later call.
   *
   * @throws UnsatisfiedLinkError if the library cannot be found or loaded
   */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    if (failure != null) {
      throw linkError(failure);
    }
    try {
      String override = System.getProperty(LIBRARY_PROPERTY);
      if (override != null && !override.isBlank()) {
        System.load(Path.of(override).toAbsolutePath().toString());
      } else {
        Path file = extractFromJar();
        try {
          System.load(file.toString());
        } finally {
          deleteExtracted(file);
        }
      }
      loaded = true;
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      failure = e;
      throw linkError(e);
    }
  }

  /** The jar folder for this machine, for example {@code linux-x86_64}. */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String osPart;
    if (os.contains("linux")) {
      osPart = "linux";
    } else if (os.contains("mac") || os.contains("darwin")) {
      osPart = "macos";
    } else if (os.contains("windows")) {
      osPart = "windows";
    } else {
      osPart = os.replaceAll("[^a-z0-9]", "");
    }
    String archPart =
        switch (arch) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "aarch64";
          default -> arch;
        };
    return osPart + "-" + archPart;
  }

  /** The library's file name on this machine. */
  static String fileName() {
    return System.mapLibraryName(BASE_NAME);
  }

  private static Path extractFromJar() throws IOException {
    String resource = "/native/" + platform() + "/" + fileName();
    try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException(
            "no native library for this platform in the jar (looked for "
                + resource
                + "); build it with cargo and set -D"
                + LIBRARY_PROPERTY
                + "=<path>");
      }
      Path file = Files.createTempFile(extractDirectory(), "moraine-store-", "-" + fileName());
      try {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        deleteExtracted(file);
        throw e;
      }
      return file;
    }
  }

  /** The directory to extract into: the property's, created if missing, else the temp dir. */
  static Path extractDirectory() throws IOException {
    String configured = System.getProperty(EXTRACT_DIR_PROPERTY);
    if (configured == null || configured.isBlank()) {
      return Path.of(System.getProperty("java.io.tmpdir"));
    }
    Path directory = Path.of(configured.trim()).toAbsolutePath();
    Files.createDirectories(directory);
    return directory;
  }

  /**
   * Removes an extracted copy. A loaded library stays mapped after its file is gone (Linux, macOS);
   * where the file cannot be deleted while loaded (Windows), it goes when the JVM exits.
   */
  private static void deleteExtracted(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException | RuntimeException e) {
      file.toFile().deleteOnExit();
    }
  }

  private static UnsatisfiedLinkError linkError(Throwable cause) {
    UnsatisfiedLinkError error =
        new UnsatisfiedLinkError("cannot load the moraine-store native library: " + cause);
    error.initCause(cause);
    return error;
  }
}
