package dev.moraine.store.s3;

import java.net.URI;
import java.util.Objects;

/**
 * One place on an S3-compatible object store where a test may write: an endpoint, a bucket, a key
 * prefix inside that bucket, and the credentials to sign requests with.
 *
 * @param endpoint the service's base URI, for example {@code http://127.0.0.1:41234}
 * @param bucket the bucket, which already exists
 * @param prefix the key prefix, without leading or trailing slash; never empty
 * @param region the signing region
 * @param accessKey the access key id
 * @param secretKey the secret access key
 * @param allowHttp whether plain HTTP is allowed (true for a loopback proxy)
 */
public record S3Location(
    URI endpoint,
    String bucket,
    String prefix,
    String region,
    String accessKey,
    String secretKey,
    boolean allowHttp) {

  public S3Location {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accessKey, "accessKey");
    Objects.requireNonNull(secretKey, "secretKey");
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("bucket must not be empty");
    }
    prefix = trimSlashes(prefix);
    if (prefix.isEmpty()) {
      throw new IllegalArgumentException("prefix must not be empty");
    }
  }

  /** The same place one level further down: {@code prefix/child}. */
  public S3Location child(String child) {
    String c = trimSlashes(child);
    if (c.isEmpty()) {
      throw new IllegalArgumentException("child must not be empty");
    }
    return new S3Location(
        endpoint, bucket, prefix + "/" + c, region, accessKey, secretKey, allowHttp);
  }

  /** The full object key of {@code name} under this prefix. */
  public String objectKey(String name) {
    return prefix + "/" + trimSlashes(name);
  }

  /** The path-style URI of {@code name} under this prefix. */
  public URI objectUri(String name) {
    String base = endpoint.toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + "/" + bucket + "/" + S3Signer.encodePath(objectKey(name)));
  }

  /** Never prints the secret. */
  @Override
  public String toString() {
    return "S3Location[" + endpoint + " s3://" + bucket + "/" + prefix + " region=" + region + "]";
  }

  private static String trimSlashes(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) == '/') {
      from++;
    }
    while (to > from && s.charAt(to - 1) == '/') {
      to--;
    }
    return s.substring(from, to);
  }
}
