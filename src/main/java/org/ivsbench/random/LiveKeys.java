package org.ivsbench.random;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;

/**
 * The keys of one section's key space, by key number, in three states: <b>live</b> (the record exists),
 * <b>gone</b> (it was deleted and nothing re-inserted it) and neither (never handed out, an insert or delete
 * still in flight, or one whose outcome left the record's existence unknown). Inserts take fresh numbers from
 * {@link #reserveInsert()} (loaded keys are 0 .. loaded - 1; inserts take loaded, loaded + 1, ... or a planned
 * order of them), so an insert always adds a key that is not live.
 *
 * <p>Choosing among live (or gone) keys: a key distribution draws a cell {@code x} in {@code [0, cells)} as it
 * would draw a key number over a dense key space of {@code cells} keys; the cell becomes a <em>rank</em> among
 * the {@code n} members by the same quantile, {@code floor((x + u) * n / cells)} with {@code u} uniform in
 * [0, 1), and the rank the member of that rank in key-number order ({@link RankedBits#select}). When
 * {@code n == cells} no {@code u} is drawn and the rank is {@code x}: a section that has neither inserted nor
 * deleted draws exactly the keys a dense key space would. Uniform stays exactly uniform over the members;
 * a skewed distribution keeps its shape over key-number order (a hot cell's mass spreads over its n / cells
 * ranks when the set has grown, hot cells merge when it has shrunk); "latest" picks the highest live numbers,
 * which are the newest inserts.
 *
 * <p>A <b>hot range</b> ({@link #LiveKeys(long, int[], LongPredicate, double)}) sets apart the share of choices
 * that go to some keys (those of the hot prefixes) from the share of keys they are: the members are kept in two
 * classes, hot and the rest, and a choice first takes the hot class with probability {@code hotShare} (the other
 * class when one is empty), then the distribution chooses within the class as above - over its members in
 * key-number order, by the quantile of the cell.
 *
 * <p>Memory: two bitsets over the numbers handed out (live and gone; four with a hot range, about twice the
 * memory), so about a quarter of a byte per number plus 1/64 byte of rank index, independent
 * of how many operations run. Thread-safe: each method holds
 * the instance's lock for at most one key draw and one rank/select (unmeasured under contention;
 * docs/sections.md, "Concurrency").
 */
public final class LiveKeys {
    /** No member to choose (see {@link #pickLive}). */
    public static final long NONE = -1;

    /** The live and gone members per class: one class, or the hot range's (index 0) and the rest's (1). */
    private final RankedBits[] live;

    private final RankedBits[] gone;
    /** Whether a number is in the hot range, or null without one. */
    private final LongPredicate hot;

    private final double hotShare;
    /** Offsets of the first inserts' numbers from {@link #loaded}, in insert order (a planned sortedness), or null. */
    private final int[] insertOrder;

    private final long loaded;
    /** Inserts handed out so far. */
    private long next;

    /** A key space whose numbers 0 .. loaded - 1 are live (the section's loaded records). */
    public LiveKeys(long loaded) {
        this(loaded, null);
    }

    /**
     * As {@link #LiveKeys(long)}, with the numbers of the first inserts in a planned order: insert i takes
     * {@code loaded + insertOrder[i]} (a permutation of 0 .. length - 1, e.g. {@link LoadOrder}'s for a
     * sortedness); inserts past the plan take {@code loaded + i} in turn.
     */
    public LiveKeys(long loaded, int[] insertOrder) {
        this(loaded, insertOrder, null, 0);
    }

