package dev.moraine.store;

import java.security.SecureRandom;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Chooses a property's seed and number of tries from the command line and the environment, so that
 * a local run checks the same sequences every time, CI explores new ones on every run, and any run
 * can be replayed:
 *
 * <ul>
 *   <li>{@code -Dmoraine.property.seed=<number>}: that seed, for example one a failure printed;
 *   <li>{@code -Dmoraine.property.seed=random}: a fresh seed;
 *   <li>neither, with the environment variable {@code CI=true} (as CI services set it): a fresh
 *       seed;
 *   <li>neither, elsewhere: the property's own fixed seed;
 *   <li>{@code -Dmoraine.property.tries=<n>}: that many tries.
 * </ul>
 *
 * A fresh seed is drawn here, not by jqwik, so that it is known before the run: it is printed to
 * the test's standard output when the property starts, and a failure's message names the seed and
 * the option that replays it (the message is what Maven prints for a failed test). Surefire hands
 * {@code -D} options of the Maven command line to the test JVM.
 */
public final class SeedAndTriesFromSystemProperties implements AroundPropertyHook {

  static final String SEED = "moraine.property.seed";
  static final String TRIES = "moraine.property.tries";

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    String requested = System.getProperty(SEED, "").trim();
    boolean inCi = "true".equalsIgnoreCase(System.getenv("CI"));
    if (requested.equalsIgnoreCase("random") || (requested.isEmpty() && inCi)) {
      context.attributes().setSeed(Long.toString(new SecureRandom().nextLong()));
    } else if (!requested.isEmpty()) {
      context.attributes().setSeed(requested);
    }
    String tries = System.getProperty(TRIES, "").trim();
    if (!tries.isEmpty()) {
      context.attributes().setTries(Integer.parseInt(tries));
    }
    String name = context.extendedLabel();
    String seed = context.attributes().seed().orElse("(chosen by jqwik)");
    System.out.println("property " + name + " runs with seed " + seed);
    PropertyExecutionResult result = property.execute();
    if (result.status() != PropertyExecutionResult.Status.FAILED) {
      return result;
    }
    String used = result.seed().orElse(seed);
    AssertionError failure =
        new AssertionError(
            "property "
                + name
                + " failed with seed "
                + used
                + "; replay it with -D"
                + SEED
                + "="
                + used
                + " (jqwik's report in the test output shows the shrunk sequence)",
            result.throwable().orElse(null));
    return result.mapToFailed(failure);
  }

  /** Runs before jqwik's own handling of the attributes it changes. */
  @Override
  public int aroundPropertyProximity() {
    return -100;
  }
}
