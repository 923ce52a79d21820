#!/usr/bin/env bash
# allreduce_perf --plan FILE: the plan check's order and bounds.
#   plan_check.sh BIN
# Checked:
# - a 256-rank plan (167 bytes, 65536 chunks) launched on 2 ranks: exit 2
#   with the world-size message, said before the check of the plan (which
#   would simulate 256 ranks' buffers first) and within --setup-timeout;
# - a plan whose last step reads a stage slot nothing wrote, run for float
#   min and max (the ops whose filler values hid it): exit 2 before anything
#   is timed, naming the round, step, rank and slot; no result file;
# - the check of a large valid plan under --check-args with --setup-timeout
#   0.5: the set-up watchdog ends it (exit 3) and says so.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the world size first
cat >"$out/wide256.json" <<'JSON'
{"collbench_plan": 1, "name": "wide", "ranks": 256, "chunks": 65536, "rounds": [[{"op": "copy", "chunk": 0, "nchunks": 65536, "dst": [0, "recv"], "a": [0, "send"]}]]}
JSON
rc=0
SECONDS=0
cb_mpirun -np 2 "$bin/allreduce_perf" --plan "$out/wide256.json" -b 8 -e 8 --setup-timeout 10 \
	--csv "$out/ws.csv" >/dev/null 2>"$out/ws.err" || rc=$?
[ "$rc" = 2 ] || { cat "$out/ws.err" >&2; fail "a 256-rank plan on 2 ranks exited $rc, not 2"; }
grep -q "plan wide is for 256 ranks, this run has 2" "$out/ws.err" ||
	{ cat "$out/ws.err" >&2; fail "no world-size message"; }
if grep -q "refused" "$out/ws.err"; then
	cat "$out/ws.err" >&2
	fail "the plan was checked before the world size"
fi
[ "$SECONDS" -lt 10 ] || fail "the refusal took $SECONDS s (--setup-timeout 10)"
[ ! -e "$out/ws.csv" ] || fail "a refused run left $out/ws.csv"

# a read of a stage slot nothing wrote, for the ops whose filler hid it
cat >"$out/uninit.json" <<'JSON'
{"collbench_plan": 1, "name": "uninit", "ranks": 2, "chunks": 1, "rounds": [
 [{"op": "copy", "chunk": 0, "dst": [0, "stage", 0], "a": [1, "send"]},
  {"op": "copy", "chunk": 0, "dst": [1, "stage", 0], "a": [0, "send"]}],
 [{"op": "reduce", "chunk": 0, "dst": [0, "stage", 2], "a": [0, "stage", 0], "b": [0, "send"]},
  {"op": "reduce", "chunk": 0, "dst": [1, "stage", 2], "a": [1, "stage", 0], "b": [1, "send"]}],
 [{"op": "reduce", "chunk": 0, "dst": [0, "recv"], "a": [0, "stage", 1], "b": [0, "stage", 2], "final": true},
  {"op": "reduce", "chunk": 0, "dst": [1, "recv"], "a": [1, "stage", 1], "b": [1, "stage", 2], "final": true}]]}
JSON
rc=0
cb_mpirun -np 2 "$bin/allreduce_perf" --plan "$out/uninit.json" --algo uninit -b 64 -e 64K -f 32 \
	-n 3 -w 1 -o max,min -d float --csv "$out/un.csv" >/dev/null 2>"$out/un.err" || rc=$?
[ "$rc" = 2 ] || { cat "$out/un.err" >&2; fail "a plan reading an unwritten stage slot exited $rc, not 2"; }
grep -q "round 2, step 4: its a reads rank 0's stage \[1, 2) (stage slot 1), which nothing wrote before" \
	"$out/un.err" || { cat "$out/un.err" >&2; fail "the refusal does not name the unwritten read"; }
[ ! -e "$out/un.csv" ] || fail "a refused plan left $out/un.csv"

# the check under the set-up watchdog: a valid plan of 256 ranks, 65536 chunks
python3 - "$out/chain.json" <<'PY'
import json, sys
n, C = 256, 65536
rounds, cur = [], [0, "recv"]
rounds.append([{"op": "reduce", "chunk": 0, "nchunks": C, "dst": [0, "recv"], "a": [1, "send"], "b": [0, "send"]}])
for k in range(2, n):
    nxt = [0, "stage", 0] if cur[1] == "recv" else [0, "recv"]
    rounds.append([{"op": "reduce", "chunk": 0, "nchunks": C, "dst": nxt, "a": [k, "send"], "b": cur, "final": k == n - 1}])
    cur = nxt
if cur[1] == "stage":
    rounds.append([{"op": "copy", "chunk": 0, "nchunks": C, "dst": [0, "recv"], "a": cur}])
rounds.append([{"op": "copy", "chunk": 0, "nchunks": C, "dst": [r, "recv"], "a": [0, "recv"]} for r in range(1, n)])
json.dump({"collbench_plan": 1, "name": "chain", "ranks": n, "chunks": C, "rounds": rounds}, open(sys.argv[1], "w"))
PY
rc=0
"$bin/allreduce_perf" --check-args --plan "$out/chain.json" -o all --setup-timeout 0.5 \
	2>"$out/wd.err" || rc=$?
[ "$rc" = 3 ] || { cat "$out/wd.err" >&2; fail "the plan check under --setup-timeout 0.5 exited $rc, not 3"; }
grep -q "took more than 0.5 s (--setup-timeout) in chain, .*checking the plan file" "$out/wd.err" ||
	{ cat "$out/wd.err" >&2; fail "the watchdog does not name the plan check"; }
echo "plan check: ok"
