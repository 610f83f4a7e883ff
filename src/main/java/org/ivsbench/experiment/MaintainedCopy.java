package org.ivsbench.experiment;

import java.io.PrintStream;
import java.util.Locale;

import org.ivsbench.db.Reorganization;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * main-maintained's database for one epoch: experiment/maintained's command makes a physical copy of the primary as
 * the extend phase left it (files copied, so the copy keeps main's history in its pages and SST files; a logical
 * restore would be clean-run), then the platform's own reorganization runs on it ({@link Reorganization}), timed,
 * with the table's physical figures before and after written to maintenance.csv. The mode's run phase reads the
 * copy like any other mode's database.
 */
final class MaintainedCopy {
    /** The copy, ready to be read: its server, how long the copy took, and what the maintenance did. */
    record Ready(Target server, long copyMs, Reorganization.Result maintenance) {}

    private MaintainedCopy() {}

    static Ready prepare(int epoch, FreshServer copies, String table, EpochsCsv csv, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        Target server = copies.acquire(Mode.MAINTAINED, epoch, table);
        long copyMs = (System.nanoTime() - t0) / 1_000_000;
        try {
            Reorganization r = server.capability(Reorganization.class)
                    .orElseThrow(() -> new TargetException("mode main-maintained: type "
                            + server.kind().names().get(0) + " offers no reorganization of a table"));
            Reorganization.Result done = r.reorganize(table);
            csv.maintenanceRows(epoch, copyMs, done);
            out.printf(
                    Locale.ROOT,
                    "epoch %d mode %s: copied in %.1f s, %s in %.1f s%n",
                    epoch,
                    Mode.MAINTAINED.label(),
                    copyMs / 1000.0,
                    done.statement(),
                    done.millis() / 1000.0);
            return new Ready(server, copyMs, done);
        } catch (Exception e) {
            copies.release(server);
            throw e;
        }
    }
}
