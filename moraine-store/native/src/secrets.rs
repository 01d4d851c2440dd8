//! Credentials never leave the crate in text.
//!
//! Every credential a store is configured with (S3 access key id, secret
//! key, session token) is remembered here when the store is built, and every
//! text that leaves for Java (an exception message, a log record) passes
//! through [`redact`], which replaces each remembered credential with a
//! fixed mask. This catches a credential wherever it ends up: in an error of
//! the S3 client, in a `Debug` dump of a configuration that some crate logs,
//! or in a request URL.

use std::borrow::Cow;
use std::sync::{OnceLock, RwLock};

/// What replaces a credential.
pub(crate) const MASK: &str = "[redacted]";

/// Credentials shorter than this are not masked: they would match ordinary
/// words and numbers, and a credential that short protects nothing anyway.
const SHORTEST: usize = 4;

fn known() -> &'static RwLock<Vec<String>> {
    static KNOWN: OnceLock<RwLock<Vec<String>>> = OnceLock::new();
    KNOWN.get_or_init(|| RwLock::new(Vec::new()))
}

/// Remembers `credential` for redaction, for the life of the process.
pub(crate) fn remember(credential: &str) {
    if credential.len() < SHORTEST {
        return;
    }
    let mut known = known().write().unwrap_or_else(|p| p.into_inner());
    if !known.iter().any(|k| k == credential) {
        known.push(credential.to_owned());
        // Longest first, so a credential containing another is masked whole.
        known.sort_by_key(|k| std::cmp::Reverse(k.len()));
    }
}

/// `text` with every remembered credential masked.
pub(crate) fn redact(text: &str) -> Cow<'_, str> {
    let known = known().read().unwrap_or_else(|p| p.into_inner());
    if !known.iter().any(|k| text.contains(k.as_str())) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_owned();
    for credential in known.iter() {
        if out.contains(credential.as_str()) {
            out = out.replace(credential.as_str(), MASK);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_credentials_are_masked_wherever_they_appear() {
        remember("TESTKEYID0001");
        remember("TESTKEYID0001-and-more");
        remember("abc");
        let text = "key=TESTKEYID0001, other=TESTKEYID0001-and-more, abc";
        assert_eq!(
            redact(text),
            "key=[redacted], other=[redacted], abc".to_owned()
        );
        assert!(matches!(redact("nothing secret"), Cow::Borrowed(_)));
    }
}
