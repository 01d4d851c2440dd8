package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The JNI contract between {@code Native.java} and the crate: the header {@code javac -h} writes at
 * compile time must name the same functions, with the same return and parameter types, as the
 * crate's {@code Java_*} exports, and the built library must export every one of them. A {@code
 * long} on one side and a {@code jint} on the other fails the build here instead of corrupting a
 * call at run time.
 */
class JniSignaturesTest {
  private static final String NATIVE_HEADER = "dev_moraine_store_Native.h";

  private static Path property(String name) {
    String value = System.getProperty(name);
    assertTrue(value != null && !value.isBlank(), () -> "set -D" + name + " (the pom does)");
    return Path.of(value);
  }

  private static Map<String, JniSignatures.Signature> header() throws IOException {
    Path file = property("moraine.jni.headers").resolve(NATIVE_HEADER);
    assertTrue(Files.isRegularFile(file), () -> "javac -h did not write " + file);
    return JniSignatures.parseHeader(Files.readString(file));
  }

  private static Map<String, JniSignatures.Signature> crate() throws IOException {
    Map<String, JniSignatures.Signature> exports = new TreeMap<>();
    // Every source file of the crate, modules in subdirectories included.
    try (Stream<Path> files = Files.walk(property("moraine.native.sources"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".rs")).toList()) {
        exports.putAll(JniSignatures.parseRust(Files.readString(file)));
      }
    }
    return exports;
  }

  @Test
  void theHeaderAndTheCrateExportsAgree() throws IOException {
    Map<String, JniSignatures.Signature> header = header();
    Map<String, JniSignatures.Signature> crate = crate();
    assertTrue(header.size() >= 40, () -> "too few functions parsed from the header: " + header);
    assertEquals(List.of(), JniSignatures.compare(header, crate));
    assertEquals(header.keySet(), crate.keySet());
  }

  @Test
  void theBuiltLibraryExportsEveryDeclaredFunction() throws IOException {
    String resource = "/native/" + NativeLibrary.platform() + "/" + NativeLibrary.fileName();
    byte[] library;
    try (var in = JniSignaturesTest.class.getResourceAsStream(resource)) {
      assertTrue(in != null, () -> "no library at " + resource);
      library = in.readAllBytes();
    }
    // The dynamic symbol table's strings are NUL-terminated names; stripping keeps them.
    String bytes = new String(library, StandardCharsets.ISO_8859_1);
    Map<String, JniSignatures.Signature> header = header();
    assertTrue(header.size() >= 40, () -> "too few functions parsed from the header: " + header);
    List<String> missing =
        header.keySet().stream().filter(name -> !bytes.contains(name + '\0')).toList();
    assertEquals(List.of(), missing, "declared in Java, absent from the library's symbols");
  }

  // The comparison itself, on deliberately mismatched samples.

  private static final String SAMPLE_HEADER =
      """
      /*
       * Class:     dev_moraine_store_Native
       * Method:    dbFlush
       * Signature: (J)V
       */
      JNIEXPORT void JNICALL Java_dev_moraine_store_Native_dbFlush
        (JNIEnv *, jclass, jlong);

      JNIEXPORT jlong JNICALL Java_dev_moraine_store_Native_storeLocal
        (JNIEnv *, jclass, jstring);

      JNIEXPORT jbyteArray JNICALL Java_dev_moraine_store_Native_dbGet
        (JNIEnv *, jclass, jlong, jbyteArray);
      """;

  private static final String SAMPLE_RUST_AGREEING =
      """
      #[no_mangle]
      pub extern "system" fn Java_dev_moraine_store_Native_dbFlush<'l>(
          mut env: JNIEnv<'l>,
          _class: JClass<'l>,
          handle: jlong,
      ) {
          guard(&mut env, (), |_env| Ok(()))
      }

      #[no_mangle]
      pub extern "system" fn Java_dev_moraine_store_Native_storeLocal<'l>(
          mut env: JNIEnv<'l>,
          _class: JClass<'l>,
          directory: JString<'l>,
      ) -> jni::sys::jlong {
          0
      }

      #[no_mangle]
      pub extern "system" fn Java_dev_moraine_store_Native_dbGet<'l>(
          mut env: JNIEnv<'l>, _class: JClass<'l>, handle: jlong, key: JByteArray<'l>,
      ) -> jbyteArray {
          std::ptr::null_mut()
      }
      """;

  @Test
  void agreeingSamplesCompareClean() {
    var header = JniSignatures.parseHeader(SAMPLE_HEADER);
    var rust = JniSignatures.parseRust(SAMPLE_RUST_AGREEING);
    assertEquals(3, header.size(), header::toString);
    assertEquals(3, rust.size(), rust::toString);
    assertEquals(List.of(), JniSignatures.compare(header, rust));
  }

  @Test
  void aJintWhereJavaDeclaresALongIsReported() {
    String rust = SAMPLE_RUST_AGREEING.replace("handle: jlong,\n) {", "handle: jint,\n) {");
    assertTrue(!rust.equals(SAMPLE_RUST_AGREEING), "the sample was not changed");
    List<String> problems =
        JniSignatures.compare(
            JniSignatures.parseHeader(SAMPLE_HEADER), JniSignatures.parseRust(rust));
    assertEquals(
        List.of(
            "Java_dev_moraine_store_Native_dbFlush: Java declares void (JNIEnv *, jclass, jlong),"
                + " the crate exports void (JNIEnv *, jclass, jint)"),
        problems);
  }

  @Test
  void aDifferentReturnTypeIsReported() {
    String rust = SAMPLE_RUST_AGREEING.replace(") -> jni::sys::jlong {", ") -> jint {");
    List<String> problems =
        JniSignatures.compare(
            JniSignatures.parseHeader(SAMPLE_HEADER), JniSignatures.parseRust(rust));
    assertEquals(1, problems.size(), problems::toString);
    assertTrue(
        problems.get(0).startsWith("Java_dev_moraine_store_Native_storeLocal:"),
        problems::toString);
  }

  @Test
  void aMissingOrExtraParameterIsReported() {
    String rust = SAMPLE_RUST_AGREEING.replace(", key: JByteArray<'l>,", ",");
    List<String> problems =
        JniSignatures.compare(
            JniSignatures.parseHeader(SAMPLE_HEADER), JniSignatures.parseRust(rust));
    assertEquals(1, problems.size(), problems::toString);
    assertTrue(problems.get(0).contains("dbGet"), problems::toString);
  }

  @Test
  void aFunctionOnOneSideOnlyIsReported() {
    String header = SAMPLE_HEADER.replace("Native_dbFlush\n", "Native_dbFlushAll\n");
    List<String> problems =
        JniSignatures.compare(
            JniSignatures.parseHeader(header), JniSignatures.parseRust(SAMPLE_RUST_AGREEING));
    assertEquals(
        List.of(
            "Java_dev_moraine_store_Native_dbFlush: exported by the crate (void (JNIEnv *, jclass,"
                + " jlong)) but not declared in Java",
            "Java_dev_moraine_store_Native_dbFlushAll: declared in Java (void (JNIEnv *, jclass,"
                + " jlong)) but not exported by the crate"),
        problems);
  }

  @Test
  void anUnknownRustTypeNeverMatches() {
    assertEquals("<String>", JniSignatures.cType("String"));
    assertEquals("jlong", JniSignatures.cType("jni::sys::jlong"));
    assertEquals("jstring", JniSignatures.cType("JString<'l>"));
    assertEquals("void", JniSignatures.cType("()"));
  }
}
