package org.ivsbench.experiment;

import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/** Test hook: sees the databases of an epoch while they still exist. */
interface ExperimentListener {
    ExperimentListener NONE = new ExperimentListener() {};

    /** Right after the extend phase of {@code epoch}, before anything else touches the primary. */
    default void extendDone(int epoch, Target primary, String table) throws TargetException {}

    /** Right before the quiescence wait and main's run phase of {@code epoch} on the primary. */
    default void beforeMainRun(int epoch, Target primary) throws TargetException {}

    /**
     * After the value-size pass and clean's snapshot of {@code epoch}, before the fresh modes (after main's run
     * phase when it only reads, else before it); the primary holds what the extend phase left.
     */
    default void primaryReady(int epoch, Target primary, String table) throws TargetException {}

    /** A fresh database built (clean restored, a baseline loaded), before its quiescence wait and run phase. */
    default void freshReady(int epoch, Mode mode, Target fresh, String table) throws TargetException {}

    /** After the run phase on a fresh database, before its table is dropped. */
    default void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {}
}
