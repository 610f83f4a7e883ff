package org.ivsbench.experiment;

import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/** Test hook: sees the databases of an epoch while they still exist. */
interface ExperimentListener {
    ExperimentListener NONE = new ExperimentListener() {};

    /** After the extend phase and the value-size pass of {@code epoch}, before any run phase. */
    default void primaryReady(int epoch, Target primary, String table) throws TargetException {}

    /** A fresh database built (clean restored, a baseline loaded), before its run phase. */
    default void freshReady(int epoch, Mode mode, Target fresh, String table) throws TargetException {}

    /** After the run phase on a fresh database, before its table is dropped. */
    default void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {}
}
