#!/usr/bin/env bash
# run-demo.sh - `make run` until the runner boots boards: the model demo on
# three of the seeds' physical-layer cases, printed as one report.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
demo=${DEMO:-$top/build/host/bin/gemlab-model-demo}
if [ ! -x "$demo" ]; then
    echo "run-demo.sh: $demo is missing; build it with: make models" >&2
    exit 1
fi
section() { printf '\n=== %s ===\n' "$*"; }
section "clean 1G: switch port offering 10/100/1000, good cable"
"$demo" --aneg-ms 1500 --frames 5
section "2-pair cable: 1000BASE-T cannot train, Marvell downshift to 100 after 3 attempts"
"$demo" --partner 1000FD,100FD --cable 2pair --downshift 3 --frames 3
section "duplex mismatch: we force 100 full, the partner autonegotiates (parallel detection -> half)"
"$demo" --force 100FD --aneg-ms 50 --frames 200 --bidir | tail -n 7
section "1% random loss and 0.5% corruption at 1G, seed 7"
"$demo" --loss 'random 1%' --corrupt 0.5 --seed 7 --frames 2000 | tail -n 2
