#!/usr/bin/env bash
# A full-length reproduction run of one committed setting (docs/repro/<setting>/config.xml), in one go:
#
#   scripts/repro.sh SETTING [--state DIR] [--out DIR] [--budget MINUTES] [--resume] [--config FILE] [extra benchbase.jar options, e.g. --shrink]
#
# What it does, so that nothing the run depends on can change under it while it runs (2-3 hours):
#   1. copies the project as committed (git archive HEAD) and target/benchbase.jar into <state>/project;
#   2. starts the primary server (the config's <type>: MARIADB -> scripts/mariadb.sh, POSTGRES -> scripts/postgres.sh)
#      from that copy with its state in <state>/primary, on the port the config's <url> names (fails if taken),
#      with the server settings the config's fresh/command gives the fresh instance (IVS_MARIADB_BUFFER_POOL=...:
#      primary and fresh instance alike, as the paper's one server); the fresh/command keeps the fresh instance
#      in "$IVS_REPRO_STATE/fresh" (and experiment/maintained's command main-maintained's copy in
#      "$IVS_REPRO_STATE/maintained", with IVS_COPY_OF="$IVS_REPRO_STATE/primary");
#   3. samples the box's condition every 30 s into <out>/box.log (load average; CPU used by the run's own processes
#      and by all others, the three busiest others, the kernel's threads and the hypervisor's steal:
#      scripts/lib/box_sampler.py); run.json's box.quiet is false when the others, or the hypervisor's steal, took
#      more than 10 % of a core at the median (scripts/lib/box_summary.py), and such a run is run again;
#   4. runs the experiment from the copy (--create --load --execute) into <state>/results;
#   5. stops both servers, writes the compact outputs with `python -m ivs_analyzer compact` into <out>, the mode
#      ratios per 20 epochs (blocks.md, scripts/bench/lib/ratio_blocks.py), and
#      run.json (command, commit, start, duration in seconds, exit code, the box's condition summarised).
#
# --budget MINUTES: a setting too long for one go (the heavyweight one) stops at the end of the first epoch that
# finishes after MINUTES (the experiment folder's stop-after-epoch file, which the jar reads after every epoch;
# a jar from before it gets SIGTERM once the epoch's last mode has its line; the experiment keeps every whole
# epoch), and run.json says so ("stopped_by_budget"); the run is then reported as the epochs it reached. An empty
# stop-after-epoch file put into the experiment folder by hand stops a sitting the same way without a budget;
# run.json then says "stopped_on_request".
# --config FILE: run FILE instead of the setting's config.xml (a variant of it, e.g. fewer epochs or experiment/slices,
# as scripts/bench/drift-check.sh makes); it is copied into the state, so --resume continues it.
# --resume: continue the setting in a later sitting, from the state the first sitting left (the copied project and
# jar of that sitting, both servers' data, the experiment folder): checked at the start (the state names this
# setting and holds an experiment folder; exit 2 otherwise), the primary started again on its own data, and the
# experiment continued with the jar's --resume after its last finished epoch. <out> is kept: box.log goes on, and
# run.json lists every sitting (start, seconds, exit code, epochs reached, load) beside the totals.
# Defaults: --state $IVS_REPRO_HOME/<setting>, IVS_REPRO_HOME defaulting to ~/.local/state/ivsbench/repro: outside
# the work tree, so that cleaning or re-cloning the tree between sittings loses nothing; --out results/repro/<setting>.
# To commit a run, copy <out> over docs/repro/<setting>/ (docs/repro/README.md). Run it on a quiet box, never beside
# the test suite.
# The whole script is one block, read by bash before it runs: editing this file while a run goes on (hours) cannot
# change what the running copy does next.
{
set -euo pipefail
IVS_LOG_TAG=repro
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

[ $# -ge 1 ] || { echo "usage: scripts/repro.sh SETTING [--state DIR] [--out DIR] [--budget MINUTES] [benchbase.jar options]" >&2; exit 2; }
SETTING=$1
shift
STATE="" OUT="" BUDGET="" RESUME=0 OVERRIDE=""
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --state) STATE=$(ivs_abs_path "${2:?--state needs a directory}"); shift 2 ;;
    --out) OUT=$(ivs_abs_path "${2:?--out needs a directory}"); shift 2 ;;
    --budget)
      BUDGET=${2:-}
      [[ "$BUDGET" =~ ^[1-9][0-9]*$ ]] || { echo "scripts/repro.sh: --budget '$BUDGET': a whole number of minutes, at least 1" >&2; exit 2; }
      shift 2 ;;
    --resume) RESUME=1; shift ;;
    --config)
      OVERRIDE=$(ivs_abs_path "${2:?--config needs a file}")
      [ -f "$OVERRIDE" ] || { echo "scripts/repro.sh: --config '$2': no such file" >&2; exit 2; }
      shift 2 ;;
    *) EXTRA+=("$1"); shift ;;
  esac
