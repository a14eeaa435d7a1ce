#!/usr/bin/env bash
# Free-Flood-It boards side by side, one board per core (each board's race, two processes, shares its core):
# benchmarks/floodit99.py once per board, all at once, then their records merged into one JSON.
#
#     bash benchmarks/floodit99_parallel.sh BOARDS_DIR SECONDS OUT.json BOARD...
#
# Give at most as many boards as the machine has cores. Each board's process is stopped 30 s after its limit.
set -euo pipefail
command="bash benchmarks/floodit99_parallel.sh $*"
boards=$1 seconds=$2 out=$3
shift 3
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for b in "$@"; do
    timeout $((${seconds%.*} + 30)) "$python" benchmarks/floodit99.py "$boards" --rules free --time-limit "$seconds" \
        --workers 1 --only "^$b\$" --out "$work/$b" >"$work/$b.log" 2>&1 &
done
wait || true
"$python" - "$work" "$out" "$command" "$@" <<'P'
import json, os, sys
from pathlib import Path
work, out, command, names = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
records = []
for b in names:  # (a board stopped by its timeout left only its log)
    done = [f for f in (work / f"{b}.json", work / f"{b}.partial.json") if f.exists()]
    records += json.loads(done[0].read_text())["records"] if done else []
machine = f"{os.cpu_count()} cores, {len(names)} boards at once; load average after {os.getloadavg()}"
out.write_text(json.dumps({"command": command, "machine": machine, "records": records}, indent=1))
print(f"{len(records)} of {len(names)} boards: {out}")
P
