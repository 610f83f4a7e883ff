package org.ivsbench.random;

import java.util.SplittableRandom;

/** A distribution over longs whose randomness comes only from the stream passed in. */
@FunctionalInterface
public interface LongGenerator {
    long next(SplittableRandom r);
}
