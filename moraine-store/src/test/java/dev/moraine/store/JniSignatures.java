package dev.moraine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads JNI function signatures from two sides and compares them: the C header {@code javac -h}
 * writes for {@code Native}, and the {@code extern "system" fn Java_...} exports of the Rust crate.
 * Each side is reduced to C type names ({@code jlong}, {@code jstring}, {@code JNIEnv *}, ...), so
 * a Rust export taking a {@code jint} where Java declares a {@code long} is told apart.
 */
final class JniSignatures {
  private JniSignatures() {}

  /** One function: its return type and parameter types, as C type names. */
  record Signature(String returnType, List<String> parameters) {
    @Override
    public String toString() {
      return returnType + " (" + String.join(", ", parameters) + ")";
    }
  }

  private static final Pattern HEADER_FUNCTION =
      Pattern.compile("JNIEXPORT\\s+(\\w+)\\s+JNICALL\\s+(Java_\\w+)\\s*\\(([^)]*)\\)\\s*;");

  private static final Pattern RUST_EXPORT =
      Pattern.compile(
          "extern\\s+\"system\"\\s+fn\\s+(Java_\\w+)\\s*(?:<[^>]*>)?\\s*\\(([^)]*)\\)"
              + "\\s*(?:->\\s*([\\w:<>' ]+?))?\\s*\\{",
          Pattern.DOTALL);

  /** Rust wrapper types of the jni crate and the C type each one is at the ABI. */
  private static final Map<String, String> RUST_WRAPPERS =
      Map.ofEntries(
          Map.entry("JNIEnv", "JNIEnv *"),
          Map.entry("JClass", "jclass"),
          Map.entry("JObject", "jobject"),
          Map.entry("JString", "jstring"),
          Map.entry("JThrowable", "jthrowable"),
          Map.entry("JByteArray", "jbyteArray"),
          Map.entry("JIntArray", "jintArray"),
          Map.entry("JLongArray", "jlongArray"),
          Map.entry("JBooleanArray", "jbooleanArray"),
          Map.entry("JObjectArray", "jobjectArray"));

  /** The functions declared in a {@code javac -h} header, by symbol name. */
  static Map<String, Signature> parseHeader(String header) {
    Map<String, Signature> functions = new TreeMap<>();
    Matcher m = HEADER_FUNCTION.matcher(header);
    while (m.find()) {
      List<String> parameters = new ArrayList<>();
      for (String p : m.group(3).split(",")) {
        String type = p.trim().replaceAll("\\s+", " ");
        if (!type.isEmpty()) {
          parameters.add(type);
        }
      }
      functions.put(m.group(2), new Signature(m.group(1), parameters));
    }
    return functions;
  }

  /** The {@code Java_*} exports of Rust source text, by symbol name, with C type names. */
  static Map<String, Signature> parseRust(String source) {
    Map<String, Signature> functions = new TreeMap<>();
    Matcher m = RUST_EXPORT.matcher(source);
    while (m.find()) {
      List<String> parameters = new ArrayList<>();
      for (String p : m.group(2).split(",")) {
        String parameter = p.trim();
        if (parameter.isEmpty()) {
          continue;
        }
        int colon = parameter.indexOf(':');
        parameters.add(cType(colon < 0 ? parameter : parameter.substring(colon + 1)));
      }
      String result = m.group(3) == null ? "void" : cType(m.group(3));
      functions.put(m.group(1), new Signature(result, parameters));
    }
    return functions;
  }

  /**
   * The C name of a Rust parameter or return type: {@code jni::sys::jlong} is {@code jlong}, {@code
   * JString<'l>} is {@code jstring}, {@code ()} is {@code void}; anything else is kept in angle
   * brackets so it can never match a header type.
   */
  static String cType(String rustType) {
    String type = rustType.trim();
    if (type.equals("()")) {
      return "void";
    }
    int generic = type.indexOf('<');
    if (generic >= 0) {
      type = type.substring(0, generic).trim();
    }
    int path = type.lastIndexOf("::");
    if (path >= 0) {
      type = type.substring(path + 2);
    }
    String wrapper = RUST_WRAPPERS.get(type);
    if (wrapper != null) {
      return wrapper;
    }
    if (type.matches("j[a-zA-Z]+")) {
      return type;
    }
    return "<" + rustType.trim() + ">";
  }

  /**
   * What differs between the header and the crate: functions only one side has, and functions whose
   * return or parameter types differ. Empty when they agree.
   */
  static List<String> compare(Map<String, Signature> header, Map<String, Signature> rust) {
    List<String> problems = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(header.keySet());
    names.addAll(rust.keySet());
    for (String name : names) {
      Signature declared = header.get(name);
      Signature exported = rust.get(name);
      if (exported == null) {
        problems.add(name + ": declared in Java (" + declared + ") but not exported by the crate");
      } else if (declared == null) {
        problems.add(name + ": exported by the crate (" + exported + ") but not declared in Java");
      } else if (!declared.equals(exported)) {
        problems.add(name + ": Java declares " + declared + ", the crate exports " + exported);
      }
    }
    return problems;
  }
}
