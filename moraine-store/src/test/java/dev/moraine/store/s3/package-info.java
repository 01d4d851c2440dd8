/**
 * The store on S3-compatible object storage, tested.
 *
 * <p>{@link dev.moraine.store.s3.S3Fixture} provides the endpoint: by default S3Proxy started in
 * the test JVM on a free port of 127.0.0.1 (filesystem backend in a temp directory), with one
 * bucket; {@link dev.moraine.store.s3.S3FixtureExtension} shares one fixture across the whole test
 * run and stops it at the end. {@link dev.moraine.store.s3.S3ConditionalWriteTest} checks with
 * plain signed HTTP that the endpoint honours the conditional PUTs SlateDB needs, and {@link
 * dev.moraine.store.s3.S3KvStoreContractTest} runs the whole store contract on it.
 *
 * <p>To run the same tests against another endpoint (MinIO, AWS, ...), give it by system
 * properties; nothing is started then, the bucket must exist, and each run writes under a fresh
 * prefix that is left in place afterwards:
 *
 * <pre>
 * mvn -B -pl moraine-store test -Dtest='S3*' \
 *     -Dmoraine.s3.endpoint=http://127.0.0.1:9000 -Dmoraine.s3.bucket=moraine-ci \
 *     -Dmoraine.s3.accessKey=... -Dmoraine.s3.secretKey=... \
 *     [-Dmoraine.s3.region=us-east-1] [-Dmoraine.s3.prefix=moraine-test] [-Dmoraine.s3.allowHttp=true]
 * </pre>
 */
package dev.moraine.store.s3;
