package dev.moraine.store;

import dev.moraine.core.catalog.ErrorCode;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a lake is, written the way a user has it: a local directory ({@code /data/lakes/sales},
 * {@code file:///data/lakes/sales}) or an S3 URI ({@code s3://bucket/prefix}) with the credentials
 * chosen explicitly. The lake's database is at the location itself, the layout the Rust
 * implementation opens. {@link Lake} opens it; {@link #storeConfig()} is the same place for the
 * long form ({@link SlateStoreProvider}).
 *
 * <p>Immutable; building one checks the text and opens nothing. {@code toString()} is the location
 * as given: it never holds a key, since keys are never part of the text.
 */
public final class LakeLocation {
  /** {@code scheme://...}, or {@code file:} with any number of slashes. */
  private static final Pattern URI_SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):(//)?");

  private final String text;
  private final ObjectStoreSpec objectStore;
  private final StoreSettings settings;

  private LakeLocation(String text, ObjectStoreSpec objectStore, StoreSettings settings) {
    this.text = text;
    this.objectStore = objectStore;
    this.settings = settings;
  }

  /**
   * A local directory: a path, or a {@code file:} URI without a host. Relative paths are resolved
   * against the working directory now.
   *
   * @throws LakeLocationException with {@link ErrorCode#INVALID_LOCATION} if {@code location} is
   *     empty, uses another scheme (an {@code s3://} URI needs {@link #of(String, S3Credentials)},
   *     which makes the credential choice), or is a malformed {@code file:} URI
   */
  public static LakeLocation of(String location) {
    String text = requireText(location);
    Matcher scheme = URI_SCHEME.matcher(text);
    if (!scheme.find()) {
      return local(text, path(text, text));
    }
    String name = scheme.group(1).toLowerCase(Locale.ROOT);
    if (name.equals("file")) {
      return local(text, fileUri(text));
    }
    if (name.equals("s3")) {
      throw invalid(
          text
              + ": an s3:// location needs a credential choice: LakeLocation.of(location,"
              + " S3Credentials.defaultChain()), anonymous() or ofKeys(...)");
    }
    if (scheme.group(2) == null) {
      // "name:rest" without "//" is a relative path with a colon in it.
      return local(text, path(text, text));
    }
    throw unknownScheme(text, name);
  }

  /** A local directory. */
  public static LakeLocation of(Path directory) {
    if (directory == null) {
      throw invalid("the lake's directory must not be null");
    }
    return local(directory.toString(), directory);
  }

  /**
   * An S3 location, {@code s3://bucket} or {@code s3://bucket/prefix}, on AWS ({@code us-east-1}
   * unless {@link #withRegion}); {@link #withEndpoint} points it at another S3-compatible service.
   *
   * @param credentials how requests are signed: {@link S3Credentials#defaultChain()}, {@link
   *     S3Credentials#anonymous()} or {@link S3Credentials#ofKeys}
   * @throws LakeLocationException with {@link ErrorCode#INVALID_LOCATION} if {@code location} is
   *     not an {@code s3://} URI, names no bucket, or holds a query or fragment, or if {@code
   *     credentials} is null
   */
  public static LakeLocation of(String location, S3Credentials credentials) {
    String text = requireText(location);
    Matcher scheme = URI_SCHEME.matcher(text);
    String name = scheme.find() ? scheme.group(1).toLowerCase(Locale.ROOT) : null;
    boolean uri = name != null && (scheme.group(2) != null || name.equals("file"));
    if (!uri || name.equals("file")) {
      throw invalid(
          text
              + ": S3 credentials are for s3://bucket/prefix locations; a local directory takes"
              + " none (LakeLocation.of(location))");
    }
    if (!name.equals("s3")) {
      throw unknownScheme(text, name);
    }
    if (credentials == null) {
      throw invalid(
          text
              + ": choose the credentials: S3Credentials.defaultChain(), anonymous() or"
              + " ofKeys(...)");
    }
    String rest = text.substring(scheme.end());
    if (rest.contains("?") || rest.contains("#")) {
      throw invalid(text + ": an s3:// location takes no query or fragment");
    }
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw invalid(text + ": no bucket (an S3 location is s3://bucket or s3://bucket/prefix)");
    }
    String prefix = slash < 0 ? "" : trimSlashes(rest.substring(slash + 1));
    return new LakeLocation(
        text,
        ObjectStoreSpec.s3(
            null, bucket, prefix.isEmpty() ? null : prefix, null, credentials, false),
        StoreSettings.defaults());
  }

  /**
   * This S3 location on another S3-compatible service (MinIO, a proxy, another cloud's S3 API),
   * addressed path-style.
   *
   * @param endpoint the service's base URL, for example {@code https://minio.example:9000}
   * @param allowHttp whether a plain {@code http://} endpoint is allowed
   * @throws LakeLocationException with {@link ErrorCode#INVALID_LOCATION} if this is not an S3
   *     location or {@code endpoint} is empty
   */
  public LakeLocation withEndpoint(String endpoint, boolean allowHttp) {
    ObjectStoreSpec.S3 s3 = s3("an endpoint");
    String url = requireText(endpoint);
    return new LakeLocation(
        text,
        new ObjectStoreSpec.S3(
            url, s3.bucket(), s3.prefix(), s3.region(), s3.credentials(), allowHttp, s3.timeouts()),
        settings);
  }

  /**
   * This S3 location in another signing region.
   *
   * @throws LakeLocationException with {@link ErrorCode#INVALID_LOCATION} if this is not an S3
   *     location or {@code region} is empty
   */
  public LakeLocation withRegion(String region) {
    ObjectStoreSpec.S3 s3 = s3("a region");
    String name = requireText(region);
    return new LakeLocation(
        text,
        new ObjectStoreSpec.S3(
            s3.endpoint(),
            s3.bucket(),
            s3.prefix(),
            name,
            s3.credentials(),
            s3.allowHttp(),
            s3.timeouts()),
        settings);
  }

  /** This location opened with other SlateDB settings ({@link StoreSettings#defaults()} else). */
  public LakeLocation withSettings(StoreSettings newSettings) {
    if (newSettings == null) {
      throw invalid("settings must not be null");
    }
    return new LakeLocation(text, objectStore, newSettings);
  }

  /** The object store the location names: a {@code LocalDirectory} or an {@code S3} spec. */
  public ObjectStoreSpec objectStore() {
    return objectStore;
  }

  /** The store of the lake's database: at the root of {@link #objectStore()}. */
  public StoreConfig storeConfig() {
    return StoreConfig.of(objectStore, "").withSettings(settings);
  }

  /** The location as it was given. */
  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LakeLocation other
        && objectStore.equals(other.objectStore)
        && settings.equals(other.settings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(objectStore, settings);
  }

  private ObjectStoreSpec.S3 s3(String what) {
    if (objectStore instanceof ObjectStoreSpec.S3 s3) {
      return s3;
    }
    throw invalid(text + ": " + what + " applies to s3:// locations only");
  }

  private static LakeLocation local(String text, Path directory) {
    return new LakeLocation(
        text, ObjectStoreSpec.localDirectory(directory), StoreSettings.defaults());
  }

  private static Path path(String text, String path) {
    try {
      return Path.of(path);
    } catch (InvalidPathException e) {
      throw invalid(text + ": not a path: " + e.getReason());
    }
  }

  private static Path fileUri(String text) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw invalid(text + ": not a file: URI: " + e.getMessage());
    }
    if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
      throw invalid(text + ": a file: URI of a lake names no host (file:///path)");
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw invalid(text + ": a file: URI of a lake takes no query or fragment");
    }
    try {
      return Path.of(uri);
    } catch (IllegalArgumentException e) {
      throw invalid(text + ": not a file: URI of a directory: " + e.getMessage());
    }
  }

  private static String requireText(String value) {
    if (value == null || value.isBlank()) {
      throw invalid("a lake location must not be empty");
    }
    return value.strip();
  }

  private static LakeLocationException unknownScheme(String text, String scheme) {
    return invalid(
        text
            + ": unknown scheme '"
            + scheme
            + "' (a lake location is a local path, a file: URI or s3://bucket/prefix)");
  }

  private static LakeLocationException invalid(String message) {
    return new LakeLocationException(ErrorCode.INVALID_LOCATION, message);
  }

  private static String trimSlashes(String s) {
    return s.replaceAll("^/+|/+$", "");
  }
}
