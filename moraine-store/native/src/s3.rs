//! S3-compatible object stores: how Java's `ObjectStoreSpec.S3` becomes an
//! `AmazonS3` client.
//!
//! Three ways to authenticate, chosen explicitly by the caller:
//!
//! - the default chain: the `AWS_*` credential variables of the process
//!   environment, then a web identity token (`AWS_WEB_IDENTITY_TOKEN_FILE`
//!   with `AWS_ROLE_ARN`), then the static keys of a profile in the shared
//!   credentials file, then the container (ECS, EKS pod identity) endpoints,
//!   then the instance metadata service;
//! - anonymous: requests go out unsigned and no credential source is asked;
//! - static keys, with an optional session token: used as given, never
//!   completed from the environment or the instance metadata service.
//!
//! Every client gets explicit connect, request and idle-connection timeouts,
//! so that an endpoint that never answers fails a call in seconds.

use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Once};
use std::time::Duration;

use jni::objects::{JClass, JString};
use jni::sys::{jboolean, jint, jlong, JNI_TRUE};
use jni::JNIEnv;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};

use crate::boundary::{guard, Failure, Outcome};
use crate::handle::into_handle;
use crate::secrets;
use crate::stores::{java_string, optional_string, StoreRef};

/// How often the S3 client itself retries one HTTP request. SlateDB retries
/// failed operations on top of this (`object_store_max_retries`), so the
/// client's own budget is kept small to bound how long a dead endpoint can
/// hold a call.
const S3_CLIENT_RETRIES: usize = 2;
const S3_CLIENT_RETRY_TIMEOUT: Duration = Duration::from_secs(20);

/// The credential modes Java passes (`ObjectStoreSpec.S3Credentials`).
const CREDENTIALS_DEFAULT_CHAIN: jint = 0;
const CREDENTIALS_ANONYMOUS: jint = 1;
const CREDENTIALS_STATIC: jint = 2;

/// The environment variables the default chain reads. Only these: the rest
/// of `AWS_*` (endpoint, region, signing switches) stays under the spec's
/// control.
const CHAIN_VARIABLES: [(&str, AmazonS3ConfigKey); 9] = [
    ("AWS_ACCESS_KEY_ID", AmazonS3ConfigKey::AccessKeyId),
    ("AWS_SECRET_ACCESS_KEY", AmazonS3ConfigKey::SecretAccessKey),
    ("AWS_SESSION_TOKEN", AmazonS3ConfigKey::Token),
    (
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        AmazonS3ConfigKey::WebIdentityTokenFile,
    ),
    ("AWS_ROLE_ARN", AmazonS3ConfigKey::RoleArn),
    ("AWS_ROLE_SESSION_NAME", AmazonS3ConfigKey::RoleSessionName),
    (
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        AmazonS3ConfigKey::ContainerCredentialsRelativeUri,
    ),
    (
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        AmazonS3ConfigKey::ContainerCredentialsFullUri,
    ),
    (
        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
        AmazonS3ConfigKey::ContainerAuthorizationTokenFile,
    ),
];

/// rustls needs one crypto provider per process; reqwest is built without
/// one (so aws-lc is not compiled), and ring's is installed here before the
/// first client. If the host process already installed one, that one stays.
fn install_crypto_provider() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // An Err only means another provider was installed first; it serves
        // as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A millisecond count from Java, which has already refused values below 1.
fn millis(value: jlong, what: &str) -> Outcome<Duration> {
    if value < 1 {
        return Err(Failure::Invalid(format!(
            "{what} must be at least 1 ms, was {value} ms"
        )));
    }
    Ok(Duration::from_millis(value as u64))
}

/// Static keys of one profile of an AWS shared credentials file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ProfileKeys {
    pub(crate) access_key_id: String,
    pub(crate) secret_access_key: String,
    pub(crate) session_token: Option<String>,
}

