package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A test tool never changes what ships: the native library in the jar is the JNI crate built on its
 * own, from the features its Cargo.toml declares, whatever else the build compiles (the oracle
 * tool's {@code moraine} dependency takes SlateDB with its default features, {@code aws} and with
 * it aws-lc, which a build of both in one cargo invocation would unify into the library).
 *
 * <p>cargo answers for itself: {@code cargo build --package moraine-store-native} is run again
 * (with {@code --frozen}, so nothing is fetched) and must find the library up to date and name a
 * file identical to the jar's; the crates whose sources the jar's library names must all be crates
 * of that build; and SlateDB, whose features the Cargo.toml chooses one by one, must be compiled
 * with exactly those.
 */
class ShippedLibraryTest {
  private static final String CRATE = "moraine-store-native";

  private static List<ShippedLibrary.Unit> build;
  private static byte[] shipped;

  private static Path property(String name) {
    String value = System.getProperty(name);
    assertTrue(value != null && !value.isBlank(), () -> "set -D" + name + " (the pom does)");
    return Path.of(value);
  }

  private static Path crateDirectory() {
    return property("moraine.native.sources").getParent();
  }

  /** Runs cargo in the crate's directory and returns its standard output; fails on an error. */
  private static String cargo(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("cargo"));
    command.addAll(List.of(arguments));
    Path errors = Files.createTempFile("cargo", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(crateDirectory().toFile())
              .redirectError(errors.toFile())
              .start();
      String out;
      try (InputStream in = process.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      // A library that is not up to date is rebuilt here, which takes minutes; the test fails then.
      assertTrue(process.waitFor(20, TimeUnit.MINUTES), () -> command + " did not finish");
      int status = process.exitValue();
      assertEquals(0, status, () -> command + " failed: " + read(errors));
      return out;
    } finally {
      Files.deleteIfExists(errors);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static String hostTriple() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("rustc", "-vV").redirectErrorStream(true).start();
    String out;
    try (InputStream in = process.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(1, TimeUnit.MINUTES), "rustc -vV did not finish");
    return out.lines()
        .filter(l -> l.startsWith("host: "))
        .map(l -> l.substring("host: ".length()).strip())
        .findFirst()
        .orElseThrow(() -> new AssertionError("rustc -vV names no host: " + out));
  }

  @BeforeAll
  static void buildTheCrateAlone() throws IOException, InterruptedException {
    String resource = "/native/" + NativeLibrary.platform() + "/" + NativeLibrary.fileName();
    try (InputStream in = ShippedLibraryTest.class.getResourceAsStream(resource)) {
      assertTrue(in != null, () -> "no library at " + resource);
      shipped = in.readAllBytes();
    }
    build =
        ShippedLibrary.parseBuild(
            cargo(
                "build",
                "--package",
                CRATE,
                "--release",
                "--frozen",
                "--message-format=json",
                "--target-dir",
                property("moraine.cargo.target.dir").toString()));
  }

  @Test
  void theJarCarriesTheCrateBuiltAlone() throws IOException {
    List<ShippedLibrary.Unit> library =
        build.stream().filter(u -> u.name().equals(CRATE) && u.kinds().contains("cdylib")).toList();
    assertEquals(1, library.size(), () -> "the build reports no single library: " + build);
    ShippedLibrary.Unit unit = library.get(0);
    Set<String> foreign =
        ShippedLibrary.foreignCrates(ShippedLibrary.cratesNamedIn(shipped), build);
    assertEquals(
        Set.of(), foreign, "the jar's library holds crates the crate alone does not build");
    assertTrue(
        unit.fresh(),
        "the crate built alone was not up to date: the library the jar got was built otherwise");
    Path file =
        unit.files().stream()
            .map(Path::of)
            .filter(f -> f.getFileName().toString().equals(NativeLibrary.fileName()))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no " + NativeLibrary.fileName() + " in " + unit));
    assertArrayEquals(
        Files.readAllBytes(file), shipped, "the jar's library is not the crate built alone");
  }

  @Test
  void theJarsLibraryNamesTheCratesItIsBuiltFrom() {
    // Not vacuous: the library names dozens of crates of its build, SlateDB's among them.
    Set<String> named = ShippedLibrary.cratesNamedIn(shipped);
    assertTrue(named.size() >= 40, () -> "too few crates found in the library: " + named);
    assertTrue(named.stream().anyMatch(c -> c.startsWith("slatedb-0.")), named::toString);
    assertTrue(named.stream().noneMatch(c -> c.startsWith("aws-lc")), named::toString);
  }

  @Test
  void slatedbIsCompiledWithExactlyTheDeclaredFeatures() throws IOException, InterruptedException {
    Map<String, ShippedLibrary.Package> metadata =
        ShippedLibrary.parseMetadata(
            cargo(
                "metadata",
                "--format-version",
                "1",
                // --locked only: the metadata covers the oracle's crates too, which a build that
                // skipped the oracle may not have fetched yet.
                "--locked",
                "--filter-platform",
                hostTriple()));
    assertEquals(List.of(), ShippedLibrary.undeclaredFeatures(CRATE, "slatedb", build, metadata));
  }

  // The comparisons, on deliberately wrong samples.

  private static final String SAMPLE_METADATA =
      """
      {"packages": [
        {"name": "jni-crate", "version": "0.1.0", "features": {},
         "dependencies": [
           {"name": "store", "kind": null, "features": ["cache"], "uses_default_features": false}]},
        {"name": "store", "version": "1.0.0",
         "features": {"default": ["cloud", "cache"], "cloud": ["net/cloud", "dep:crypto"],
                      "cache": ["dep:cache", "mem"], "mem": []},
         "dependencies": []},
        {"name": "oracle-dep", "version": "2.0.0", "features": {},
         "dependencies": [
           {"name": "store", "kind": null, "features": [], "uses_default_features": true}]}
      ]}
      """;

  private static String unit(String id, String kind, String features, boolean fresh) {
    return "{\"reason\":\"compiler-artifact\",\"package_id\":\""
        + id
        + "\",\"target\":{\"kind\":[\""
        + kind
        + "\"]},\"features\":["
        + features
        + "],\"filenames\":[\"/t/release/x\"],\"fresh\":"
        + fresh
        + "}";
  }

  private static final String SAMPLE_ALONE =
      String.join(
          "\n",
          unit("registry+https://x#store@1.0.0", "lib", "\"cache\",\"mem\"", true),
          "   Compiling jni-crate v0.1.0",
          unit("path+file:///w#jni-crate@0.1.0", "cdylib", "", true),
          "{\"reason\":\"build-finished\",\"success\":true}");

  private static final String SAMPLE_UNIFIED =
      String.join(
          "\n",
          unit(
              "registry+https://x#store@1.0.0",
              "lib",
              "\"cache\",\"cloud\",\"default\",\"mem\"",
              false),
          unit("registry+https://x#oracle-dep@2.0.0", "lib", "", false),
          unit("registry+https://x#crypto-lc@1.19.0", "lib", "", false),
          unit("path+file:///w#jni-crate@0.1.0", "cdylib", "", false));

  @Test
  void parseBuild_readsEveryArtifactAndSkipsTheRest() {
    List<ShippedLibrary.Unit> units = ShippedLibrary.parseBuild(SAMPLE_ALONE);
    assertEquals(2, units.size(), units::toString);
    assertEquals("store-1.0.0", units.get(0).crate());
    assertEquals(Set.of("cache", "mem"), units.get(0).features());
    assertEquals(List.of("cdylib"), units.get(1).kinds());
    assertTrue(units.get(1).fresh());
  }

  @Test
  void closure_followsTheFeaturesOfThePackageOnly() {
    Map<String, List<String>> table =
        ShippedLibrary.parseMetadata(SAMPLE_METADATA).get("store").features();
    assertEquals(Set.of("cache", "mem"), ShippedLibrary.closure(Set.of("cache"), table));
    assertEquals(
        Set.of("default", "cloud", "cache", "mem"),
        ShippedLibrary.closure(Set.of("default"), table));
  }

  @Test
  void undeclaredFeatures_acceptTheDeclaredOnes() {
    assertEquals(
        List.of(),
        ShippedLibrary.undeclaredFeatures(
            "jni-crate",
            "store",
            ShippedLibrary.parseBuild(SAMPLE_ALONE),
            ShippedLibrary.parseMetadata(SAMPLE_METADATA)));
  }

  @Test
  void undeclaredFeatures_reportAUnifiedBuild() {
    List<String> problems =
        ShippedLibrary.undeclaredFeatures(
            "jni-crate",
            "store",
            ShippedLibrary.parseBuild(SAMPLE_UNIFIED),
            ShippedLibrary.parseMetadata(SAMPLE_METADATA));
    assertEquals(2, problems.size(), problems::toString);
    assertTrue(
        problems.get(0).contains("oracle-dep-2.0.0 also depends on store"), problems::toString);
    assertTrue(problems.get(1).contains("undeclared: [cloud, default]"), problems::toString);
  }

  @Test
  void cratesNamedIn_findsRegistrySourcePathsInABinary() {
    byte[] binary =
        ("\0\0/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aws-lc-rs-1.19.0/src/"
                + "hmac.rs\0called `Option::unwrap()`\0/home/u/.cargo/registry/src/"
                + "index.crates.io-6f17d22bba15001f/slatedb-0.16.0/src/db.rs\0")
            .getBytes(StandardCharsets.ISO_8859_1);
    Set<String> named = ShippedLibrary.cratesNamedIn(binary);
    assertEquals(Set.of("aws-lc-rs-1.19.0", "slatedb-0.16.0"), named);
    assertEquals(
        Set.of("aws-lc-rs-1.19.0"),
        ShippedLibrary.foreignCrates(
            named,
            ShippedLibrary.parseBuild(
                unit("registry+https://x#slatedb@0.16.0", "lib", "\"foyer\"", true))));
  }
}
