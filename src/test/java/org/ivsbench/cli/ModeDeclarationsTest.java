package org.ivsbench.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import org.ivsbench.mode.ExecutionMode;
import org.ivsbench.mode.RunOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** What the modes declare matches the command line: the options they name exist, the subcommands have what they accept. */
class ModeDeclarationsTest {
    private static final CommandLine MAIN = new CommandLine(new Main());

    @Test
    void everyOptionAModeMayRefuseIsAnOptionOfTheMainCommand() {
        for (RunOption o : RunOption.values()) {
            assertNotNull(MAIN.getCommandSpec().findOption(o.optionName()), o.optionName());
        }
    }

    @Test
    void theTenantsAndReplaySubcommandsHaveExactlyTheOptionsTheirModesAccept() {
        for (ExecutionMode mode : new ExecutionMode[] {ExecutionMode.TENANTS, ExecutionMode.REPLAY}) {
            String name = mode.name().toLowerCase(java.util.Locale.ROOT);
            CommandSpec sub = MAIN.getSubcommands().get(name).getCommandSpec();
            for (RunOption o : RunOption.values()) {
                assertEquals(mode.accepts(o), sub.findOption(o.optionName()) != null, name + " " + o.optionName());
            }
        }
    }
}
