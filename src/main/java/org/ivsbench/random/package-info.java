/**
 * Seeded random streams and the key / length distributions of YCSB, reproduced exactly so that a
 * "zipfian" run of ycsbivs means the same thing as a YCSB or YCSB-IVS run; beside them, distribution
 * expressions ({@link DistributionSpec}) name parameterised keys
 * ({@link KeyDistributions}) and value lengths ({@link LengthDistribution})
 * drawn by the inverse CDFs of Apache Commons Statistics.
 *
 * <p>Every generator draws from a {@link SplittableRandom} that the caller passes in: each
 * terminal owns one stream (see {@link Seeds}), so the operation sequence of a
 * terminal depends only on the seed and the configuration, never on thread scheduling. State shared
 * between terminals (the insert counter) is passed in explicitly; there is no static mutable state.
 *
 * <p>Generators are not thread-safe unless they say so; a terminal creates its own per phase.
 */
package org.ivsbench.random;

import java.util.SplittableRandom;
