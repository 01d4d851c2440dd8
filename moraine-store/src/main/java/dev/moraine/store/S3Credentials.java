package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;

/**
 * How an {@link ObjectStoreSpec.S3} store authenticates. One of three, always chosen explicitly:
 *
 * <ul>
 *   <li>{@link DefaultChain}: what the AWS tools find on this machine, in this order: the {@code
 *       AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}/{@code AWS_SESSION_TOKEN} variables; a web
 *       identity token ({@code AWS_WEB_IDENTITY_TOKEN_FILE} with {@code AWS_ROLE_ARN}); the static
 *       keys of the profile {@code AWS_PROFILE} (else {@code default}) in the shared credentials
 *       file ({@code AWS_SHARED_CREDENTIALS_FILE}, else {@code ~/.aws/credentials}); the container
 *       credential endpoints (ECS, EKS pod identity); the instance metadata service.
 *   <li>{@link Anonymous}: requests are sent unsigned, and no credential source is consulted. For
 *       public buckets and test servers without authentication.
 *   <li>{@link Static}: the keys given, with an optional session token, and nothing else: no
 *       environment variable, profile or instance metadata is consulted, ever.
 * </ul>
 *
 * <p>{@code toString()} never shows a key or token.
 */
public sealed interface S3Credentials
    permits S3Credentials.DefaultChain, S3Credentials.Anonymous, S3Credentials.Static {

  /** The default credential chain (see the interface comment). */
  record DefaultChain() implements S3Credentials {}

  /** Unsigned requests. */
  record Anonymous() implements S3Credentials {}

  /**
   * Fixed keys.
   *
   * @param accessKeyId the access key id; required
   * @param secretAccessKey the secret access key; required
   * @param sessionToken a session token for temporary keys, or null
   * @throws KvInvalidArgumentException if a key is null or empty, or the token is empty; nothing is
   *     created
   */
  record Static(String accessKeyId, String secretAccessKey, String sessionToken)
      implements S3Credentials {
    public Static {
      if (accessKeyId == null || accessKeyId.isEmpty()) {
        throw new KvInvalidArgumentException("static S3 credentials need an access key id");
      }
      if (secretAccessKey == null || secretAccessKey.isEmpty()) {
        throw new KvInvalidArgumentException("static S3 credentials need a secret access key");
      }
      if (sessionToken != null && sessionToken.isEmpty()) {
        throw new KvInvalidArgumentException("a session token must be null or non-empty");
      }
    }

    /** Says which parts are present, never their values. */
    @Override
    public String toString() {
      return "Static[accessKeyId=<redacted>, secretAccessKey=<redacted>, sessionToken="
          + (sessionToken == null ? "none" : "<redacted>")
          + "]";
    }
  }

  /** The default credential chain. */
  static S3Credentials defaultChain() {
    return new DefaultChain();
  }

  /** Unsigned requests. */
  static S3Credentials anonymous() {
    return new Anonymous();
  }

  /** Long-lived keys. */
  static S3Credentials ofKeys(String accessKeyId, String secretAccessKey) {
    return new Static(accessKeyId, secretAccessKey, null);
  }

  /** Temporary keys with their session token. */
  static S3Credentials ofKeys(String accessKeyId, String secretAccessKey, String sessionToken) {
    return new Static(accessKeyId, secretAccessKey, sessionToken);
  }
}
