package dev.moraine.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Run in a child JVM by {@link NativeLibraryTest}: loads the library the way an application does,
 * then reports where the process mapped it from, which copies are left on disk, and whether a
 * native call works.
 */
public final class NativeLibraryProbe {
  private NativeLibraryProbe() {}

  /**
   * Prints {@code mapped=<line of /proc/self/maps>}, {@code left=<n>} and {@code native=ok}.
   *
   * @param args the directory to count leftover copies in
   */
  public static void main(String[] args) throws IOException {
    NativeLibrary.load();
    try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
      maps.filter(line -> line.contains("moraine-store-"))
          .findFirst()
          .ifPresent(line -> System.out.println("mapped=" + line));
    }
    long left;
    try (Stream<Path> files = Files.list(Path.of(args[0]))) {
      left = files.filter(f -> f.getFileName().toString().startsWith("moraine-store-")).count();
    }
    System.out.println("left=" + left);
    ObjectStoreSpec.dropInMemory("probe"); // a native call: fails unless the library is usable
    System.out.println("native=ok");
  }
}