done
cd "$IVS_REPO_ROOT"
CONFIG="docs/repro/$SETTING/config.xml"
[ -f "$CONFIG" ] || { echo "scripts/repro.sh: setting '$SETTING': no $CONFIG (settings: $(ls docs/repro | grep -v '\.md$' | tr '\n' ' '))" >&2; exit 2; }
STATE=${STATE:-${IVS_REPRO_HOME:-$HOME/.local/state/ivsbench/repro}/$SETTING}
OUT=${OUT:-$IVS_REPO_ROOT/results/repro/$SETTING}
# The config the run uses: --config's (copied into the state at the start), a resumed sitting's copy, else the setting's.
SRC=$CONFIG
if [ -n "$OVERRIDE" ]; then
  SRC=$OVERRIDE
elif [ "$RESUME" -eq 1 ] && [ -f "$STATE/project/config.override.xml" ]; then
  SRC="$STATE/project/config.override.xml"
fi
[ -f target/benchbase.jar ] || ivs_die "target/benchbase.jar missing: build it first (mvn -B -q -DskipTests package)"

type=$(sed -n 's:.*<type>\(.*\)</type>.*:\1:p' "$SRC" | head -1)
port=$(sed -n 's:.*<url>jdbc\:[a-z]*\://127.0.0.1\:\([0-9]*\)/.*:\1:p' "$SRC" | head -1)
case "$type" in
  MARIADB) server=scripts/mariadb.sh port_var=IVS_MARIADB_BASE_PORT pw_var=IVS_MARIADB_PASSWORD ;;
  POSTGRES) server=scripts/postgres.sh port_var=IVS_POSTGRES_BASE_PORT pw_var=IVS_POSTGRES_PASSWORD ;;
  *) echo "scripts/repro.sh: $SRC: <type> '$type' has no server script here (MARIADB, POSTGRES)" >&2; exit 2 ;;
esac
[ -n "$port" ] || { echo "scripts/repro.sh: $SRC: <url> names no 127.0.0.1 port" >&2; exit 2; }
ivs_port_free "$port" || { echo "scripts/repro.sh: port $port (the config's <url>) is taken" >&2; exit 2; }
# The fresh instance's server settings, for the primary too (one server's settings, as in the paper).
pool=$(sed -n 's:.*<command>.*IVS_MARIADB_BUFFER_POOL=\([^ ]*\) .*:\1:p' "$SRC" | head -1)
[ -n "$pool" ] && export IVS_MARIADB_BUFFER_POOL="$pool"

if [ "$RESUME" -eq 1 ]; then
  [ "$(cat "$STATE/setting" 2>/dev/null)" = "$SETTING" ] && [ -f "$STATE/project/target/benchbase.jar" ] \
    && [ -d "$STATE/primary" ] \
    || { echo "scripts/repro.sh: --resume: $STATE holds no earlier sitting of '$SETTING' (run it once without --resume)" >&2; exit 2; }
  find "$STATE/results" -mindepth 2 -maxdepth 2 -name experiment.json 2>/dev/null | grep -q . \
    || { echo "scripts/repro.sh: --resume: no experiment folder under $STATE/results to continue" >&2; exit 2; }
  commit=$(cat "$STATE/commit")
  [ "$commit" = "$(git rev-parse HEAD)" ] \
    || ivs_log "resuming with the first sitting's copy (commit ${commit:0:7}), not this checkout's HEAD ($(git rev-parse --short HEAD))"
  mkdir -p "$OUT"
else
  rm -rf "$STATE" "$OUT"
  mkdir -p "$STATE/project/target" "$OUT"
  git archive HEAD | tar -x -C "$STATE/project"
  cp target/benchbase.jar "$STATE/project/target/"
  commit=$(git rev-parse HEAD)
  echo "$commit" > "$STATE/commit"
  echo "$SETTING" > "$STATE/setting"
  [ -n "$OVERRIDE" ] && cp "$OVERRIDE" "$STATE/project/config.override.xml"
fi
[ -f "$STATE/project/config.override.xml" ] && [ "$SRC" != "$CONFIG" ] && CONFIG=config.override.xml
export IVS_REPRO_STATE="$STATE"

stop_servers() {
  # the fresh instance, and main-maintained's copy (experiment/maintained's command keeps it in "$IVS_REPRO_STATE/maintained")
  (cd "$STATE/project" && IVS_STATE_DIR="$STATE/fresh" "$server" stop >/dev/null 2>&1 || true)
  [ -d "$STATE/maintained" ] && (cd "$STATE/project" && IVS_STATE_DIR="$STATE/maintained" "$server" stop >/dev/null 2>&1 || true)
  (cd "$STATE/project" && IVS_STATE_DIR="$STATE/primary" "$server" stop >/dev/null 2>&1 || true)
}
trap 'stop_servers; [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null; [ -n "${budget_watch:-}" ] && kill "$budget_watch" 2>/dev/null || true' EXIT

