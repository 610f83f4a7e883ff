package org.ivsbench.config;

/** The database products ivsbench can drive. MYSQL shares the MariaDB dialect. */
public enum DatabaseType {
    SQLITE, MARIADB, MYSQL, MONGODB
}