    /**
     * As {@link #LiveKeys(long, int[])}, with a hot range: the numbers {@code hot} accepts get {@code hotShare} of
     * the choices (see the class comment), whatever share of the members they are.
     */
    public LiveKeys(long loaded, int[] insertOrder, LongPredicate hot, double hotShare) {
        if (loaded < 0) {
            throw new IllegalArgumentException("loaded " + loaded);
        }
        if (hot != null && !(hotShare >= 0 && hotShare <= 1)) {
            throw new IllegalArgumentException("hot share " + hotShare);
        }
        this.hot = hot;
        this.hotShare = hotShare;
        int classes = hot == null ? 1 : 2;
        live = new RankedBits[classes];
        gone = new RankedBits[classes];
        for (int c = 0; c < classes; c++) {
            live[c] = new RankedBits(loaded);
            gone[c] = new RankedBits();
        }
        if (hot == null) {
            live[0].addRange(0, loaded);
        } else {
            for (long n = 0; n < loaded; n++) {
                live[classOf(n)].add(n);
            }
        }
        this.loaded = loaded;
        this.insertOrder = insertOrder;
    }

    /** The class of a number: 0 without a hot range; with one, 0 in it and 1 outside. */
    private int classOf(long number) {
        return hot == null || hot.test(number) ? 0 : 1;
    }

    /** The live keys in the hot range (all live keys without one). */
    public synchronized long hotLiveCount() {
        return live[0].count();
    }

    public synchronized long liveCount() {
        return count(live);
    }

    public synchronized long goneCount() {
        return count(gone);
    }

    private static long count(RankedBits[] sets) {
        long n = 0;
        for (RankedBits s : sets) {
            n += s.count();
        }
        return n;
    }

    /** A bound on the numbers handed out: every loaded or inserted number is below it. */
    public synchronized long nextNumber() {
        long planned = insertOrder != null && next > 0 ? insertOrder.length : 0;
        return loaded + Math.max(next, planned);
    }

    public synchronized boolean isLive(long number) {
        return live[classOf(number)].contains(number);
    }

    public synchronized boolean isGone(long number) {
        return gone[classOf(number)].contains(number);
    }

    /** A fresh number for an insert: neither live nor gone until {@link #inserted} reports its outcome. */
    public synchronized long reserveInsert() {
        long i = next++;
        return loaded + (insertOrder != null && i < insertOrder.length ? insertOrder[(int) i] : i);
    }

    /** The insert of {@code number} finished: live when it succeeded, otherwise left unknown (never chosen). */
    public synchronized void inserted(long number, boolean succeeded) {
        if (succeeded) {
            live[classOf(number)].add(number);
        }
    }

    /**
     * A live key by the distribution, or {@link #NONE} when nothing is live; see the class comment.
     *
     * @param cells the size of the dense key space the generator draws over (its records)
     */
    public synchronized long pickLive(LongGenerator generator, long cells, SplittableRandom random) {
        return pick(live, generator, cells, random);
    }

    /**
     * As {@link #pickLive}, and the key stops being live at once, so no other operation chooses it while its
     * delete runs; {@link #deleted} says how the delete ended.
     */
    public synchronized long takeLive(LongGenerator generator, long cells, SplittableRandom random) {
        long number = pick(live, generator, cells, random);
        if (number != NONE) {
            live[classOf(number)].remove(number);
        }
        return number;
    }

    /**
     * The delete of a taken key finished: when the record is known to be absent (deleted, or already not found)
     * the key is gone and empty operations may choose it; otherwise (an error) its state is unknown and nothing
     * chooses it again.
     */
    public synchronized void deleted(long number, boolean absent) {
        if (absent) {
            gone[classOf(number)].add(number);
        }
    }

    /** A gone key by the distribution (for empty operations), or {@link #NONE} when none is gone. */
    public synchronized long pickGone(LongGenerator generator, long cells, SplittableRandom random) {
        return pick(gone, generator, cells, random);
    }

