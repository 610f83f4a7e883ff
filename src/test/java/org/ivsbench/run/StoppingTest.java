package org.ivsbench.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one stop of a mode: its waits and hooks (its runs: RunFolderTest and the CLI's signal tests). */
class StoppingTest {
    @Test
    void aWaitAfterTheRequestDoesNotStart() throws Exception {
        Stopping stopping = new Stopping();
        stopping.request();
        AtomicBoolean ran = new AtomicBoolean();
        stopping.interruptibly(() -> ran.set(true));
        assertTrue(stopping.requested());
        assertFalse(ran.get());
    }

    @Test
    void aRequestInterruptsTheThreadInAWait() throws Exception {
        Stopping stopping = new Stopping();
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                stopping.interruptibly(() -> {
                    waiting.countDown();
                    never.await(); // only an interrupt ends this
                });
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        t.start();
        waiting.await();
        stopping.request();
        t.join();
        assertInstanceOf(InterruptedException.class, ended.get());
    }

    @Test
    void aThreadThatLeftItsWaitIsNotInterruptedLater() throws Exception {
        Stopping stopping = new Stopping();
        stopping.interruptibly(() -> {});
        stopping.request();
        assertFalse(Thread.interrupted());
    }

    @Test
    void everyRequestRunsTheHooks() {
        Stopping stopping = new Stopping();
        AtomicInteger calls = new AtomicInteger();
        stopping.onRequest(calls::incrementAndGet);
        stopping.request();
        stopping.request();
        assertEquals(2, calls.get());
    }
}
