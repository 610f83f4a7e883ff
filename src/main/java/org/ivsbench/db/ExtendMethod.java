package org.ivsbench.db;

/**
 * CLIENT: read the one field, append on the client, write it back (YCSB-IVS's semantics).
 * SERVER: one atomic append statement on the server, guarded by the cap.
 */
public enum ExtendMethod {
    CLIENT,
    SERVER
}