    /**
     * The live key {@code steps} places after {@code number} in key-number order ({@code number} itself at 0 steps
     * when it is live), or the last live key when fewer follow; {@link #NONE} when nothing is live. A range from a
     * live key to this one holds {@code steps + 1} live keys, fewer at the end: the end key of a range read by its
     * two ends. Both classes of a hot range count (key order knows no classes).
     */
    public synchronized long liveAfter(long number, long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("steps " + steps);
        }
        long total = count(live);
        if (total == 0) {
            return NONE;
        }
        long target = Math.min(liveBelow(number) + steps, total - 1);
        if (live.length == 1) {
            return live[0].select(target);
        }
        // The smallest m with more than `target` live keys at or below it is the live key of rank `target`.
        long lo = 0;
        long hi = nextNumber() - 1;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (liveBelow(mid + 1) > target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * The live keys from {@code start} through the one {@code steps} places after it ({@link #liveAfter}), in
     * key-number order, taken at once as {@link #takeLive} takes one: no other operation chooses them while their
     * range delete runs; {@link #deleted(long[], boolean)} says how it ended. Empty when nothing is live at or
     * after {@code start}. The numbers between them that are not live (gone, or of unknown state) are not taken.
     */
    public synchronized long[] takeRange(long start, long steps) {
        long end = liveAfter(start, steps);
        if (end == NONE || end < start) {
            return new long[0];
        }
        int n = 0;
        long[][] perClass = new long[live.length][];
        for (int c = 0; c < live.length; c++) {
            long first = live[c].rank(start);
            long[] members = new long[Math.toIntExact(live[c].rank(end + 1) - first)];
            for (int i = 0; i < members.length; i++) {
                members[i] = live[c].select(first + i);
            }
            perClass[c] = members;
            n += members.length;
        }
        long[] taken = new long[n];
        int k = 0;
        for (long[] members : perClass) {
            for (long number : members) {
                live[classOf(number)].remove(number);
                taken[k++] = number;
            }
        }
        Arrays.sort(taken);
        return taken;
    }

    /** The range delete of keys {@link #takeRange} took finished: as {@link #deleted(long, boolean)} for each. */
    public synchronized void deleted(long[] numbers, boolean absent) {
        for (long number : numbers) {
            deleted(number, absent);
        }
    }

    /** The live keys below {@code number}, in both classes. */
    private long liveBelow(long number) {
        long n = 0;
        for (RankedBits s : live) {
            n += s.rank(number);
        }
        return n;
    }

    /** Bytes held by the two sets' arrays. */
    public synchronized long footprintBytes() {
        long bytes = 0;
        for (int c = 0; c < live.length; c++) {
            bytes += live[c].footprintBytes() + gone[c].footprintBytes();
        }
        return bytes;
    }

    /** A member of {@code sets} by the distribution: its class first (with a hot range), then the cell's rank in it. */
    private RankedBits pickClass(RankedBits[] sets, SplittableRandom random) {
        if (sets.length == 1) {
            return sets[0];
        }
        long hotCount = sets[0].count();
        long restCount = sets[1].count();
        if (hotCount == 0 || restCount == 0) {
            return hotCount == 0 ? sets[1] : sets[0];
        }
        return random.nextDouble() < hotShare ? sets[0] : sets[1];
    }

    private long pick(RankedBits[] sets, LongGenerator generator, long cells, SplittableRandom random) {
        RankedBits set = pickClass(sets, random);
        long n = set.count();
        if (n == 0) {
            return NONE;
        }
        return set.select(rank(generator.next(random), cells, n, random));
    }

    /**
     * The rank among {@code n} members of cell {@code x} of {@code cells}: {@code x} itself when the two agree,
     * else the same quantile with a uniform offset within the cell (see the class comment).
     */
    static long rank(long x, long cells, long n, SplittableRandom random) {
        if (cells < 1) {
            throw new IllegalArgumentException("cells " + cells);
        }
        long cell = Math.min(Math.max(x, 0), cells - 1);
        if (n == cells) {
            return cell;
        }
        double quantile = (cell + random.nextDouble()) / cells;
        return Math.min(n - 1, (long) (quantile * n));
    }
}
