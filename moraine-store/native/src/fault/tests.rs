//! Unit tests of the injector's rules and counts.

use super::*;

#[test]
fn fail_rule_consumes_only_matching_paths() {
    let mut rule = FailRule {
        remaining: 2,
        fragment: Some("/wal/".to_owned()),
        ..FailRule::default()
    };
    assert!(!rule.take("db/manifest/1.manifest"));
    assert!(matches(&Some("/wal/".to_owned()), "wal/2.sst"));
    assert!(rule.take("db/wal/1.sst"));
    assert!(rule.take("db/wal/2.sst"));
    assert!(!rule.take("db/wal/3.sst"));
}

#[test]
fn fail_rule_lets_skipped_operations_through_first() {
    let mut rule = FailRule {
        skip: 2,
        remaining: 1,
        fragment: Some("/wal/".to_owned()),
        ..FailRule::default()
    };
    assert!(!rule.take("db/manifest/1.manifest"));
    assert!(!rule.take("db/wal/1.sst"));
    assert!(!rule.take("db/wal/2.sst"));
    assert!(rule.take("db/wal/3.sst"));
    assert!(!rule.take("db/wal/4.sst"));
}

#[test]
fn fragments_match_as_if_the_path_began_with_a_slash() {
    assert!(contains_fragment("wal/1.sst", "/wal/"));
    assert!(contains_fragment("db/wal/1.sst", "/wal/"));
    assert!(contains_fragment("db/wal/1.sst", "wal/1"));
    assert!(!contains_fragment("db/swal/1.sst", "/wal/"));
    assert!(!contains_fragment("db/manifest/1", "/wal/"));
}

#[test]
fn paths_fall_into_one_class() {
    assert_eq!(class_of("db/wal/00000000000000000001.sst"), 0);
    assert_eq!(class_of("manifest/00000000000000000001.manifest"), 1);
    assert_eq!(class_of("db/compacted/01J.sst"), 2);
    assert_eq!(class_of("db/checkpoints/x"), OTHER);
    assert_eq!(class_of(&list_path(Some(&Path::from("db/manifest")))), 1);
    assert_eq!(class_of(&list_path(None)), OTHER);
}

#[test]
fn counts_are_asked_by_class_only() {
    let injector = FaultInjector::new();
    injector.record(Op::Put, "db/wal/1.sst");
    injector.record(Op::Put, "db/wal/2.sst");
    injector.record(Op::Put, "db/manifest/1.manifest");
    injector.record(Op::Get, "db/wal/1.sst");
    let count = |op, fragment: Option<&str>| {
        injector
            .count(op, false, &fragment.map(str::to_owned))
            .map_err(|f| format!("{f:?}"))
    };
    assert_eq!(count(Op::Put, Some("/wal/")), Ok(2));
    assert_eq!(count(Op::Put, Some("/manifest/")), Ok(1));
    assert_eq!(count(Op::Put, Some("/compacted/")), Ok(0));
    assert_eq!(count(Op::Put, None), Ok(3));
    assert_eq!(count(Op::Get, None), Ok(1));
    assert_eq!(count(Op::Delete, None), Ok(0));
    assert!(count(Op::Put, Some("wal")).is_err());
    injector.reset();
    assert_eq!(count(Op::Put, None), Ok(0));
}

fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a test runtime")
        .block_on(future)
}

fn faulty() -> (FaultyStore, Arc<FaultInjector>, Arc<dyn ObjectStore>) {
    let inner: Arc<dyn ObjectStore> = Arc::new(slatedb::object_store::memory::InMemory::new());
    let injector = Arc::new(FaultInjector::new());
    let store = FaultyStore::new(inner.clone(), injector.clone(), true);
    (store, injector, inner)
}

#[test]
fn lists_fail_by_rule_and_are_counted() {
    let (store, injector, _) = faulty();
    run(async {
        for i in 0..3 {
            let path = Path::from(format!("db/manifest/{i}.manifest"));
            store.put(&path, "m".into()).await.expect("put");
        }
        injector.state().rules[Op::List as usize] = FailRule {
            skip: 1,
            remaining: 1,
            fragment: Some("/manifest/".to_owned()),
            ..FailRule::default()
        };
        let prefix = Path::from("db/manifest");
        let first: Vec<_> = store.list(Some(&prefix)).collect().await;
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(Result::is_ok));
        let second: Vec<_> = store.list(Some(&prefix)).collect().await;
        assert_eq!(second.len(), 1);
        assert!(second[0].is_err());
        assert!(store.list_with_delimiter(Some(&prefix)).await.is_ok());
        let other = store.list_with_delimiter(Some(&Path::from("db/wal"))).await;
        assert!(other.is_ok(), "a WAL listing does not match the rule");
    });
    let count = |injected| injector.count(Op::List, injected, &None).ok();
    assert_eq!(count(false), Some(3));
    assert_eq!(count(true), Some(1));
    let manifest = Some("/manifest/".to_owned());
    assert_eq!(injector.count(Op::List, false, &manifest).ok(), Some(2));
}

#[test]
fn deletes_fail_by_rule_one_path_at_a_time() {
    let (store, injector, inner) = faulty();
    run(async {
        let paths: Vec<Path> = (0..4)
            .map(|i| Path::from(format!("db/compacted/{i}.sst")))
            .collect();
        for path in &paths {
            store.put(path, "s".into()).await.expect("put");
        }
        injector.state().rules[Op::Delete as usize] = FailRule {
            skip: 1,
            remaining: 2,
            fragment: Some("/compacted/".to_owned()),
            ..FailRule::default()
        };
        let input = stream::iter(paths.clone().into_iter().map(Ok)).boxed();
        let results: Vec<_> = store.delete_stream(input).collect().await;
        let failed: Vec<bool> = results.iter().map(Result::is_err).collect();
        assert_eq!(failed, vec![false, true, true, false]);
        for (path, failed) in paths.iter().zip(&failed) {
            let present = inner.head(path).await.is_ok();
            assert_eq!(
                present, *failed,
                "{path}: only failed deletes leave the object"
            );
        }
    });
    let compacted = Some("/compacted/".to_owned());
    assert_eq!(injector.count(Op::Delete, false, &compacted).ok(), Some(2));
    assert_eq!(injector.count(Op::Delete, true, &compacted).ok(), Some(2));
    assert_eq!(injector.count(Op::Put, false, &compacted).ok(), Some(4));
}
