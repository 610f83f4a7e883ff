package org.ivsbench.random;

import java.util.Arrays;

/**
 * A growable set of non-negative numbers with rank and select: one bit per number, plus a Fenwick tree of the
 * set bits per block of {@value #BLOCK_BITS} numbers. Select (the r-th smallest member) walks the tree, then at
 * most {@value #WORDS_PER_BLOCK} words of its block; adding and removing a member update the tree. Memory:
 * one bit per number below the highest ever added, plus four bytes per block (1/128 byte per number).
 *
 * <p>Not thread-safe: {@link LiveKeys} guards it.
 */
final class RankedBits {
    static final int WORDS_PER_BLOCK = 8;
    static final int BLOCK_BITS = WORDS_PER_BLOCK * 64;

    private long[] words;
    /** Fenwick tree over blocks, 1-based: tree[i] sums the set bits of blocks (i - lowbit(i), i]. */
    private int[] tree;

    private long count;

    RankedBits() {
        this(BLOCK_BITS);
    }

    /** @param numbers how many numbers (0 .. numbers - 1) to make room for at once */
    RankedBits(long numbers) {
        int blocks = Math.max(1, Math.toIntExact((numbers + BLOCK_BITS - 1) / BLOCK_BITS));
        words = new long[blocks * WORDS_PER_BLOCK];
        tree = new int[blocks + 1];
    }

    long count() {
        return count;
    }

    boolean contains(long number) {
        int word = (int) (number >>> 6);
        return number >= 0 && word < words.length && (words[word] & (1L << number)) != 0;
    }

    /** Adds {@code number}; false when it was a member already. */
    boolean add(long number) {
        if (number < 0) {
            throw new IllegalArgumentException("negative number " + number);
        }
        ensure(number);
        int word = (int) (number >>> 6);
        long bit = 1L << number;
        if ((words[word] & bit) != 0) {
            return false;
        }
        words[word] |= bit;
        count++;
        bump(word / WORDS_PER_BLOCK, 1);
        return true;
    }

    /** Adds every number in [from, to) at once (a loaded key space): linear, not one tree update per number. */
    void addRange(long from, long to) {
        if (from >= to) {
            return;
        }
        ensure(to - 1);
        for (long n = from; n < to; n++) {
            long bit = 1L << n;
            int word = (int) (n >>> 6);
            if ((words[word] & bit) == 0) {
                words[word] |= bit;
                count++;
            }
        }
        rebuild();
    }

    /** Removes {@code number}; false when it was not a member. */
    boolean remove(long number) {
        if (!contains(number)) {
            return false;
        }
        int word = (int) (number >>> 6);
        words[word] &= ~(1L << number);
        count--;
        bump(word / WORDS_PER_BLOCK, -1);
        return true;
    }

    /** The member of rank {@code rank} (0 = smallest). */
    long select(long rank) {
        if (rank < 0 || rank >= count) {
            throw new IndexOutOfBoundsException("rank " + rank + " of " + count + " members");
        }
        int blocks = tree.length - 1;
        int block = 0; // the tree position reached: blocks 1..block hold at most `rest` members
        long rest = rank;
        for (int step = Integer.highestOneBit(blocks); step > 0; step >>= 1) {
            int next = block + step;
            if (next <= blocks && tree[next] <= rest) {
                block = next;
                rest -= tree[next];
            }
        }
        // `block` (0-based) is the block holding the member; `rest` its rank within the block.
        int word = block * WORDS_PER_BLOCK;
        while (true) {
            int bits = Long.bitCount(words[word]);
            if (rest < bits) {
                return ((long) word << 6) + selectInWord(words[word], (int) rest);
            }
            rest -= bits;
            word++;
        }
    }

    /** How many members are smaller than {@code number} (a member's own rank; {@link #select} undoes it). */
    long rank(long number) {
        if (number <= 0) {
            return 0;
        }
        long wordIndex = number >>> 6;
        if (wordIndex >= words.length) {
            return count;
        }
        int word = (int) wordIndex;
        int block = word / WORDS_PER_BLOCK;
        long below = 0;
        for (int i = block; i > 0; i -= i & -i) { // blocks 0 .. block - 1
            below += tree[i];
        }
        for (int w = block * WORDS_PER_BLOCK; w < word; w++) {
            below += Long.bitCount(words[w]);
        }
        return below + Long.bitCount(words[word] & ((1L << number) - 1));
    }

    /** Bytes held by the arrays (array headers aside). */
    long footprintBytes() {
        return (long) words.length * Long.BYTES + (long) tree.length * Integer.BYTES;
    }

    private static int selectInWord(long word, int rank) {
        long w = word;
        for (int i = 0; i < rank; i++) {
            w &= w - 1; // drop the lowest set bit
        }
        return Long.numberOfTrailingZeros(w);
    }

    private void bump(int block, int delta) {
        for (int i = block + 1; i < tree.length; i += i & -i) {
            tree[i] += delta;
        }
    }

    private void ensure(long number) {
        long neededWords = (number >>> 6) + 1;
        if (neededWords <= words.length) {
            return;
        }
        long blocks = (neededWords + WORDS_PER_BLOCK - 1) / WORDS_PER_BLOCK;
        int grown = Math.toIntExact(Math.max(blocks, (long) (tree.length - 1) * 2));
        words = Arrays.copyOf(words, Math.multiplyExact(grown, WORDS_PER_BLOCK));
        tree = new int[grown + 1];
        rebuild();
    }

    private void rebuild() {
        Arrays.fill(tree, 0);
        for (int b = 0; b + 1 < tree.length; b++) {
            int sum = 0;
            for (int w = b * WORDS_PER_BLOCK; w < (b + 1) * WORDS_PER_BLOCK; w++) {
                sum += Long.bitCount(words[w]);
            }
            tree[b + 1] += sum;
            int parent = (b + 1) + ((b + 1) & -(b + 1));
            if (parent < tree.length) {
                tree[parent] += tree[b + 1];
            }
        }
    }
}
