#!/usr/bin/env bash
# What allreduce_perf makes of the plan file it is given (--plan), beyond its
# schedule (plan_file.sh): whether every rank read the same one, how its path
# and name are shown, and a path that names no file.
#   plan_inputs.sh BIN CASE
# Cases:
# - differ_shm, differ_p2p: two ranks that read different files under one
#   --plan path (an MPMD launch with a --wdir each, as on hosts without a
#   shared file system): exit 2 at the pre-flight, naming both digests,
#   nothing timed (no result file), no hang;
# - nonutf8_path: a byte that is not UTF-8 in the path: the metadata still
#   records the plan (path as \xHH, its digest) and stdout its "# plan:" line;
# - long_name: a plan of a 31-character name keeps the table's columns under
#   its header;
# - special_files: a directory, /dev/zero, /dev/urandom and a FIFO as --plan
#   and as collbench-model's --topo: exit 2 at once, naming what the path is.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun

# pair NAME ROUNDS FILE: a 2-rank plan; ROUNDS 1: both ranks reduce in one
# round; 2: rank 0 reduces, then rank 1 copies its result
pair() {
	local r0='{"op": "reduce", "chunk": 0, "dst": [0, "recv"], "a": [1, "send"], "b": [0, "send"], "final": true}'
	local r1='{"op": "reduce", "chunk": 0, "dst": [1, "recv"], "a": [0, "send"], "b": [1, "send"], "final": true}'
	local c1='{"op": "copy", "chunk": 0, "dst": [1, "recv"], "a": [0, "recv"]}'
	local rounds="[[$r0, $r1]]"
	[ "$2" = 1 ] || rounds="[[$r0], [$c1]]"
	echo "{\"collbench_plan\": 1, \"name\": \"$1\", \"ranks\": 2, \"chunks\": 1, \"rounds\": $rounds}" >"$3"
}

case $case in
differ_shm | differ_p2p)
	tr=${case#differ_}
	mkdir -p "$out/h1" "$out/h2"
	pair pairx 1 "$out/h1/plan.json"
	pair pairx 2 "$out/h2/plan.json"
	# each file alone is a good plan
	for h in h1 h2; do
		"$bin/allreduce_perf" --check-args --inplace 0 --plan "$out/$h/plan.json" ||
			fail "$h/plan.json refused alone"
	done
	# in place (both modes, the default) it is not: refused, saying that
	# out of place it runs
	rc=0
	"$bin/allreduce_perf" --check-args --plan "$out/h1/plan.json" >/dev/null 2>"$out/both.err" || rc=$?
	[ "$rc" = 2 ] && grep -q "in place: .*(--inplace 0 runs it out of place only)" "$out/both.err" ||
		{ cat "$out/both.err" >&2; fail "both modes: exit $rc, not 2 with the --inplace 0 hint"; }
	a=(--plan plan.json --algo pairx -b 64 -e 64K -f 32 -n 3 -w 1 -T 10 --transport "$tr"
		--csv "$out/s.csv")
	rc=0
	OMPI_MCA_odls_base_sigkill_timeout=0 timeout 60 bash -c 'cb_mpirun "$@"' _ \
		-np 1 --wdir "$out/h1" "$bin/allreduce_perf" "${a[@]}" : \
		-np 1 --wdir "$out/h2" "$bin/allreduce_perf" "${a[@]}" >"$out/stdout" 2>"$out/stderr" ||
		rc=$?
	[ "$rc" != 124 ] || fail "ranks with different plans hung"
	[ "$rc" = 2 ] || { cat "$out/stderr" >&2; fail "ranks with different plans exited $rc, not 2"; }
	grep -q "plan.json: rank 1's plan pairx (digest [0-9a-f]\{16\}) differs from rank 0's plan pairx (digest [0-9a-f]\{16\})" \
		"$out/stderr" || { cat "$out/stderr" >&2; fail "no message naming the plans' digests"; }
	[ ! -e "$out/s.csv" ] || fail "a refused run wrote $out/s.csv"
	# the same file on both: runs
	cp "$out/h1/plan.json" "$out/h2/plan.json"
	a=(--plan plan.json --algo pairx -b 64 -e 64 -n 2 -w 1 -T 10 --transport "$tr" -q)
	cb_mpirun -np 1 --wdir "$out/h1" "$bin/allreduce_perf" "${a[@]}" : \
		-np 1 --wdir "$out/h2" "$bin/allreduce_perf" "${a[@]}" >"$out/stdout" 2>"$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "ranks with the same plan failed"; }
	;;
nonutf8_path)
	d="$out/$(printf 'pl\xffan')"
	mkdir -p "$d"
	pair pair2 1 "$d/p.json"
	cb_mpirun -np 2 "$bin/allreduce_perf" --plan "$d/p.json" --algo pair2 -b 64 -e 64 -n 2 -w 1 \
		--csv "$out/nu.csv" >"$out/stdout" 2>"$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "the run failed"; }
	grep -q '"path": ".*/pl\\\\xffan/p.json"' "$out/nu.meta.json" ||
		{ cat "$out/nu.meta.json" >&2; fail "the metadata has no plan_file path with \\xff"; }
	grep -q '"digest": "[0-9a-f]\{16\}"' "$out/nu.meta.json" || fail "the metadata has no plan digest"
	grep -q '"rounds": 1' "$out/nu.meta.json" || fail "the metadata has no plan shape"
	grep -q '^# plan: pair2 from .*/pl\\xffan/p.json: 2 ranks' "$out/stdout" ||
		{ cat "$out/stdout" >&2; fail "no '# plan:' header line"; }
	;;
