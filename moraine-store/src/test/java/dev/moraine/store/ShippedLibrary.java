package dev.moraine.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What went into the native library, read from cargo's own reports: the units of a build ({@code
 * cargo build --message-format=json}), the packages and feature tables of {@code cargo metadata},
 * and the crates a built library names. The comparisons are pure functions, so that {@link
 * ShippedLibraryTest} can feed them deliberately wrong samples.
 */
final class ShippedLibrary {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A registry crate's source directory as it appears in a built library: rustc keeps the source
   * path of every panic location, {@code
   * .../registry/src/index.crates.io-<hash>/<name>-<version>/}.
   */
  private static final Pattern CRATE_SOURCE =
      Pattern.compile("/registry/src/[^/\\x00]+/([A-Za-z0-9_.+-]+)/");

  private ShippedLibrary() {}

  /**
   * One compiled unit of a cargo build.
   *
   * @param name the package name
   * @param version the package version
   * @param kinds the target kinds ({@code lib}, {@code cdylib}, {@code custom-build}, ...)
   * @param features the features the unit was compiled with
   * @param files the files the unit produced
   * @param fresh whether cargo found it up to date and did not rebuild it
   */
  record Unit(
      String name,
      String version,
      List<String> kinds,
      Set<String> features,
      List<String> files,
      boolean fresh) {
    /** {@code name-version}, the way the registry names the crate's source directory. */
    String crate() {
      return name + "-" + version;
    }
  }

  /** A dependency as a package declares it. */
  record Dependency(String name, Set<String> features, boolean defaultFeatures) {}

  /** A package of {@code cargo metadata}: its declared normal dependencies and feature table. */
  record Package(
      String name,
      String version,
      List<Dependency> dependencies,
      Map<String, List<String>> features) {}

  /** The units of {@code cargo build --message-format=json} output (one JSON object a line). */
  static List<Unit> parseBuild(String jsonLines) {
    List<Unit> units = new ArrayList<>();
    for (String line : jsonLines.split("\\R")) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode message = read(line);
      if (!"compiler-artifact".equals(message.path("reason").asText())) {
        continue;
      }
      // package_id: "registry+https://...#slatedb@0.16.0", "path+file:///...#name@0.1.0"
      String id = message.path("package_id").asText();
      String nameAtVersion = id.substring(id.lastIndexOf('#') + 1);
      int at = nameAtVersion.lastIndexOf('@');
      units.add(
          new Unit(
              nameAtVersion.substring(0, at),
              nameAtVersion.substring(at + 1),
              texts(message.path("target").path("kind")),
              new TreeSet<>(texts(message.path("features"))),
              texts(message.path("filenames")),
              message.path("fresh").asBoolean(false)));
    }
    return units;
  }

  /** The packages of {@code cargo metadata --format-version 1} output, by name. */
  static Map<String, Package> parseMetadata(String json) {
    Map<String, Package> packages = new TreeMap<>();
    for (JsonNode p : read(json).path("packages")) {
      List<Dependency> dependencies = new ArrayList<>();
      for (JsonNode d : p.path("dependencies")) {
        if (d.path("kind").isNull()) {
          dependencies.add(
              new Dependency(
                  d.path("name").asText(),
                  new TreeSet<>(texts(d.path("features"))),
                  d.path("uses_default_features").asBoolean(true)));
        }
      }
      Map<String, List<String>> features = new TreeMap<>();
      p.path("features")
          .fields()
          .forEachRemaining(e -> features.put(e.getKey(), texts(e.getValue())));
      packages.put(
          p.path("name").asText(),
          new Package(p.path("name").asText(), p.path("version").asText(), dependencies, features));
    }
    return packages;
  }

  /** The registry crates ({@code name-version}) whose source paths a built library names. */
  static Set<String> cratesNamedIn(byte[] library) {
    Set<String> crates = new TreeSet<>();
    Matcher m = CRATE_SOURCE.matcher(new String(library, StandardCharsets.ISO_8859_1));
    while (m.find()) {
      crates.add(m.group(1));
    }
    return crates;
  }

  /** The crates a library names that the build does not compile: what came from elsewhere. */
  static Set<String> foreignCrates(Set<String> named, List<Unit> build) {
    Set<String> foreign = new TreeSet<>(named);
    build.forEach(u -> foreign.remove(u.crate()));
    return foreign;
  }

  /**
   * The features {@code requested} turn on in a package with the feature table {@code table}: the
   * requested ones and, transitively, the features of the same package they name. Entries that name
   * optional dependencies ({@code dep:x}) or features of other packages ({@code x/f}) are not
   * features of this package.
   */
  static Set<String> closure(Set<String> requested, Map<String, List<String>> table) {
    Set<String> on = new TreeSet<>();
    List<String> pending = new ArrayList<>(requested);
    while (!pending.isEmpty()) {
      String feature = pending.remove(pending.size() - 1);
      if (table.containsKey(feature) && on.add(feature)) {
        for (String entry : table.get(feature)) {
          if (!entry.contains(":") && !entry.contains("/")) {
            pending.add(entry);
          }
        }
      }
    }
    return on;
  }

  /**
   * Checks that {@code dependencyName}, a dependency of {@code root} that {@code root} alone
   * chooses features for, was compiled in {@code build} with exactly the features {@code root}
   * declares for it: no other package of the build may depend on it (its features would then be
   * that package's choice too), and its compiled features must be the closure of the declared ones.
   *
   * @return the problems found, empty when it holds
   */
  static List<String> undeclaredFeatures(
      String root, String dependencyName, List<Unit> build, Map<String, Package> metadata) {
    List<String> problems = new ArrayList<>();
    Package rootPackage = metadata.get(root);
    Dependency declared =
        rootPackage == null
            ? null
            : rootPackage.dependencies().stream()
                .filter(d -> d.name().equals(dependencyName))
                .findFirst()
                .orElse(null);
    Package dependency = metadata.get(dependencyName);
    if (declared == null || dependency == null) {
      problems.add(root + " declares no dependency " + dependencyName + " in the metadata");
      return problems;
    }
    Set<String> requested = new TreeSet<>(declared.features());
    if (declared.defaultFeatures()) {
      requested.add("default");
    }
    Set<String> expected = closure(requested, dependency.features());
    Set<String> built = new TreeSet<>();
    for (Unit u : build) {
      if (u.name().equals(dependencyName) && u.kinds().contains("lib")) {
        built.addAll(u.features());
      }
      Package other = metadata.get(u.name());
      if (!u.name().equals(root)
          && !u.name().equals(dependencyName)
          && other != null
          && other.dependencies().stream().anyMatch(d -> d.name().equals(dependencyName))) {
        problems.add(
            u.crate() + " also depends on " + dependencyName + " and may choose its features");
      }
    }
    if (built.isEmpty() && !expected.isEmpty()) {
      problems.add(dependencyName + " is not compiled by the build");
    } else if (!built.equals(expected)) {
      Set<String> extra = new TreeSet<>(built);
      extra.removeAll(expected);
      Set<String> missing = new TreeSet<>(expected);
      missing.removeAll(built);
      problems.add(
          dependencyName
              + " is compiled with "
              + built
              + ", the declared features lead to "
              + expected
              + (extra.isEmpty() ? "" : "; undeclared: " + extra)
              + (missing.isEmpty() ? "" : "; missing: " + missing));
    }
    return problems.stream().distinct().toList();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "not JSON: " + json.substring(0, Math.min(200, json.length())), e);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }
}
