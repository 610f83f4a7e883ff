package org.ivsbench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import org.ivsbench.monitor.MonitorAgent;

/** {@code java -jar benchbase.jar monitor-agent --listen 127.0.0.1:PORT [--pid-file F | --process-name N]}. */
@Command(name = "monitor-agent", description = "Serve this host's resource samples to a benchmark client.",
        mixinStandardHelpOptions = false)
final class MonitorAgentCommand implements Callable<Integer> {
    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        return MonitorAgent.run(args.toArray(new String[0]));
    }
}
