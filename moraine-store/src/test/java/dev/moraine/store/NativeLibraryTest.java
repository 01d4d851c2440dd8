package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading the library from the jar, in a fresh JVM each time (a library loads once per class
 * loader): the extracted copy is deleted right after loading, and it goes to {@value
 * NativeLibrary#EXTRACT_DIR_PROPERTY} when that is set. {@code /proc/self/maps} of the child shows
 * where the mapped library came from and that its file is gone.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "reads /proc/self/maps")
class NativeLibraryTest {
  @TempDir Path temp;

  private List<String> probe(List<String> properties, Path countIn)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(properties);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(NativeLibraryProbe.class.getName());
    command.add(countIn.toString());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    child.getOutputStream().close();
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the probe JVM did not finish");
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), output);
    return output.lines().toList();
  }

  private static String value(List<String> lines, String key) {
    return lines.stream()
        .filter(l -> l.startsWith(key + "="))
        .map(l -> l.substring(key.length() + 1))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + key + " in " + lines));
  }

  @Test
  void theExtractedCopyIsDeletedRightAfterLoading() throws Exception {
    Path tmp = Files.createDirectories(temp.resolve("tmp"));
    List<String> out = probe(List.of("-Djava.io.tmpdir=" + tmp), tmp);
    String mapped = value(out, "mapped");
    assertTrue(mapped.contains(tmp.toString() + "/moraine-store-"), mapped);
    assertTrue(mapped.endsWith("(deleted)"), mapped);
    assertEquals("0", value(out, "left"));
    assertEquals("ok", value(out, "native"));
  }

  @Test
  void theExtractionDirectorySettingIsUsedAndCreated() throws Exception {
    Path tmp = Files.createDirectories(temp.resolve("tmp"));
    Path extract = temp.resolve("exec-ok").resolve("native");
    assertFalse(Files.exists(extract));
    List<String> out =
        probe(
            List.of(
                "-Djava.io.tmpdir=" + tmp,
                "-D" + NativeLibrary.EXTRACT_DIR_PROPERTY + "=" + extract),
            extract);
    String mapped = value(out, "mapped");
    assertTrue(mapped.contains(extract.toString() + "/moraine-store-"), mapped);
    assertTrue(mapped.endsWith("(deleted)"), mapped);
    assertTrue(Files.isDirectory(extract), "the extraction directory was not created");
    assertEquals("0", value(out, "left"));
    try (var files = Files.list(tmp)) {
      assertEquals(List.of(), files.toList(), "nothing goes to java.io.tmpdir");
    }
    assertEquals("ok", value(out, "native"));
  }
}
