#!/usr/bin/env bash
# Fault injector: a second process takes every free connection of the server (max_connections reached), and the
# benchmark's sessions are disconnected so that they need new connections, which the server refuses (error 1040,
# "Too many connections"); the server itself stays up and answers the connections it has.
#
#   scripts/faults/mariadb-connection-hog.sh DEFAULTS_FILE USER TABLE SECONDS
#
# DEFAULTS_FILE: a client option file reaching the server as root (the private server's my.cnf from
# scripts/mariadb.sh). USER: the benchmark's user; TABLE: the benchmark's table (docs/diagnosis.md, scenario 13).
# The hog opens every free connection at once (max_connections, and the one more the server keeps for an
# administrator; each waits for a lock the killer holds). One root session of them (the "killer") waits until
# the server holds max_connections + 1, then for SECONDS kills (KILL CONNECTION) every session of USER seen
# running a statement on TABLE: the benchmark's terminals, not its monitor, whose connection only reads status.
# Meanwhile three retriers each try one more connection every 20 ms, so a slot a killed session frees mostly
# goes to the hog while the terminal waits in its reconnect backoff. Prints this script's pid on the first line (the culprit),
# then once the fault is over "connections held: N, sessions killed: K"; its sessions end with it (they wait
# for a lock the killer holds), so the server's connections are free again when it returns.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 4 ] || { echo "usage: $0 DEFAULTS_FILE USER TABLE SECONDS" >&2; exit 2; }
defaults=$1 user=$2 table=$3 seconds=$4
fault_file "defaults file" "$defaults"
fault_name user "$user"
fault_name table "$table"
fault_seconds "$seconds"
client="$(fault_mariadb_client)"

work=$(mktemp -d)
hogs=()
cleanup() {
  for p in "${hogs[@]}" "${killer:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
echo "$$"

mysql_root() { "$client" --defaults-file="$defaults" -uroot -N -B "$@"; }
# The hog's sessions wait for a user lock the killer holds (GET_LOCK): when the killer's session ends, each gets
# it in turn, returns and disconnects, so the connections are free again when this script returns.
lock="ivs_connection_hog_$$"
RETRIERS=3
# Connections free now: max_connections, the one more for an administrator, and this query's own.
free=$(mysql_root -e "SELECT @@max_connections + 2 - VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS
                      WHERE VARIABLE_NAME = 'THREADS_CONNECTED'")
[[ "$free" =~ ^[0-9]+$ ]] || ivs_die "could not read the server's free connections: $free"

# The killer: one compound statement (MariaDB runs BEGIN NOT ATOMIC outside stored programs; the client needs
# another delimiter to send it whole). It takes the lock, waits until the hog holds every connection (at most
# SECONDS), then kills for SECONDS. A session already gone when its KILL comes is skipped (the handler).
mysql_root >"$work/killed" 2>"$work/killer.err" <<SQL &
DELIMITER //
BEGIN NOT ATOMIC
  DECLARE killed INT DEFAULT 0;
  DECLARE t_end DATETIME(6) DEFAULT NOW(6) + INTERVAL $seconds SECOND;
  DO GET_LOCK('$lock', 0);
  WHILE NOW(6) < t_end AND (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS
                            WHERE VARIABLE_NAME = 'THREADS_CONNECTED') <= @@max_connections DO
    DO SLEEP(0.02);
  END WHILE;
  SET t_end = NOW(6) + INTERVAL $seconds SECOND;
  WHILE NOW(6) < t_end DO
    FOR r IN (SELECT ID FROM information_schema.PROCESSLIST
              WHERE USER = '$user' AND INFO LIKE '%$table%' AND ID <> CONNECTION_ID()) DO
      BEGIN
        DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
        EXECUTE IMMEDIATE CONCAT('KILL CONNECTION ', r.ID);
        SET killed = killed + 1;
      END;
    END FOR;
    DO SLEEP(0.005);
  END WHILE;
  SELECT killed, COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%GET_LOCK(''$lock''%';
END//
SQL
killer=$!
for _ in $(seq 50); do
  [ "$(mysql_root -e "SELECT IS_USED_LOCK('$lock') IS NOT NULL")" = 1 ] && break
  kill -0 "$killer" 2>/dev/null || break
  sleep 0.05
done

# The hog: the free connections at once, then RETRIERS loops that each try one more connection every 20 ms
# while the killer runs: a session the server refuses exits at once, one that gets in holds its connection
# until the end. A killed terminal reconnects at once (ReconnectingSession), so the slot it frees is a race;
# the terminal that loses it waits 100-500 ms before its next try, the hog 20 ms.
hold="SELECT GET_LOCK('$lock', $((3 * seconds + 10)))"
for _ in $(seq 2 "$free"); do
  mysql_root -e "$hold" >/dev/null 2>&1 &
  hogs+=("$!")
done
for _ in $(seq "$RETRIERS"); do
  ( while kill -0 "$killer" 2>/dev/null; do mysql_root -e "$hold" >/dev/null 2>&1 || sleep 0.02; done ) &
  hogs+=("$!")
done
wait "$killer" || { echo "the killer session failed: $(tail -n 1 "$work/killer.err")" >&2; exit 1; }
for p in "${hogs[@]}"; do wait "$p" 2>/dev/null || true; done
read -r killed held <"$work/killed"
echo "connections held: $held, sessions killed: $killed"
