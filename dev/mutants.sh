#!/usr/bin/env bash
# mutants.sh: plants known bugs, one at a time, in a scratch copy of the
# tree, builds it and runs the default test tier (scripts/test.sh's default
# run: the unit and in-process tests, the smoke matrix and the errors, then
# the rest, stopping at the first failure), and says which were caught.
# Each bug is one of a class this code has had or could have (the table
# below); every one must be caught by the default tier: that is what lets
# the default tier be small.
#   dev/mutants.sh [--list] [--only NAME[,NAME...]] [--no-baseline]
# --list: the mutants, one a line; --only: those alone; --no-baseline: skip
# the unmutated run (its default tier must pass, or every mutant would look
# caught; scripts/test.sh --full has just run it). The table (markdown, as
# docs/testing.md holds it) on stdout, progress on stderr. Exit status: 0
# every mutant caught; 1 one was not, or a plant no longer matches the code
# (its text must occur exactly once in its file) or does not build; 2 usage.
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2034 # lib.sh's messages name it
PROG=mutants.sh
. "$root/scripts/lib.sh"
. "$root/dev/lib_test.sh"

# The mutants: "@@ name | bug class | file", then the lines to replace
# ("-") and their replacement ("+"), tabs as in the code.
MUTANTS=$(
	cat <<'EOF'
@@ chunk_bound | an off-by-one in a chunk bound | collectives/plans/cb_pattern.c
-	*ccount = base + (uc < extra ? 1 : 0);
+	*ccount = base + (uc + 1 < extra ? 1 : 0);
@@ slice_bound | an off-by-one in a slice bound | collectives/plans/cb_pattern.c
-	*scount = ccount - start < slice_count ? ccount - start : slice_count;
+	*scount = ccount - start < slice_count ? ccount - start - 1 : slice_count;
@@ step_dropped | a step dropped from one plan (the ring's last) | collectives/plans/cb_plan_ring.c
-	for (int s = 0; s < cb_ring_nsteps(n) && st == CB_OK; s++)
+	for (int s = 0; s < cb_ring_nsteps(n) - 1 && st == CB_OK; s++)
@@ wrong_peer | a wrong peer in a round (the ring pulls from two to its left) | collectives/plans/cb_pattern.c
-	out->src = cb_ring_left(rank, n);
+	out->src = cb_ring_left(cb_ring_left(rank, n), n);
@@ reduce_short | a reduce that skips the last element for one dtype (uint32) | collectives/core/cb_dtype.c
-	case CB_UINT32: cb_reduce_u32(dst, a, b, count, op); break;
+	case CB_UINT32: cb_reduce_u32(dst, a, b, count ? count - 1 : 0, op); break;
@@ avg_wrong_n | avg divided by the wrong n (the host backend's) | collectives/runtime/host/cb_backend_host.c
-	cb_finalize_host(buf.ptr, count, dt, op, be->world_size);
+	cb_finalize_host(buf.ptr, count, dt, op, be->world_size + 1);
@@ root_relative | a root-relative rank error (the broadcast ignores its root) | collectives/plans/cb_plan_broadcast.c
-	return (v + root) % n;
+	return v + 0 * root % n;
@@ traffic_twice | a traffic counter that counts a step twice (one-sided moves) | collectives/runtime/cb_backend.c
-	be->tx[be->world_of_node[src_rank]] += bytes;
+	be->tx[be->world_of_node[src_rank]] += 2 * bytes;
@@ p2p_traffic_twice | a traffic counter that counts a step twice (two-sided sends) | collectives/runtime/exec/cb_p2p.c
-		p->be->tx[p->be->world_rank] += bytes;
+		p->be->tx[p->be->world_rank] += 2 * bytes;
@@ no_handshake | the entry handshake removed (one-sided executor) | collectives/runtime/exec/cb_algo_plan.c
-	for (int i = 0; i < st->nneigh && e == CB_OK; i++)
+	for (int i = 0; i < 0 && e == CB_OK; i++)
@@ lost_wakeup | a lost wake-up (a post that never wakes a sleeping waiter) | collectives/runtime/shm/cb_wait.c
-	if (atomic_load_explicit(&f->waiters, memory_order_seq_cst))
+	if (0 && atomic_load_explicit(&f->waiters, memory_order_seq_cst))
@@ watchdog_silent | a watchdog that never fires | bench/harness/cb_watchdog.c
-		if (wd.stop || now_s() - since < limit())
+		if (wd.stop || now_s() - since < limit() * 1e9)
@@ row_of_failure | a results row written when a rank failed | bench/harness/cb_harness.c
-			st = cb_row_measure(&h->m, &h->slot[i], bytes, dt, op, &h->row);
-			if (st == CB_OK)
-				st = report(h);
+			st = cb_row_measure(&h->m, &h->slot[i], bytes, dt, op, &h->row);
+			if (report(h) != CB_OK)
+				st = CB_ERR_IO;
@@ column_swapped | a schema column swapped (time_us_min and time_us_max) | bench/format/cb_schema.c
-	{ .name = "time_us_min", .type = CB_COL_REAL, .offset = S(time_us_min),
+	{ .name = "time_us_min", .type = CB_COL_REAL, .offset = S(time_us_max),
@@ plan_key_ignored | a plan-file key ignored ("final") | collectives/plans/cb_plan_file.c
-	s->final = fin && json_is_true(fin);
+	s->final = 0 && fin && json_is_true(fin);
@@ inplace_offset | in-place offsets reversed (rank r's block at n-1-r) | collectives/plans/cb_coll.c
-	return d->send_is_block || d->recv_is_block ? (size_t)r * (count / (size_t)n) : 0;
+	return d->send_is_block || d->recv_is_block ? (size_t)(n - 1 - r) * (count / (size_t)n) : 0;
EOF
)

# The table's reader: "list" prints NAME<tab>CLASS<tab>FILE a mutant; "plant
# NAME DIR" replaces its "-" lines by its "+" lines in its file under DIR and
# fails unless they occur there exactly once.
MUTANTS_PY=$(
	cat <<'EOF'
import sys
blocks, cur = {}, None
for line in sys.stdin.read().split("\n"):
    if line.startswith("@@ "):
        name, what, path = [p.strip() for p in line[3:].split(" | ")]
        cur = blocks[name] = {"what": what, "file": path, "old": [], "new": []}
    elif cur is not None and line[:1] in ("-", "+"):
        cur["old" if line[0] == "-" else "new"].append(line[1:])
if sys.argv[1] == "list":
    for name, m in blocks.items():
        print("%s\t%s\t%s" % (name, m["what"], m["file"]))
    sys.exit(0)
name, top = sys.argv[2], sys.argv[3]
m = blocks[name]
path = top + "/" + m["file"]
text = open(path).read()
old, new = "\n".join(m["old"]) + "\n", "\n".join(m["new"]) + "\n"
if text.count(old) != 1:
    sys.exit("mutants.sh: %s: its lines occur %d times in %s, not once" % (name, text.count(old), m["file"]))
open(path, "w").write(text.replace(old, new))
EOF
)
table() { python3 -c "$MUTANTS_PY" "$@" <<<"$MUTANTS"; }

cb_opts_new none "usage: dev/mutants.sh [--list] [--only NAME[,NAME...]] [--no-baseline]"
cb_opts_text head <<EOF
Plants known bugs one at a time in a scratch copy of the tree (tracked and
untracked files, not the ignored ones), built once (Release, no CUDA model):
first the unmutated default tier must pass, then each bug is planted,
built and the default tier run (unit; the smoke matrix and the errors; the
rest), stopping at the first failure. The table (markdown) on stdout,
progress on stderr; the scratch copy is removed at the end. Exit: 0 every
bug caught; 1 one was not, or a plant no longer matches the code or does
not build; 2 usage.
EOF
#      long        letter value kind   variable    default
cb_opt list        - -     flag   list        0  "the mutants, one a line, and exit"
cb_opt only        - NAMES text   only        "" "those mutants alone (comma-separated)"
cb_opt no-baseline - -     flag   no_baseline 0  "skip the unmutated run of the default tier"
cb_opts_parse "$@"

mapfile -t rows < <(table list)
if [ "$list" = 1 ]; then
	printf '%s\n' "${rows[@]}"
	exit 0
fi
for n in ${only//,/ }; do
	printf '%s\n' "${rows[@]}" | grep "^$n	" >/dev/null || cb_die 2 "no mutant named '$n' (--list)"
done

jobs=$(nproc)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "mutants.sh: a copy of the tree in $scratch; building it (Release, no CUDA model)" >&2
(cd "$root" && git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$scratch")
cmake -S "$scratch" -B "$scratch/build" -DCMAKE_BUILD_TYPE=Release -DCB_CUDA_MODEL=OFF >/dev/null
cmake --build "$scratch/build" -j "$jobs" >/dev/null

skip=$(labels_re "${FULL_LABELS[@]}")
# A cmocka test stops at its first failed case (CMOCKA_TEST_ABORT: abort(),
# ctest's "Exception"; no core file): one is enough to catch a mutant. A
# lost wake-up took 110-115 s to fail unit_wait, its hung cases waited out
# one by one, and 34 s once unit_threads stopped at its first (2026-12-06)
export CMOCKA_TEST_ABORT=1
# default_tier LOG: the default tier in three stages (the unit and
# in-process tests; the smoke matrix and the errors; the rest), stopping at
# the first failure; 0 when all passed
default_tier() {
	(ulimit -c 0 && cd "$scratch/build" && ctest -j "$jobs" -L '^unit$' --stop-on-failure >"$1" 2>&1 &&
		ctest -j "$jobs" -L '^(mpi|errors)$' -LE "$skip" --stop-on-failure >>"$1" 2>&1 &&
		ctest -j "$jobs" -LE "$skip|^(unit|mpi|errors)\$" --stop-on-failure >>"$1" 2>&1)
}
if [ "$no_baseline" = 0 ]; then
	echo "mutants.sh: the unmutated tree" >&2
	default_tier "$scratch/baseline.log" || {
		grep -E '\*\*\*|Failed' "$scratch/baseline.log" >&2 || true
		cb_die 1 "the unmutated tree fails its default tier: no mutant could be told apart"
	}
fi

echo "| mutant | bug class | file | caught by | s |"
echo "|---|---|---|---|---|"
missed=0
for row in "${rows[@]}"; do
	IFS=$'\t' read -r name what file <<<"$row"
	[ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
	t0=$SECONDS
	cp "$scratch/$file" "$scratch/orig"
	table plant "$name" "$scratch" || cb_die 1 "$name: the plant no longer matches the code"
	if ! cmake --build "$scratch/build" -j "$jobs" >"$scratch/build.log" 2>&1; then
		tail -n 20 "$scratch/build.log" >&2
		cb_die 1 "$name: the mutant does not build (above)"
	fi
	by="**not caught**"
	if default_tier "$scratch/$name.log"; then
		missed=$((missed + 1))
	else
		by=$(sed -n 's/.*Test *#[0-9]*: \([A-Za-z0-9_]*\) .*\*\*\*\(Failed\|Exception\|Timeout\).*/\1/p' "$scratch/$name.log" |
			head -n 1)
		by=${by:-a failure (see its log)}
	fi
	echo "| $name | $what | \`$file\` | $by | $((SECONDS - t0)) |"
	echo "mutants.sh: $name: $by" >&2
	cp "$scratch/orig" "$scratch/$file"
done
[ "$missed" = 0 ] || cb_die 1 "$missed mutant(s) not caught by the default tier"
echo "mutants.sh: every mutant caught" >&2
