package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import org.ivsbench.merge.ResultsMerge;
import org.ivsbench.run.NextStep;

/** {@code java -jar benchbase.jar merge -o OUT DIR...}: the shards' results folders into one (docs/results-format.md). */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        description = "Merge the results folders of the shards of one run (--shard i/n) into one results folder:"
                + " histograms added, samples.csv windows summed, monitor rows once per host. A DIR without"
                + " summary.json stands for the newest results folder in it.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every shard merged",
            "1:merged, but shard(s) missing or incomplete (named on stderr and in summary.json)",
            "2:bad arguments, nothing to merge, or folders of different runs (nothing written)"
        })
final class MergeCommand implements Callable<Integer> {
    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "OUT",
            description = "The merged results folder (must not exist, or be empty).")
    Path output;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "The shards' results folders.")
    List<Path> inputs;

    @Override
    public Integer call() {
        ResultsMerge.Result r;
        try {
            r = ResultsMerge.merge(inputs, output);
        } catch (ResultsMerge.MergeException e) {
            System.err.println("error: merge: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException | RuntimeException e) {
            System.err.println("error: merge: " + e.getMessage());
            return Main.FAILED;
        }
        System.out.println("Merged shard(s) " + r.merged() + " of " + r.expectedShards() + " into " + output);
        r.barriers().forEach(System.out::println);
        for (String line : r.leftOut()) {
            System.err.println("left out: " + line);
        }
        System.out.println(NextStep.line(output));
        return r.complete() ? Main.OK : Main.FAILED;
    }
}
