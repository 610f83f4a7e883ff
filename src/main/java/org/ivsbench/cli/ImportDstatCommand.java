package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import org.ivsbench.monitor.DstatImporter;

/** {@code java -jar benchbase.jar import-dstat DOOL.csv monitor.csv}: a dstat/dool CSV into monitor.csv columns. */
@Command(
        name = "import-dstat",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        description = "Convert a dstat / dool --output CSV (best with --epoch) into monitor.csv columns, for hosts"
                + " where monitor-agent cannot run.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:the input cannot be read or is not a dstat/dool CSV", "2:bad arguments"})
final class ImportDstatCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DSTAT_CSV", description = "The CSV dstat or dool wrote with --output.")
    Path input;

    @Parameters(index = "1", paramLabel = "MONITOR_CSV", description = "The monitor.csv to write (replaced).")
    Path output;

    @Override
    public Integer call() {
        try {
            DstatImporter.importCsv(input, output);
        } catch (IOException | RuntimeException e) {
            System.err.println("error: " + input + ": " + e.getMessage());
            return Main.FAILED;
        }
        System.out.println("wrote " + output);
        return Main.OK;
    }
}
