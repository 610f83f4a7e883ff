package org.ivsbench.config;

/**
 * Validates a parsed target section and fills its defaults. The loader knows no database: the caller passes
 * the bindings' check (TargetKinds::resolve), which throws at {@code type}, {@code url}, {@code driver} or
 * {@code isolation}.
 */
@FunctionalInterface
public interface TargetCheck {
    TargetConfig check(TargetConfig parsed) throws ConfigException;
}
