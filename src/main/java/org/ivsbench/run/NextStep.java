package org.ivsbench.run;

import java.nio.file.Path;

/** The one line printed after every run: the command that turns its results folder into a report. */
public final class NextStep {
    private NextStep() {}

    public static String line(Path resultsDir) {
        return "Next: .cache/venv/bin/python -m ivs_analyzer report " + quoted(resultsDir.toString())
                + "   (report.html in that folder; scripts/demo.sh creates .cache/venv)";
    }

    /** Shell-quoted only when needed, so the usual path can be copied as it is. */
    private static String quoted(String path) {
        return path.matches("[A-Za-z0-9_./:=+-]+") ? path : "'" + path.replace("'", "'\\''") + "'";
    }
}
