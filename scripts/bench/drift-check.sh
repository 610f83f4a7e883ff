#!/usr/bin/env bash
# The drift check: does a change in the box's speed land in the mode ratios? One docs/repro setting, shortened
# (EPOCHS epochs, MODES), with its run phases in SLICES slices (experiment/slices: the modes alternate, so a
# speed change lands on every mode alike), run twice by scripts/repro.sh: once on the idle box, then beside a
# steady background load (scripts/bg-load.sh: BURNERS burners at DUTY %, by default four at half duty - two
# busy cores' worth on this 2-core box). It prints, per condition, every mode's ratio to main's last-listed
# comparison mode (main/clean by default) as the geometric mean of the per-epoch ratios with its HAC 95 %
# interval (the verdicts' method, explain/verdicts.paired), from epochs.csv and from adjacent slices
# (slices.csv: the ratio of the two modes' slices of each round, averaged per epoch), and the loaded/idle
# quotient of the two conditions' ratios with its interval: the ratios agree when that interval holds 1.
# --slices 1 runs the same setting without slices (the design the check is against). The table is written to
# WORK_DIR/drift.md, with each run's command, duration and load (run.json, box.log).
#
# Usage: scripts/bench/drift-check.sh [--setting S] [--epochs N] [--slices K] [--modes M1,M2]
#                                     [--burners B] [--duty PCT] [--period-ms MS] [--only idle|loaded] WORK_DIR
#   defaults: innodb-lightweight-zipfian, 30 epochs, 4 slices, main,clean, 4 burners at 50 % (100 ms period)
#   --only runs one condition (the other's folder, if WORK_DIR has it from an earlier call, is still compared)
#
# A measurement run: nothing else on the box (no test suite, no builds, no helper sessions); about 7-15 minutes per
# condition at the defaults on an idle box. Needs target/benchbase.jar and the servers scripts/repro.sh starts.
# The whole script is one block, read by bash before it runs: editing this file while it runs cannot change it.
{
set -euo pipefail
cd "$(dirname "$0")/../.."
SETTING=innodb-lightweight-zipfian EPOCHS=30 SLICES=4 MODES=main,clean BURNERS=4 DUTY=50 PERIOD=100 ONLY=""
bad() { echo "drift-check.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --setting) SETTING=${2:-}; shift 2 || bad "--setting: missing value" ;;
        --epochs) EPOCHS=${2:-}; [[ "$EPOCHS" =~ ^[1-9][0-9]*$ && "$EPOCHS" -ge 4 ]] || bad "--epochs '$EPOCHS': a whole number, at least 4"; shift 2 ;;
        --slices) SLICES=${2:-}; [[ "$SLICES" =~ ^[1-9][0-9]*$ && "$SLICES" -le 100 ]] || bad "--slices '$SLICES': 1 to 100"; shift 2 ;;
        --modes) MODES=${2:-}; [[ "$MODES" =~ ^(main|clean|average-baseline|spread-baseline)(,(main|clean|average-baseline|spread-baseline))+$ ]] \
                     || bad "--modes '$MODES': two or more of main, clean, average-baseline, spread-baseline, comma-separated"; shift 2 ;;
        --burners) BURNERS=${2:-}; [[ "$BURNERS" =~ ^[1-9][0-9]?$ ]] || bad "--burners '$BURNERS': 1 to 99"; shift 2 ;;
        --duty) DUTY=${2:-}; [[ "$DUTY" =~ ^[1-9][0-9]?$|^100$ ]] || bad "--duty '$DUTY': 1 to 100"; shift 2 ;;
        --period-ms) PERIOD=${2:-}; [[ "$PERIOD" =~ ^[1-9][0-9]*$ ]] || bad "--period-ms '$PERIOD': a whole number of ms"; shift 2 ;;
        --only) ONLY=${2:-}; [[ "$ONLY" == idle || "$ONLY" == loaded ]] || bad "--only '$ONLY': idle or loaded"; shift 2 ;;
        -*) bad "unknown option: $1" ;;
        *) break ;;
    esac
done
[[ $# -eq 1 ]] || bad "usage: scripts/bench/drift-check.sh [options] WORK_DIR (one work folder)"
CONFIG="docs/repro/$SETTING/config.xml"
[[ -f "$CONFIG" ]] || bad "--setting '$SETTING': no $CONFIG"
[[ -f target/benchbase.jar ]] || bad "target/benchbase.jar missing: build it first (mvn -B -q -DskipTests package)"
mkdir -p "$1"
WORK=$(cd "$1" && pwd)
VENV=${IVS_VENV:-.cache/venv}
[[ -x "$VENV/bin/python" ]] || { . scripts/lib/common.sh; ivs_setup_venv; VENV=.cache/venv; }

# The setting's config, shortened: epochs, modes and slices replaced in its <experiment>.
VARIANT="$WORK/drift-config.xml"
"$VENV/bin/python" - "$CONFIG" "$VARIANT" "$EPOCHS" "$MODES" "$SLICES" <<'PY'
import re, sys
src, dst, epochs, modes, slices = sys.argv[1:6]
text = open(src, encoding="utf-8").read()
text = re.sub(r"<epochs>\d+</epochs>", f"<epochs>{epochs}</epochs>", text, count=1)
text = re.sub(r"<modes>[^<]*</modes>", f"<modes>{modes}</modes>", text, count=1)
text = re.sub(r"\s*<slices>\d+</slices>", "", text)
text = text.replace("<experiment>", f"<experiment>\n        <slices>{slices}</slices>", 1)
open(dst, "w", encoding="utf-8").write(text)
PY

run_condition() {
    local cond=$1
    echo "drift-check: $cond: $SETTING, $EPOCHS epochs, modes $MODES, $SLICES slice(s)$([[ $cond == loaded ]] && echo ", beside $BURNERS burner(s) at $DUTY % ($PERIOD ms period)")" >&2
    local cmd=(scripts/repro.sh "$SETTING" --config "$VARIANT" --state "$WORK/state-$cond" --out "$WORK/$cond")
    if [[ $cond == loaded ]]; then
        scripts/bg-load.sh run --burners "$BURNERS" --duty "$DUTY" --period-ms "$PERIOD" -- "${cmd[@]}"
    else
        "${cmd[@]}"
    fi
    local shown="${cmd[*]}"
    echo "$cond: ${shown//$WORK/WORK_DIR}" > "$WORK/$cond/drift-command.txt"
    [[ $cond == loaded ]] && echo "beside: scripts/bg-load.sh run --burners $BURNERS --duty $DUTY --period-ms $PERIOD" >> "$WORK/$cond/drift-command.txt"
    rm -rf "$WORK/state-$cond"
}
[[ -z "$ONLY" || "$ONLY" == idle ]] && run_condition idle
[[ -z "$ONLY" || "$ONLY" == loaded ]] && run_condition loaded

PYTHONPATH="$PWD/results-analyzer/src" "$VENV/bin/python" scripts/bench/lib/drift_table.py "$WORK" "$MODES" \
    "scripts/bench/drift-check.sh --setting $SETTING --epochs $EPOCHS --slices $SLICES --modes $MODES --burners $BURNERS --duty $DUTY --period-ms $PERIOD"
exit
}
