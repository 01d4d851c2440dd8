package dev.moraine.store.s3;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests an {@link S3Fixture}: one per test run, started on first use and stopped when the run
 * ends (it lives in the root context's store, so every test class shares it).
 *
 * <p>Resolves parameters of type {@link S3Fixture} (the shared fixture) and {@link S3Location} (a
 * fresh location under the run's prefix, named after the test). Use it with
 * {@code @ExtendWith(S3FixtureExtension.class)}; a static {@code @BeforeAll} method can take the
 * fixture as a parameter.
 */
public final class S3FixtureExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(S3FixtureExtension.class);

  /** The run's fixture, starting it if this is the first use. */
  public static S3Fixture fixture(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(S3Fixture.class, k -> S3Fixture.start(), S3Fixture.class);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == S3Fixture.class || type == S3Location.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    S3Fixture fixture = fixture(context);
    if (parameter.getParameter().getType() == S3Fixture.class) {
      return fixture;
    }
    String label = context.getTestMethod().map(m -> m.getName()).orElseGet(context::getDisplayName);
    return fixture.newLocation(label);
  }
}