long_name)
	name=$(printf 'a%.0s' $(seq 31))
	pair "$name" 1 "$out/long.json"
	cb_mpirun -np 2 "$bin/allreduce_perf" --plan "$out/long.json" --algo "ring,mpi,$name" -b 64 -e 1K \
		-f 16 -n 2 -w 1 >"$out/stdout" 2>"$out/stderr" || { cat "$out/stderr" >&2; fail "the run failed"; }
	grep -q "^ *$name  " "$out/stdout" || { cat "$out/stdout" >&2; fail "no row of $name"; }
	# where each of the first two columns ends: the same in the header and in
	# every row (right-aligned numbers and names)
	awk '/^#  *algo / || (!/^#/ && NF >= 15) {
		match($0, /^#? *[^ ]+/); e1 = RLENGTH
		rest = substr($0, e1 + 1); match(rest, /^ *[^ ]+/); e2 = e1 + RLENGTH
		key = e1 "," e2
		if (seen == "") seen = key
		else if (key != seen) { print "columns end at " key ", the header at " seen ": " $0; bad = 1 }
	} END { exit bad }' "$out/stdout" || { cat "$out/stdout" >&2; fail "the table's columns shift"; }
	;;
special_files)
	mkdir "$out/dir"
	mkfifo "$out/fifo"
	for p in "$out/dir" /dev/zero /dev/urandom "$out/fifo"; do
		case $p in
		*dir) why="is a directory" ;;
		/dev/*) why="is not a regular file (a character device)" ;;
		*) why="is not a regular file (a FIFO)" ;;
		esac
		rc=0
		timeout 10 "$bin/allreduce_perf" --check-args --plan "$p" -b 8 -e 8 2>"$out/err" || rc=$?
		[ "$rc" = 2 ] || { cat "$out/err" >&2; fail "--plan $p exited $rc, not 2"; }
		grep -qF "$p: cannot read the plan: $why" "$out/err" ||
			{ cat "$out/err" >&2; fail "--plan $p: no '$why'"; }
		rc=0
		timeout 10 "$bin/collbench-model" predict --topo "$p" -n 4 >/dev/null 2>"$out/err" || rc=$?
		[ "$rc" = 2 ] || { cat "$out/err" >&2; fail "--topo $p exited $rc, not 2"; }
		grep -qF "and not a topology file: $why" "$out/err" ||
			{ cat "$out/err" >&2; fail "--topo $p: no '$why'"; }
	done
	;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