ivs_log "starting the primary ($server) on port $port, state in $STATE/primary${pool:+, innodb_buffer_pool_size $pool}"
env_lines=$(cd "$STATE/project" && IVS_STATE_DIR="$STATE/primary" env "$port_var=$port" "$server" start)
eval "$env_lines"
case "$env_lines" in *"127.0.0.1:$port/"*) ;; *) ivs_die "the primary did not start on port $port" ;; esac
export "$pw_var=${!pw_var:-ivs}"

# Every 30 s: the load average and the CPU the run's own processes (this script's descendants and both servers) and
# all others used over the interval (scripts/lib/box_sampler.py); run.json gives the others' median.
python3 "$IVS_REPO_ROOT/scripts/lib/box_sampler.py" 30 $$ "$STATE/primary" "$STATE/fresh" "$STATE/maintained" >> "$OUT/box.log" 2>&1 &
sampler=$!

if [ "$RESUME" -eq 1 ]; then
  cmd=(java -jar target/benchbase.jar -b ycsbivs -c "$CONFIG" -d "$STATE/results/" --execute=true --resume=true "${EXTRA[@]}")
else
  cmd=(java -jar target/benchbase.jar -b ycsbivs -c "$CONFIG" -d "$STATE/results/"
    --create=true --load=true --execute=true "${EXTRA[@]}")
fi
ivs_log "running: ${cmd[*]} (from $STATE/project; log: $STATE/run.log)"
start=$(date +%s)
started=$(date -u +%FT%TZ)
if [ -n "$BUDGET" ]; then
  # The epoch's last mode, as the config lists them: its line ends the epoch.
  last_mode=$(sed -n 's:.*<modes>\(.*\)</modes>.*:\1:p' "$SRC" | head -1 | tr -d ' ' | awk -F, '{print $NF}')
  last_mode=${last_mode:-main}
  ( epochs_ended() { grep -c -E "^epoch [0-9]+/[0-9]+ mode $last_mode:" "$STATE/run.log" 2>/dev/null || true; }
    sleep $(( BUDGET * 60 ))
    if unzip -p "$STATE/project/target/benchbase.jar" org/ivsbench/experiment/EpochLoop.class 2>/dev/null \
        | grep -q -a stop-after-epoch; then
      # The jar stops at the end of the epoch under way when its experiment folder holds stop-after-epoch, before
      # the next epoch's extends touch the primary (it prints "Stopped after epoch N").
      exp_dir=$(find "$STATE/results" -mindepth 1 -maxdepth 1 -type d -name '*experiment*' | sort | tail -1)
      [ -n "$exp_dir" ] && : > "$exp_dir/stop-after-epoch"
    else
      # A jar from before that file (a resumed sitting runs its first sitting's jar): SIGTERM after the epoch's
      # last line, which can come a second or two into the next epoch's extends (the resume records that drift).
      done_before=$(epochs_ended)
      while [ "$(epochs_ended)" -le "${done_before:-0}" ]; do
        sleep 2
      done
      date -u +%FT%TZ > "$STATE/stopped-by-budget"
      pkill -TERM -f -- "-d $STATE/results/" || true
    fi ) &
  budget_watch=$!
  ivs_log "budget: $BUDGET min, then the run stops at the end of the epoch under way (after its $last_mode phase)"
fi
set +e
rm -f "$STATE/stopped-by-budget"
[ -f "$STATE/run.log" ] && mv "$STATE/run.log" "$STATE/run.$(date -u +%Y%m%dT%H%M%SZ).log"
(cd "$STATE/project" && "${cmd[@]}") 2>&1 | tee "$STATE/run.log" | grep --line-buffered -E '^epoch [0-9]+/[0-9]+ mode main:' >&2
rc=${PIPESTATUS[0]}
set -e
seconds=$(( $(date +%s) - start ))
kill "$sampler" 2>/dev/null || true
sampler=""
# (an if, not an && list: under set -e a failing kill - the watcher has ended after stopping the run - would end
# the script before the compact step)
if [ -n "${budget_watch:-}" ]; then
  kill "$budget_watch" 2>/dev/null || true
fi
budget_watch=""
stopped_by_budget=false
[ -f "$STATE/stopped-by-budget" ] && stopped_by_budget=true
grep -q "^Stopped after epoch" "$STATE/run.log" 2>/dev/null && stopped_by_budget=true
# a stop asked during the last epoch is not acted on: leave no request behind for a later --resume
find "$STATE/results" -mindepth 2 -maxdepth 2 -name stop-after-epoch -delete 2>/dev/null || true
stop_servers

