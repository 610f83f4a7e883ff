-- Run once by the mariadb images' entrypoint when a data volume is initialised.
-- The image creates 'ivs'@'%' with rights on `ivsbench` only; experiments also create scratch databases
-- (clean-run and baseline modes) and read SHOW ENGINE ... STATUS (PROCESS), so give it everything,
-- as scripts/mariadb.sh does for the private test server. Benchmark servers only: never on a shared host.
GRANT ALL PRIVILEGES ON *.* TO 'ivs'@'%';
