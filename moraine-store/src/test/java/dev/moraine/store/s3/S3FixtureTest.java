package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** How the fixture reads its configuration. Nothing here opens a connection. */
class S3FixtureTest {

  private static Properties external() {
    Properties p = new Properties();
    p.setProperty("moraine.s3.endpoint", "http://127.0.0.1:9");
    p.setProperty("moraine.s3.bucket", "lake");
    p.setProperty("moraine.s3.accessKey", "id");
    p.setProperty("moraine.s3.secretKey", "secret");
    return p;
  }

  @Test
  void anExternalEndpointStartsNothingAndWritesUnderAFreshRunPrefix() {
    Properties p = external();
    p.setProperty("moraine.s3.prefix", "/ci/moraine/");
    p.setProperty("moraine.s3.region", "eu-west-3");
    try (S3Fixture one = S3Fixture.start(p);
        S3Fixture two = S3Fixture.start(p)) {
      assertFalse(one.isEmbedded());
      S3Location run = one.runLocation();
      assertEquals(URI.create("http://127.0.0.1:9"), run.endpoint());
      assertEquals("lake", run.bucket());
      assertEquals("eu-west-3", run.region());
      assertTrue(run.allowHttp(), "plain http is allowed for an http endpoint");
      assertTrue(run.prefix().startsWith("ci/moraine/run-"), run.prefix());
      assertNotEquals(run.prefix(), two.runLocation().prefix(), "each run has its own prefix");
      S3Location a = one.newLocation("some test()");
      assertTrue(a.prefix().startsWith(run.prefix() + "/some_test__-"), a.prefix());
      assertFalse(a.toString().contains("secret"), "the secret is never printed");
    }
  }

  @Test
  void aBlankPrefixFallsBackToTheDefault() {
    Properties p = external();
    p.setProperty("moraine.s3.prefix", "/");
    try (S3Fixture fixture = S3Fixture.start(p)) {
      assertTrue(fixture.runLocation().prefix().startsWith("moraine-test/run-"));
    }
  }

  @Test
  void anHttpsEndpointRefusesPlainHttpUnlessTold() {
    Properties p = external();
    p.setProperty("moraine.s3.endpoint", "https://s3.example.invalid");
    try (S3Fixture fixture = S3Fixture.start(p)) {
      assertFalse(fixture.runLocation().allowHttp());
    }
    p.setProperty("moraine.s3.allowHttp", "true");
    try (S3Fixture fixture = S3Fixture.start(p)) {
      assertTrue(fixture.runLocation().allowHttp());
    }
  }

  @Test
  void anExternalEndpointNeedsBucketAndCredentials() {
    for (String missing : new String[] {"bucket", "accessKey", "secretKey"}) {
      Properties p = external();
      p.remove("moraine.s3." + missing);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> S3Fixture.start(p));
      assertTrue(e.getMessage().contains("moraine.s3." + missing), e.getMessage());
    }
  }

  @Test
  void anUnknownEmbeddedBackendIsRefused() {
    Properties p = new Properties();
    p.setProperty("moraine.s3.backend", "floppy");
    assertThrows(IllegalArgumentException.class, () -> S3Fixture.start(p));
  }

  @Test
  void locationsNestAndEncodeKeys() {
    S3Location base =
        new S3Location(URI.create("http://127.0.0.1:1/"), "b", "/p/", "us-east-1", "a", "s", true);
    assertEquals("p", base.prefix());
    assertEquals("p/c/d", base.child("c/d/").prefix());
    assertEquals("p/x y", base.objectKey("/x y"));
    assertEquals(URI.create("http://127.0.0.1:1/b/p/x%20y"), base.objectUri("x y"));
    assertThrows(IllegalArgumentException.class, () -> base.child("/"));
  }
}