exp=""
[ -d "$STATE/results" ] &&
  exp=$(find "$STATE/results" -mindepth 1 -maxdepth 1 -type d \( -name '*experiment*' -o -name '*trials*' \) | sort | tail -1)
if [ -z "$exp" ]; then
  ivs_log "ERROR: the run wrote no experiment folder (exit $rc): $(grep -m1 -i 'error' "$STATE/run.log" || tail -1 "$STATE/run.log")"
  exit $(( rc == 0 ? 1 : rc ))
fi
ivs_setup_venv
"$IVS_CACHE_DIR/venv/bin/python" -m ivs_analyzer compact "$exp" "$OUT"
cp "$SRC" "$OUT/config.xml"
# The mode ratios per 20 epochs beside where each mode's reads were answered (blocks.md; docs/repro quotes it).
"$IVS_CACHE_DIR/venv/bin/python" "$IVS_REPO_ROOT/scripts/bench/lib/ratio_blocks.py" "$OUT" > /dev/null ||
  ivs_log "warning: blocks.md not written (scripts/bench/lib/ratio_blocks.py failed); the run's outputs are kept"
# The committed files name no machine path: the state folder becomes $IVS_REPRO_STATE, the project root ".".
for f in "$OUT"/*.json; do
  sed -i -e "s#$STATE#\$IVS_REPRO_STATE#g" -e "s#$IVS_REPO_ROOT/##g" -e "s#$IVS_REPO_ROOT#.#g" "$f"
done
BOX_LIB_COPY="$STATE/project/scripts/lib" BOX_LIB_TREE="$IVS_REPO_ROOT/scripts/lib" \
  "$IVS_CACHE_DIR/venv/bin/python" - "$OUT" "$commit" "$started" "$seconds" "$rc" "$SETTING" "$(echo "${OVERRIDE:+--config $(basename "$OVERRIDE")} ${EXTRA[*]:-}" | xargs)" "$BUDGET" "$stopped_by_budget" "$RESUME" <<'EOF'
import csv, json, os, sys
out, commit, started, seconds, rc, setting, extra, budget, stopped, resume = sys.argv[1:11]
# The quiet rule (scripts/lib/box_summary.py): from the project copy this sitting runs (as committed when it began),
# else from the work tree (a first sitting copied before the module existed).
sys.path[:0] = [os.environ["BOX_LIB_COPY"], os.environ["BOX_LIB_TREE"]]
from box_summary import summarize
def load_stats(lines):
    return summarize(lines, os.cpu_count())
log = [l for l in open(f"{out}/box.log")]
with open(f"{out}/epochs.csv") as f:
    reached = max((int(r["epoch"]) for r in csv.DictReader(f)), default=0)
earlier = json.load(open(f"{out}/run.json")).get("sittings", []) if resume == "1" and os.path.exists(f"{out}/run.json") else []
# This sitting's box.log lines: those written since it started (box.log is appended to by every sitting).
sitting_log = [l for l in log if l.split()[:1] and l.split()[0] >= started]
cmd = (f"scripts/repro.sh {setting}" + (" --resume" if resume == "1" else "") + (f" --budget {budget}" if budget else "")
       + (f" {extra}" if extra else ""))
sitting = {"command": cmd, "started": started, "seconds": int(seconds), "exit_code": int(rc),
           "epochs_reached": reached, "box": load_stats(sitting_log)}
if budget:
    sitting.update(budget_minutes=int(budget), stopped_by_budget=stopped == "true")
elif stopped == "true":
    # No budget, yet the jar said "Stopped after epoch N": someone put stop-after-epoch in the experiment folder
    # by hand (to end a sitting early); --resume continues it like a budget's stop.
    sitting.update(stopped_on_request=True)
sittings = earlier + [sitting]
run = {"setting": setting, "command": sittings[0]["command"], "commit": commit, "started": sittings[0]["started"],
       "seconds": sum(s["seconds"] for s in sittings), "exit_code": int(rc), "epochs_reached": reached,
       "box": load_stats(log), "sittings": sittings}
if budget:
    run.update(budget_minutes=int(budget), stopped_by_budget=stopped == "true")
elif stopped == "true":
    run.update(stopped_on_request=True)
json.dump(run, open(f"{out}/run.json", "w"), indent=2)
print(f"[repro] {setting}: exit {rc} after {seconds} s (sitting {len(sittings)}), epochs reached {reached}; "
      f"load average (1 min) median {sitting['box']['load1_median']}, max {sitting['box']['load1_max']} "
      f"on {os.cpu_count()} cores; compact outputs in {out}")
if sitting["box"]["quiet"] is False:
    print(f"[repro] NOT QUIET: {'; '.join(sitting['box']['not_quiet'])} (box.log): run it again alone",
          file=sys.stderr)
EOF
exit "$rc"
}
