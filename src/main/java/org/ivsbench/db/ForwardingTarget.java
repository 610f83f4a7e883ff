package org.ivsbench.db;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * A target that hands every call to another one: the base of decorators that change one thing (the sessions it
 * opens, a capability, what closing it does) and keep the rest.
 */
public abstract class ForwardingTarget implements Target {
    protected final Target target;

    protected ForwardingTarget(Target target) {
        this.target = target;
    }

    @Override
    public TargetKind kind() {
        return target.kind();
    }

    @Override
    public Session openSession() throws TargetException {
        return target.openSession();
    }

    @Override
    public void createTable(TableSpec table) throws TargetException {
        target.createTable(table);
    }

    @Override
    public void dropTable(String table) throws TargetException {
        target.dropTable(table);
    }

    @Override
    public long countRecords(String table) throws TargetException {
        return target.countRecords(table);
    }

    @Override
    public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
        target.forEachRecord(table, consumer);
    }

    @Override
    public <T> Optional<T> capability(Class<T> type) {
        return target.capability(type);
    }

    @Override
    public void close() {
        target.close();
    }
}
