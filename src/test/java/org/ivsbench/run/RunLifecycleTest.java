package org.ivsbench.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The outcome of the work under the lifecycle, as the exit code the CLI returns. */
class RunLifecycleTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** Work that runs {@code body} and records stop requests. */
    private static final class Body implements RunLifecycle.Work {
        interface Action {
            void run(Body self) throws Exception;
        }

        final CountDownLatch stopped = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(1);
        private final Action action;

        Body(Action action) {
            this.action = action;
        }

        @Override
        public void run() throws Exception {
            started.countDown();
            action.run(this);
        }

        @Override
        public void stop() {
            stopped.countDown();
        }
    }

    private int run(Body body) {
        return lifecycle(body).run();
    }

    private RunLifecycle lifecycle(Body body) {
        return new RunLifecycle("run", body, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void workThatEndsIsZero() {
        assertEquals(0, run(new Body(b -> {})));
        assertEquals("", err());
    }

    @Test
    void workThatFailsIsOneWithOneErrorLine() {
        assertEquals(1, run(new Body(b -> {
            throw new IllegalStateException("database went away");
        })));
        assertEquals("error: the run stopped: database went away", err().strip());
    }

    @Test
    void aStopRequestReachesTheWorkAndIs130() throws Exception {
        Body body = new Body(b -> b.stopped.await());
        RunLifecycle lifecycle = lifecycle(body);
        int[] code = new int[1];
        Thread runner = new Thread(() -> code[0] = lifecycle.run());
        runner.start();
        body.started.await();
        lifecycle.requestStop(); // what the shutdown hook does on SIGINT/SIGTERM
        runner.join();
        assertEquals(RunLifecycle.INTERRUPTED, code[0]);
        assertEquals("", err());
    }

    @Test
    void aFailureAfterAStopRequestIs130() throws Exception {
        Body body = new Body(b -> {
            b.stopped.await();
            throw new IllegalStateException("connection closed");
        });
        RunLifecycle lifecycle = lifecycle(body);
        int[] code = new int[1];
        Thread runner = new Thread(() -> code[0] = lifecycle.run());
        runner.start();
        body.started.await();
        lifecycle.requestStop();
        runner.join();
        assertEquals(130, code[0]);
        assertTrue(err().contains("connection closed"), err());
    }

    @Test
    void anInterruptedWorkIs130AndKeepsTheInterrupt() {
        int code = run(new Body(b -> {
            throw new InterruptedException();
        }));
        assertEquals(130, code);
        assertTrue(Thread.interrupted(), "the interrupt is passed on");
    }
}