/// Reads `profile`'s static keys from the text of a shared credentials file
/// (INI: `[name]` sections of `key = value` lines, `#` or `;` comments).
/// A profile without both keys yields `None`: it may configure a role or
/// single sign-on, which this reader does not follow.
pub(crate) fn profile_keys(text: &str, profile: &str) -> Option<ProfileKeys> {
    let mut in_profile = false;
    let mut access = None;
    let mut secret = None;
    let mut token = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            in_profile = section.trim() == profile;
            continue;
        }
        if !in_profile {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().to_owned();
        match key.trim().to_ascii_lowercase().as_str() {
            "aws_access_key_id" => access = Some(value),
            "aws_secret_access_key" => secret = Some(value),
            "aws_session_token" => token = Some(value),
            _ => {}
        }
    }
    match (access, secret) {
        (Some(access_key_id), Some(secret_access_key))
            if !access_key_id.is_empty() && !secret_access_key.is_empty() =>
        {
            Some(ProfileKeys {
                access_key_id,
                secret_access_key,
                session_token: token.filter(|t| !t.is_empty()),
            })
        }
        _ => None,
    }
}

/// The shared credentials file the AWS tools use:
/// `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
fn credentials_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("AWS_SHARED_CREDENTIALS_FILE") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("HOME").map(|home| FsPath::new(&home).join(".aws").join("credentials"))
}

