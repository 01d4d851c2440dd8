package dev.moraine.store;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Lets the command line replace a property's fixed seed and number of tries, so a property can run
 * with the same seed by default and with fresh ones on demand:
 *
 * <ul>
 *   <li>{@code -Dmoraine.property.seed=random}: a new random seed on every run (jqwik prints it in
 *       its report; a failing seed is also kept in {@code .jqwik-database} and tried first on the
 *       next run);
 *   <li>{@code -Dmoraine.property.seed=<number>}: that seed, for example one a report printed;
 *   <li>{@code -Dmoraine.property.tries=<n>}: that many tries.
 * </ul>
 *
 * Surefire hands {@code -D} options of the Maven command line to the test JVM.
 */
public final class SeedAndTriesFromSystemProperties implements AroundPropertyHook {

  static final String SEED = "moraine.property.seed";
  static final String TRIES = "moraine.property.tries";

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    String seed = System.getProperty(SEED, "").trim();
    if (seed.equalsIgnoreCase("random")) {
      // An empty seed is jqwik's "not set": it draws a random one.
      context.attributes().setSeed("");
    } else if (!seed.isEmpty()) {
      context.attributes().setSeed(seed);
    }
    String tries = System.getProperty(TRIES, "").trim();
    if (!tries.isEmpty()) {
      context.attributes().setTries(Integer.parseInt(tries));
    }
    return property.execute();
  }

  /** Runs before jqwik's own handling of the attributes it changes. */
  @Override
  public int aroundPropertyProximity() {
    return -100;
  }
}
