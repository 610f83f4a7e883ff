package org.ivsbench.db;

/**
 * How a session extends a field.
 *
 * <ul>
 *   <li>CLIENT: read the one field, append on the client, write it back (YCSB-IVS's semantics), safe with
 *       concurrent extends of one record: SQL reads with the row locked in a transaction, MongoDB writes guarded
 *       by the value read, so no append is lost.
 *   <li>CLIENT_PLAIN: the paper's binding as it ran: a read and a replace, no transaction, no lock, no guard. Two
 *       terminals extending one record at once can lose an append; with one terminal nothing can, and each
 *       extend costs two round trips.
 *   <li>SERVER: one atomic append statement on the server, guarded by the cap.
 * </ul>
 */
public enum ExtendMethod {
    CLIENT,
    CLIENT_PLAIN,
    SERVER
}