/// The builder for the default chain: the credential variables of the
/// environment, then (if they hold neither keys nor a web identity) the
/// profile's static keys. object_store's own build then falls back to the
/// container endpoints and the instance metadata service.
fn default_chain(mut builder: AmazonS3Builder) -> AmazonS3Builder {
    let mut has_keys = false;
    let mut has_web_identity = false;
    for (name, key) in CHAIN_VARIABLES {
        if let Ok(value) = std::env::var(name) {
            if value.is_empty() {
                continue;
            }
            if matches!(
                key,
                AmazonS3ConfigKey::AccessKeyId
                    | AmazonS3ConfigKey::SecretAccessKey
                    | AmazonS3ConfigKey::Token
            ) {
                secrets::remember(&value);
            }
            has_keys |= matches!(key, AmazonS3ConfigKey::AccessKeyId);
            has_web_identity |= matches!(key, AmazonS3ConfigKey::WebIdentityTokenFile);
            builder = builder.with_config(key, value);
        }
    }
    if has_keys || has_web_identity {
        return builder;
    }
    let profile = std::env::var("AWS_PROFILE")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "default".to_owned());
    let keys = credentials_file()
        .and_then(|file| std::fs::read_to_string(file).ok())
        .and_then(|text| profile_keys(&text, &profile));
    if let Some(keys) = keys {
        secrets::remember(&keys.access_key_id);
        secrets::remember(&keys.secret_access_key);
        if let Some(token) = &keys.session_token {
            secrets::remember(token);
        }
        builder = builder
            .with_access_key_id(keys.access_key_id)
            .with_secret_access_key(keys.secret_access_key);
        if let Some(token) = keys.session_token {
            builder = builder.with_token(token);
        }
    }
    builder
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_moraine_store_Native_storeS3<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    endpoint: JString<'l>,
    bucket: JString<'l>,
    prefix: JString<'l>,
    region: JString<'l>,
    credentials: jint,
    access_key: JString<'l>,
    secret_key: JString<'l>,
    session_token: JString<'l>,
    allow_http: jboolean,
    connect_timeout_ms: jlong,
    request_timeout_ms: jlong,
    pool_idle_timeout_ms: jlong,
) -> jlong {
    guard(&mut env, 0, |env| {
        let endpoint = optional_string(env, &endpoint)?;
        let bucket = java_string(env, &bucket)?;
        let prefix = optional_string(env, &prefix)?;
        let region = optional_string(env, &region)?;
        let access_key = optional_string(env, &access_key)?;
        let secret_key = optional_string(env, &secret_key)?;
        let session_token = optional_string(env, &session_token)?;
        // Before anything can fail or log: from here on these never appear
        // in an exception text or a log record.
        for credential in [&access_key, &secret_key, &session_token]
            .into_iter()
            .flatten()
        {
            secrets::remember(credential);
        }
        let connect_timeout = millis(connect_timeout_ms, "S3 connect timeout")?;
        let request_timeout = millis(request_timeout_ms, "S3 request timeout")?;
        let pool_idle_timeout = millis(pool_idle_timeout_ms, "S3 pool idle timeout")?;

        let retry = RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: S3_CLIENT_RETRIES,
            retry_timeout: S3_CLIENT_RETRY_TIMEOUT,
        };
        let client = ClientOptions::new()
            .with_allow_http(allow_http == JNI_TRUE)
            .with_connect_timeout(connect_timeout)
            .with_timeout(request_timeout)
            .with_pool_idle_timeout(pool_idle_timeout);
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_client_options(client)
            .with_retry(retry)
            .with_region(region.unwrap_or_else(|| "us-east-1".to_owned()));
        if let Some(endpoint) = endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        builder = match credentials {
            CREDENTIALS_DEFAULT_CHAIN => default_chain(builder),
            CREDENTIALS_ANONYMOUS => builder.with_skip_signature(true),
            CREDENTIALS_STATIC => {
                // Both keys are required here, so object_store takes its
                // static provider and never looks further.
                let (Some(access_key), Some(secret_key)) = (access_key, secret_key) else {
                    return Err(Failure::Invalid(
                        "static S3 credentials need an access key and a secret key".to_owned(),
                    ));
                };
                let builder = builder
                    .with_access_key_id(access_key)
                    .with_secret_access_key(secret_key);
                match session_token {
                    Some(token) => builder.with_token(token),
                    None => builder,
                }
            }
            other => {
                return Err(Failure::Invalid(format!(
                    "unknown S3 credential mode {other}"
                )))
            }
        };
        install_crypto_provider();
        // object_store's messages name settings, never secret values.
        let s3 = builder
            .build()
            .map_err(|e| Failure::Invalid(format!("bad S3 configuration: {e}")))?;
        let store: Arc<dyn ObjectStore> = match prefix.filter(|p| !p.is_empty()) {
            Some(prefix) => Arc::new(PrefixStore::new(s3, Path::from(prefix))),
            None => Arc::new(s3),
        };
        Ok(into_handle(StoreRef {
            store,
            conditional_update: true,
            keeps_attributes: true,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "\
# a comment
[default]
aws_access_key_id = AKIDEFAULT
aws_secret_access_key = secret-default

[work]
; another comment
aws_access_key_id=AKIWORK
aws_secret_access_key=secret-work
aws_session_token = token-work

[sso]
sso_start_url = https://example.invalid/start
";

    #[test]
    fn reads_the_default_profile() {
        assert_eq!(
            profile_keys(FILE, "default"),
            Some(ProfileKeys {
                access_key_id: "AKIDEFAULT".to_owned(),
                secret_access_key: "secret-default".to_owned(),
                session_token: None,
            })
        );
    }

    #[test]
    fn reads_a_named_profile_with_a_session_token() {
        assert_eq!(
            profile_keys(FILE, "work"),
            Some(ProfileKeys {
                access_key_id: "AKIWORK".to_owned(),
                secret_access_key: "secret-work".to_owned(),
                session_token: Some("token-work".to_owned()),
            })
        );
    }

    #[test]
    fn a_profile_without_static_keys_or_a_missing_one_gives_none() {
        assert_eq!(profile_keys(FILE, "sso"), None);
        assert_eq!(profile_keys(FILE, "absent"), None);
        assert_eq!(
            profile_keys("[p]\naws_access_key_id = only-the-id\n", "p"),
            None
        );
    }

    #[test]
    fn timeouts_below_one_millisecond_are_refused() {
        assert!(millis(0, "t").is_err());
        assert!(millis(-5, "t").is_err());
        assert_eq!(millis(1500, "t").ok(), Some(Duration::from_millis(1500)));
    }
}
