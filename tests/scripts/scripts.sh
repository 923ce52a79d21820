#!/usr/bin/env bash
# sweep.sh, plot.sh and bench.sh's output folders and files: every run gets a
# folder of its own (never shared, never silently overwritten), the files in
# it are valid (JSON is UTF-8 whatever the bytes of the paths), and plot.sh
# says what is really missing. Small sweeps (1-2 ranks, a few sizes).
#   scripts.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CB_BIN=$bin LC_ALL=C CB_RESULTS=$t/results CB_PLOTS=$t/plots
cb_launch_env
tiny=(--minbytes 8 --maxbytes 8 --iters 2 --warmup_iters 0 --algo ring)

# sweep ARGS...: runs sweep.sh, stdout and stderr in $t/out, $t/err; sets rc.
sweep() {
	"$src/scripts/sweep.sh" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}
show() { cat "$t/out" "$t/err" >&2; }
# one_run DIR ROWS: DIR holds one complete run with ROWS summary rows.
one_run() {
	[ "$(($(wc -l <"$1/summary.csv") - 1))" = "$2" ] ||
		{ cat "$1/summary.csv" >&2; fail "$1/summary.csv does not hold $2 rows"; }
	cb_complete_lines "$1/summary.csv"
	grep -q '"status": "complete"' "$1/meta.json" || fail "$1/meta.json does not say complete"
	"$bin/check_results" --json "$1/meta.json" || fail "$1/meta.json is not valid JSON"
}

case $case in
sweep_coll)
	# --coll LIST: a launch of each collective per rank count into one run
	# folder (np<N>.* for allreduce, np<N>-<coll>.* for the others), every
	# row saying its collective; an unknown collective and an algorithm a
	# collective lacks are refused before any folder is made (--history
	# takes any collective: tests/tools/history.sh, case sweep)
	sweep --ranks 1,2 --minbytes 1K --maxbytes 1K --iters 2 --warmup_iters 0 -a ring,mpi \
		--coll allreduce,all_gather,reduce_scatter --out "$t/run"
	[ $rc = 0 ] || { show; fail "sweep --coll: exit $rc"; }
	one_run "$t/run" 12
	for f in np1 np2 np1-all_gather np2-all_gather np1-reduce_scatter np2-reduce_scatter; do
		[ -s "$t/run/$f.csv" ] || fail "no $f.csv"
	done
	for c in allreduce all_gather reduce_scatter; do
		[ "$(awk -F, -v c="$c" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
			$k["collective"] == c { n++ } END { print n + 0 }' "$t/run/summary.csv")" = 4 ] ||
			{ cat "$t/run/summary.csv" >&2; fail "summary.csv does not hold 4 $c rows"; }
	done
	grep -q '"sweep": ".*--coll allreduce,all_gather,reduce_scatter"' "$t/run/meta.json" ||
		fail "meta.json's sweep does not record --coll"
	for bad in "--coll allgather" "--coll broadcast -a ring"; do
		# shellcheck disable=SC2086 # the words of $bad
		sweep --ranks 2 --minbytes 8 --maxbytes 8 $bad --out "$t/bad"
		[ $rc = 2 ] || { show; fail "sweep $bad: exit $rc, want 2"; }
		grep -q "collective\|of broadcast" "$t/err" || { show; fail "sweep $bad: no clear message"; }
		[ ! -e "$t/bad" ] || fail "sweep $bad made a folder"
	done
	;;
plot_zero)
	# zero_step_np<N>: a run with allreduce, reduce_scatter and all_gather draws
	# it; its per-rank bars are each rank's measured bytes of the right
	# collective: the ring's halves move what its allreduce moves on every
	# rank, ps-style's root (n-1)(S + S/n) in each half against (n-1)S each
	# way in the allreduce (4 ranks, S = 4 KiB); a run of allreduce alone
	# draws none, and says nothing of it
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	sweep --ranks 4 --minbytes 1K --maxbytes 4K --stepfactor 4 --iters 2 --warmup_iters 0 \
		-a ps,ring,mpi --coll allreduce,reduce_scatter,all_gather --out "$t/run"
	[ $rc = 0 ] || { show; fail "sweep --coll: exit $rc"; }
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh: exit $?"; }
	grep -q 'zero_step_np4.png$' "$t/fig/figures.txt" && [ -s "$t/fig/zero_step_np4.svg" ] ||
		{ show; fail "no zero_step figure"; }
	mkdir "$t/dat"
	line=$(awk -f "$src/scripts/plot/lib.awk" -f "$src/scripts/plot/zero.awk" -v prog=t \
		-v dir="$t/dat" -v b=host -v d=float -v o=sum -v p=0 "$t/run/summary.csv" \
		"$t/run/ranks.csv" | tr '\037' '|')
	case $line in "plot|4|4 KiB|ps ring mpi|ps ring|1024|4096|"*) ;; *) fail "zero.awk: $line" ;; esac
	awk '$2 != $3 + $4 { bad = 1 } END { exit bad || NR != 4 }' "$t/dat/zero_b.2.dat" ||
		{ cat "$t/dat/zero_b.2.dat" >&2; fail "ring: a rank's halves do not move its allreduce's bytes"; }
	awk '$1 == 0 && $2 == 2 * 3 * 4096 && $3 == 3 * (4096 + 1024) && $4 == $3 { ok = 1 } END { exit !ok }' \
		"$t/dat/zero_b.1.dat" || { cat "$t/dat/zero_b.1.dat" >&2; fail "ps: the root's bytes"; }
	sweep --ranks 2 "${tiny[@]}" --out "$t/ar"
	"$src/scripts/plot.sh" "$t/ar" "$t/fig2" >"$t/out" 2>"$t/err" || { show; fail "plot.sh: exit $?"; }
	! grep -q zero "$t/fig2/figures.txt" "$t/err" || { show; fail "zero_step drawn or named for allreduce alone"; }
	;;
model_allreduce_only)
	# model.sh's figures (model_busbw, model_tradeoff) draw allreduce rows:
	# of a check table with a ring allreduce and a ring reduce_scatter row at
	# one size, they keep the allreduce one
	h=backend,transport,algo,nranks,bytes,dtype,op,in_place,collective,time_us,time_us_model
	h=$h,error_pct,bw_GBps,bw_GBps_model,rounds_model,txrx_max_bytes,far,note
	{ echo "$h"
	  echo "host,shm,ring,2,1048576,float,sum,0,allreduce,100,110,10,10.5,9.5,2,1048576,,"
	  echo "host,shm,ring,2,1048576,float,sum,0,reduce_scatter,50,55,10,21,19,1,524288,,"
	  echo "host,shm,ps,2,1048576,float,sum,0,allreduce,150,160,6.7,7,6.5,3,2097152,,"; } >"$t/check.csv"
	for prog in model_busbw model_tradeoff; do
		mkdir -p "$t/$prog"
		awk -f "$src/scripts/plot/lib.awk" -f "$src/scripts/plot/$prog.awk" -v prog=t -v file=x \
			-v dir="$t/$prog" "$t/check.csv" >"$t/out" || { show; fail "$prog.awk: exit $?"; }
	done
	[ "$(cat "$t"/model_busbw/model_busbw_np2.*.dat | wc -l)" = 2 ] ||
		{ cat "$t"/model_busbw/*.dat >&2; fail "model_busbw: not one point per algorithm"; }
	grep -q '^1048576	10.5	9.5$' "$t"/model_busbw/model_busbw_np2.*.dat ||
		fail "model_busbw: the ring's point is not its allreduce row's"
	! grep -q '	1	524288' "$t"/model_tradeoff/* || fail "model_tradeoff drew the reduce_scatter row"
	;;
gp_path)
	# file names reach gnuplot as their own bytes (cb_gp_path; cb_gp_str's
	# \xHH form names a folder that does not exist): a folder that is not
	# UTF-8, a quote; a line break is refused
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	d="$t/caf"$'\xe9'"/it's"
	mkdir -p "$d"
	(PROG=t; . "$src/scripts/lib.sh"
	 gnuplot -e "set terminal svg; set output $(cb_gp_path "$d/x.svg"); set title $(cb_gp_str "$d"); plot x" \
		2>"$t/err") || { cat "$t/err" >&2; fail "gnuplot could not write under $(cb_text "$d")"; }
	grep -q "caf\\xe9/it&apos;s\|caf\\xe9/it's" "$d/x.svg" || fail "the title does not say caf\\xe9"
	(PROG=t; . "$src/scripts/lib.sh"; cb_gp_path "a"$'\n'"b" >/dev/null 2>"$t/err") && fail "a line break was accepted"
	grep -q "line break" "$t/err" || fail "no message for a line break"
	;;
slurm_env)
	# the allocation's task counts (scripts/lib_launch.sh, cb_slurm_tasks_list): an
	# unset SLURM_TASKS_PER_NODE is no shell error, absurd counts are refused
	# at once (no wrapped count, no loop of 2^63 lines), good ones read (a
	# fake squeue confirms job 1 on this host)
	mkdir "$t/shim" && cb_fake_squeue "$t/shim"
	FAKE_SQUEUE_NODES=$(hostname -s)
	export PATH=$t/shim:$PATH FAKE_SQUEUE_NODES
	list() { (PROG=t; . "$src/scripts/lib.sh"; SLURM_TASKS_PER_NODE=$1 cb_slurm_tasks_list 2>&1) | tr '\n' ' '; }
	[ "$(list '2(x3),1')" = "2 2 2 1 " ] || fail "2(x3),1 read as '$(list '2(x3),1')'"
	[ "$(list '')" = "" ] || fail "an empty list read as '$(list '')'"
	for v in '9223372036854775807,1' '1(x9223372036854775807)' '1000001' '1(x100001)' abc '2(x' '-1'; do
		SLURM_TASKS_PER_NODE=$v SLURM_JOB_ID=1 CB_LAUNCHER=mpirun timeout 20 \
			"$src/scripts/sweep.sh" --ranks 2 "${tiny[@]}" >"$t/out" 2>"$t/err"
		rc=$?
		[ $rc = 2 ] || { show; fail "SLURM_TASKS_PER_NODE=$v: exit $rc, want 2"; }
		grep -qE "SLURM_TASKS_PER_NODE='.*': (more than 1000000 tasks|'.*' is not N or N\(xK\))" "$t/err" ||
			{ show; fail "SLURM_TASKS_PER_NODE=$v: no clear message"; }
	done
	(unset SLURM_TASKS_PER_NODE; SLURM_JOB_ID=1 CB_LAUNCHER=mpirun "$src/scripts/sweep.sh" --ranks 2 \
		"${tiny[@]}" >"$t/out" 2>"$t/err")
	rc=$?
	[ $rc = 2 ] || { show; fail "no SLURM_TASKS_PER_NODE: exit $rc, want 2"; }
	grep -q "unbound variable" "$t/err" && { show; fail "a shell error instead of a message"; }
	grep -q "allocation has 0 tasks" "$t/err" || { show; fail "no message about the allocation"; }
	[ -e "$t/results" ] && [ -n "$(ls -A "$t/results")" ] && fail "a refused sweep left a folder"
	;;
slurm_stale)
	# Slurm variables a finished job left in the shell (a tmux started inside
	# an allocation keeps them) are trusted only when squeue says the job is
	# RUNNING on this host: else the sweep says so, runs as outside Slurm
	# (mpirun, its own slots; not "the allocation has 1 tasks") and records no
	# job, nor do its ranks
	stale=(SLURM_JOB_ID=4242 SLURM_JOB_NODELIST='gone[1-2]' SLURM_TASKS_PER_NODE=1 SLURM_JOB_NUM_NODES=2
		SLURM_STEP_ID=0)
	mkdir "$t/shim" && cb_fake_squeue "$t/shim"
	hows="unknown COMPLETED elsewhere"
	command -v squeue >/dev/null || hows="none $hows" # a machine without Slurm
	for how in $hows; do
		case $how in
		none) why="there is no squeue here to confirm it" p=$PATH ;;
		unknown) why="squeue -j 4242 answers: slurm_load_jobs error: Invalid job id" p=$t/shim:$PATH ;;
		COMPLETED) why="squeue says job 4242 is COMPLETED" p=$t/shim:$PATH ;;
		elsewhere) why="job 4242 runs on gone1 gone2, not on this host" p=$t/shim:$PATH ;;
		esac
		state=$how
		[ "$how" != elsewhere ] || state=RUNNING
		env "${stale[@]}" PATH="$p" FAKE_SQUEUE_STATE="$state" FAKE_SQUEUE_NODES="gone1 gone2" \
			"$src/scripts/sweep.sh" --ranks 2 "${tiny[@]}" >"$t/out" 2>"$t/err"
		rc=$?
		[ $rc = 0 ] || { show; fail "$how: exit $rc, expected 0"; }
		grep -qF "note: SLURM_JOB_ID=4242 is set, but $why" "$t/err" || { show; fail "$how: no note saying '$why'"; }
		d=$(find "$t/results" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		case $d in *-slurm*) fail "$how: the run is named after the stale job: $d" ;; esac
		one_run "$d" 1
		tr -d '\n' <"$d/meta.json" | grep '"launcher": {"name": "mpirun", "command": "mpirun", "job_id": null, "nodelist": null.*"slurm_ignored": "SLURM_JOB_ID=4242 is set, but' >/dev/null ||
			{ cat "$d/meta.json" >&2; fail "$how: meta.json's launcher records the stale job"; }
		tr -d ' \n' <"$d/np2.meta.json" | grep '"launcher":{"job_id":null,"name":"mpirun","slurm_ignored":null,"step_id":null}' >/dev/null ||
			{ cat "$d/np2.meta.json" >&2; fail "$how: the ranks saw the stale variables"; }
		rm -rf "$d"
	done
	# confirmed (RUNNING on this host): the allocation decides, 1 task
	env "${stale[@]}" PATH="$t/shim:$PATH" FAKE_SQUEUE_NODES="gone1 $(hostname -s)" CB_LAUNCHER=mpirun \
		"$src/scripts/sweep.sh" --ranks 2 "${tiny[@]}" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 2 ] && grep -q "the Slurm allocation has 1 tasks" "$t/err" || { show; fail "confirmed job: exit $rc"; }
	# allreduce_perf, launched by hand in such a shell: no job id, and why;
	# under a slurmstepd of the job (its process title names it): the job
	cb_singleton env "${stale[@]}" "$bin/allreduce_perf" -b 8 -e 8 --algo ring --csv "$t/a.csv" >"$t/out" 2>&1 ||
		{ show; fail "allreduce_perf with stale variables failed"; }
	tr -d ' \n' <"$t/a.meta.json" | grep '"launcher":{"job_id":null,"name":"singleton","slurm_ignored":"SLURM_JOB_ID=4242isset,butnoslurmstepdofjob4242' >/dev/null ||
		{ cat "$t/a.meta.json" >&2; fail "allreduce_perf records the stale job"; }
	grep -q '^# launcher: singleton (Slurm variables ignored: ' "$t/out" || { show; fail "no word in the header"; }
	cp "$(command -v bash)" "$t/shim/slurmstepd"
	# (the command ends in "; exit": bash would exec a lone command instead of
	# staying its parent)
	env "${stale[@]}" bash -c 'exec -a "slurmstepd: [4242.0]" "$1" -c "\"\$0\" -b 8 -e 8 --algo ring --csv \"\$1\"; exit \$?" "$2" "$3"' \
		_ "$t/shim/slurmstepd" "$bin/allreduce_perf" "$t/b.csv" >"$t/out" 2>&1 || { show; fail "under a slurmstepd: failed"; }
	tr -d ' \n' <"$t/b.meta.json" | grep '"launcher":{"job_id":"4242","name":"srun","slurm_ignored":null,"step_id":"0"}' >/dev/null ||
		{ cat "$t/b.meta.json" >&2; fail "allreduce_perf under the job's slurmstepd does not record it"; }
	;;
sweep_same_second)
	# six sweeps whose clock says the same second: three at once, three in a
	# row; each gets its own folder (NAME, NAME-2, ...) with its own rows
	mkdir "$t/shim"
	printf '#!/bin/sh\necho 20260101T000000Z\n' >"$t/shim/date" && chmod +x "$t/shim/date"
	for i in 1 2 3; do
		PATH=$t/shim:$PATH "$src/scripts/sweep.sh" --ranks 1 "${tiny[@]}" >/dev/null 2>"$t/err.$i" &
	done
	for i in 1 2 3; do
		wait -n || { cat "$t"/err.* >&2; fail "a parallel sweep failed"; }
	done
	for i in 4 5 6; do
		PATH=$t/shim:$PATH sweep --ranks 1 "${tiny[@]}"
		[ $rc = 0 ] || { show; fail "sweep $i: exit $rc"; }
	done
	[ "$(find "$t/results" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 6 ] ||
		{ ls "$t/results" >&2; fail "six runs did not get six folders"; }
	for d in "$t"/results/*; do one_run "$d" 1; done
	;;
sweep_o_taken)
	# --out to a folder that holds files: refused before anything is written
	mkdir -p "$t/old" && echo keep >"$t/old/notes.txt"
	sweep --ranks 1 "${tiny[@]}" --out "$t/old"
	[ $rc = 2 ] && grep -q "already holds files" "$t/err" || { show; fail "non-empty -o: exit $rc"; }
	[ "$(ls "$t/old")" = notes.txt ] || fail "the refused run wrote into $t/old"
	# two sweeps to one new --out at once: one gets it, the other is refused
	"$src/scripts/sweep.sh" --ranks 1 "${tiny[@]}" --out "$t/both" >/dev/null 2>"$t/err.a" &
	"$src/scripts/sweep.sh" --ranks 1 "${tiny[@]}" --out "$t/both" >/dev/null 2>"$t/err.b" &
	wait -n
	ra=$?
	wait -n
	rb=$?
	[ "$((ra + rb))" = 2 ] && { [ $ra = 2 ] || [ $rb = 2 ]; } ||
		{ cat "$t/err.a" "$t/err.b" >&2; fail "two sweeps into one folder: exits $ra and $rb"; }
	one_run "$t/both" 1
	# --overwrite replaces an earlier run's files, and only those
	sweep --ranks "1 2" "${tiny[@]}" --out "$t/over"
	echo keep >"$t/over/notes.txt"
	sweep --ranks 1 "${tiny[@]}" --out "$t/over" --overwrite
	[ $rc = 0 ] || { show; fail "--overwrite: exit $rc"; }
	[ ! -e "$t/over/np2.csv" ] && [ -e "$t/over/notes.txt" ] || fail "--overwrite left np2.* or removed notes.txt"
	one_run "$t/over" 1
	;;
sweep_non_utf8)
	# a run folder whose name is not UTF-8: meta.json stays valid JSON (\xHH)
	odd=$t/$(printf 'run\xff-caf\xe9')
	sweep --ranks 1 "${tiny[@]}" --out "$odd"
	[ $rc = 0 ] || { show; fail "exit $rc"; }
	one_run "$odd" 1
	grep -q '"run_id": "run\\\\xff-caf\\\\xe9"' "$odd/meta.json" || { cat "$odd/meta.json" >&2; fail "run_id not escaped"; }
	"$bin/check_results" --json "$odd/np1.meta.json" || fail "np1.meta.json is not valid JSON"
	# and plot.sh's figures: an SVG is XML, which must be UTF-8
	"$src/scripts/plot.sh" "$odd" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh failed"; }
	for f in "$t"/fig/*.svg; do
		iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || fail "$f is not valid UTF-8"
	done
	;;
sweep_options)
	# long options, --name=VALUE, rank counts with commas: no note
	sweep --ranks=1,2 --minbytes=8 --maxbytes 8 --iters=3 --warmup_iters 0 --algo ring --out "$t/long"
	[ $rc = 0 ] || { show; fail "long options: exit $rc"; }
	one_run "$t/long" 2
	! grep -q deprecated "$t/err" || { show; fail "long options gave a deprecation note"; }
	grep -q '"rank_counts": \[1,2\]' "$t/long/meta.json" && grep -q '"sweep": "-b 8 -e 8 -f 2 -n 3 -w 0 ' \
		"$t/long/meta.json" || { cat "$t/long/meta.json" >&2; fail "long options not applied"; }
	# sweep.sh 0.1's letters still work, each with a note naming the long option
	sweep -n 1 -b 8 -e 8 -i 3 -w 0 -a ring -o "$t/old"
	[ $rc = 0 ] || { show; fail "old letters: exit $rc"; }
	one_run "$t/old" 1
	grep -q '"sweep": "-b 8 -e 8 -f 2 -n 3 -w 0 ' "$t/old/meta.json" || fail "-i 3 was not the iterations"
	for o in "-n (rank counts; .*) is deprecated: use --ranks" "-i (iterations; .*) is deprecated: use --iters" \
		"-o (run folder; .*) is deprecated: use --out"; do
		grep -q -- "^sweep.sh: note: $o$" "$t/err" || { show; fail "no note: $o"; }
	done
	# a flag given a value, an option without one: refused
	sweep --overwrite=1
	[ $rc = 2 ] && grep -q "takes no value" "$t/err" || { show; fail "--overwrite=1: exit $rc"; }
	sweep --ranks 1 --iters
	[ $rc = 2 ] && grep -q -- "--iters needs a value" "$t/err" || { show; fail "--iters: exit $rc"; }
	;;
sweep_bad_values)
	# values allreduce_perf would refuse are refused before anything runs,
	# by allreduce_perf itself (--check-args, no mpirun): exit 2, no folder
	for bad in "-b 64M -e 8" "-f 0" "--iters -1" "--repeat 0" "-B tpu" "-- --transport bogus" "--out="; do
		# shellcheck disable=SC2086 # bad: words
		sweep --ranks 2 $bad
		[ $rc = 2 ] || { show; fail "$bad: exit $rc, not 2"; }
		grep -q "nothing run\|an empty path" "$t/err" || { show; fail "$bad: no message"; }
		[ ! -e "$t/results" ] || { ls -R "$t/results" >&2; fail "$bad: a folder was made"; }
	done
	"$bin/allreduce_perf" --check-args -b 8 -e 1M --algo ring || fail "--check-args refused good options"
	;;
sweep_stopped)
	# a signal to sweep.sh reaches its launch: nothing is left running, the
	# run says "aborted" (its rows kept), exit 128 + N; --history leaves a
	# stopped run out. TERM to sweep.sh alone, then INT to its whole process
	# group, as Ctrl-C sends it (env: a background job's INT is ignored), then
	# USR1 to sweep.sh alone, the warning sbatch --signal=B:USR1@N sends
	# before the time limit
	# (ring, not mpi: a rank inside MPI_Allreduce whose peer already left
	# cannot reach its abort path before mpirun's SIGKILL; docs/running.md says so)
	long=(--ranks 2 --minbytes 1M --maxbytes 64M --stepfactor 2 --repeat 3 --algo ring)
	for sig in TERM INT USR1; do
		d=$t/run-$sig
		setsid env --default-signal=INT "$src/scripts/sweep.sh" "${long[@]}" --history "$t/h.db" \
			--out "$d" >"$t/out" 2>"$t/err" &
		pid=$!
		for _ in $(seq 600); do [ "$(cat "$d/np2.csv" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
		[ "$(cat "$d/np2.csv" 2>/dev/null | wc -l)" -ge 2 ] || { show; fail "$sig: no row written"; }
		if [ $sig = INT ]; then kill -INT -- "-$pid"; else kill "-$sig" "$pid"; fi
		wait "$pid"
		rc=$?
		sleep 0.5
		! pgrep -f "$d/" >/dev/null || { pgrep -af "$d/" >&2; fail "$sig: the launch was left running"; }
		[ $rc = $((128 + $(kill -l $sig))) ] || { show; fail "$sig: exit $rc"; }
		grep -q '"status": "aborted"' "$d/meta.json" && grep -q "\"stopped_by\": \"SIG$sig\"" "$d/meta.json" ||
			{ cat "$d/meta.json" >&2; fail "$sig: meta.json does not say aborted by SIG$sig"; }
		# the ranks got the signal from mpirun and stopped: they say so, and
		# their metadata does not say complete. It says "aborted" unless
		# mpirun's SIGKILL, 1 s after its SIGTERM, came before rank 0's write
		# (CI saw that once under the sanitizer build; err_killed_rank_shm and
		# _p2p check that the ranks' stop path writes "aborted")
		grep -q "run aborted: stopped by signal 15" "$t/err" ||
			{ show; fail "$sig: no rank says it was stopped by SIGTERM"; }
		grep -Eq '"status": "(aborted|incomplete)"' "$d/np2.meta.json" ||
			{ cat "$d/np2.meta.json" >&2; show; fail "$sig: np2.meta.json says the run went on"; }
		cb_complete_lines "$d/summary.csv"
		[ ! -e "$t/h.db" ] || fail "$sig: a stopped run was added to the history"
		grep -q "not added to" "$t/err" || { show; fail "$sig: no word on the history"; }
	done
	;;
sbatch_stopped)
	# the job script passes a stop signal to the batch shell on (sbatch
	# --signal=B:USR1@N, scancel --batch signal it alone): the sweep stops
	# its launch and marks the run aborted by it, nothing is left running,
	# exit 128 + N (run with bash, outside Slurm, as the script allows)
	d=$t/run
	bash "$src/scripts/slurm/sweep.sbatch" --ranks 2 --minbytes 1M --maxbytes 64M --repeat 3 --algo ring \
		--out "$d" >"$t/out" 2>"$t/err" &
	pid=$!
	for _ in $(seq 600); do [ "$(cat "$d/np2.csv" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
	[ "$(cat "$d/np2.csv" 2>/dev/null | wc -l)" -ge 2 ] || { show; fail "no row written"; }
	kill -USR1 "$pid"
	wait "$pid"
	rc=$?
	sleep 0.5
	! pgrep -f "$d/" >/dev/null || { pgrep -af "$d/" >&2; pgrep -f "$d/" | xargs kill; fail "the sweep was left running"; }
	[ $rc = $((128 + $(kill -l USR1))) ] || { show; fail "exit $rc"; }
	grep -q '"status": "aborted"' "$d/meta.json" && grep -q '"stopped_by": "SIGUSR1"' "$d/meta.json" ||
		{ cat "$d/meta.json" >&2; fail "meta.json does not say aborted by SIGUSR1"; }
	;;
sweep_disk_full)
	# the results disk fills up mid-sweep (a small tmpfs, filled while the
	# second launch runs): the run says it failed and why (meta.json
	# "failed" with the reason), leaves no .tmp file, says so in a message of
	# its own (no raw shell write error), exit 1; the rows written so far stay
	[ "$(id -u)" = 0 ] || { echo "SKIP: mounting a tmpfs needs root"; exit 77; }
	mkdir "$t/disk"
	mount -t tmpfs -o size=16m tmpfs "$t/disk" 2>"$t/err" || { cat "$t/err"; echo "SKIP: cannot mount a tmpfs"; exit 77; }
	trap 'umount "$t/disk"; rm -rf "$t"' EXIT
	"$src/scripts/sweep.sh" --ranks 1,2 --minbytes 1K --maxbytes 1M --iters 50 --algo ring,ps --out "$t/disk/run" \
		>"$t/out" 2>"$t/err" &
	pid=$!
	for _ in $(seq 600); do grep -q '^== 2 ranks' "$t/err" && break; sleep 0.1; done
	grep -q '^== 2 ranks' "$t/err" || { show; fail "the second launch did not start"; }
	dd if=/dev/zero of="$t/disk/filler" bs=64k >/dev/null 2>&1 # until the disk is full
	wait "$pid"
	rc=$?
	[ $rc = 1 ] || { show; fail "exit $rc with a full disk, expected 1"; }
	grep -q '^sweep.sh: error: the run failed: cannot write .*: No space left on device' "$t/err" ||
		{ show; fail "no message saying the run failed for want of space"; }
	! grep -Eq 'write error|^[^ ]*sweep.sh: line [0-9]+' "$t/err" || { show; fail "a raw shell error"; }
	"$bin/check_results" --json "$t/disk/run/meta.json" || { cat "$t/disk/run/meta.json" >&2; fail "meta.json is not valid JSON"; }
	grep -q '"status": "failed"' "$t/disk/run/meta.json" &&
		grep -q '"error": "cannot write .*No space left on device' "$t/disk/run/meta.json" ||
		{ cat "$t/disk/run/meta.json" >&2; fail "meta.json does not say failed, and why"; }
	[ -z "$(find "$t/disk/run" -name '*.tmp*')" ] || { ls -lR "$t/disk/run" >&2; fail "a .tmp file was left"; }
	cb_complete_lines "$t/disk/run/np1.csv"
	;;
sweep_disk_full_start)
	# the results disk is full before the sweep starts: exit 2, nothing run
	# and no folder made (sweep.sh --help), not even the claim (meta.json), so
	# the same command runs once there is room
	[ "$(id -u)" = 0 ] || { echo "SKIP: mounting a tmpfs needs root"; exit 77; }
	mkdir "$t/disk"
	mount -t tmpfs -o size=64k tmpfs "$t/disk" 2>"$t/err" || { cat "$t/err"; echo "SKIP: cannot mount a tmpfs"; exit 77; }
	trap 'umount "$t/disk"; rm -rf "$t"' EXIT
	dd if=/dev/zero of="$t/disk/filler" bs=4k >/dev/null 2>&1 # until the disk is full
	for out in "$t/disk/run" "$t/disk/new/run"; do
		sweep --ranks 2 "${tiny[@]}" --out "$out"
		[ $rc = 2 ] || { show; fail "exit $rc on a full disk, expected 2"; }
		grep -q "cannot write .*meta.json: No space left on device" "$t/err" ||
			{ show; fail "no message saying the disk is full"; }
		[ ! -e "$t/disk/run" ] && [ ! -e "$t/disk/new" ] ||
			{ ls -lR "$t/disk" >&2; fail "a folder was left on the full disk"; }
	done
	# an empty folder of the user's stays, without the claim
	mkdir "$t/disk/mine"
	sweep --ranks 2 "${tiny[@]}" --out "$t/disk/mine"
	[ $rc = 2 ] && [ -d "$t/disk/mine" ] && [ -z "$(ls -A "$t/disk/mine")" ] ||
		{ show; ls -lR "$t/disk" >&2; fail "the user's folder: exit $rc, or not left empty"; }
	rm "$t/disk/filler"
	sweep --ranks 2 "${tiny[@]}" --out "$t/disk/run"
	[ $rc = 0 ] || { show; fail "exit $rc once there is room"; }
	;;
sweep_hosts_refused)
	# host lists that cannot work are refused before anything runs (exit 2)
	printf '# two hosts\nna slots=2\nnb slots=1 max_slots=4\n' >"$t/hf"
	for bad in "--hosts a:x" "--hosts a:0" "--hosts a,a" "--hosts a:1,b:1 --ranks 3" \
		"--hostfile $t/hf --ranks 4" "--hostfile $t/none" "--hosts a --hostfile $t/hf"; do
		# shellcheck disable=SC2086 # bad: words
		sweep $bad "${tiny[@]}" --out "$t/h"
		[ $rc = 2 ] || { show; fail "$bad: exit $rc, not 2"; }
		[ ! -e "$t/h/summary.csv" ] || fail "$bad: a run was made"
	done
	sweep --hostfile "$t/hf" --ranks 4 "${tiny[@]}" --out "$t/h"
	grep -q 'the hosts have 3 slots (na:2,nb:1)' "$t/err" || { show; fail "hostfile slots not read"; }
	# inside a Slurm allocation (a fake squeue confirms it) the allocation decides
	mkdir "$t/shim" && cb_fake_squeue "$t/shim"
	PATH=$t/shim:$PATH FAKE_SQUEUE_NODES=$(hostname -s) SLURM_JOB_ID=1 SLURM_TASKS_PER_NODE=2 \
		sweep --hosts a:2 --ranks 2 "${tiny[@]}" --out "$t/s"
	[ $rc = 2 ] && grep -q 'inside a Slurm allocation' "$t/err" || { show; fail "--hosts in Slurm: exit $rc"; }
	;;
sweep_hostfile_forms)
	# hostfiles as users have them: Open MPI's "name slots=N", MPICH's
	# "name:N", CRLF line ends, a byte-order mark; read, not refused (the
	# 4 ranks then do not fit their 3 slots, which the message shows as read)
	printf '\xef\xbb\xbf# two hosts\r\nna slots=2 max_slots=4\r\nnb:1\r\n' >"$t/hf"
	sweep --hostfile "$t/hf" --ranks 4 "${tiny[@]}" --out "$t/h"
	[ $rc = 2 ] && grep -q 'the hosts have 3 slots (na:2,nb:1)' "$t/err" || { show; fail "hostfile forms: exit $rc"; }
	# a line that is neither: refused, quoting the file's own line and its number
	for bad in 'nb:x' 'nb slots=0' 'nb foo=2' 'n/b' 'na:3'; do
		printf 'na slots=2\r\n%s\r\n' "$bad" >"$t/hf"
		sweep --hostfile "$t/hf" --ranks 2 "${tiny[@]}" --out "$t/h"
		[ $rc = 2 ] || { show; fail "'$bad': exit $rc, not 2"; }
		grep -qF -- "--hostfile $t/hf, line 2: '$bad': " "$t/err" || { show; fail "'$bad': the line is not quoted"; }
		[ ! -e "$t/h/summary.csv" ] || fail "'$bad': a run was made"
	done
	;;
sweep_mpi_traffic_absent)
	# --mpi-traffic where Open MPI's monitoring is missing (an ompi_info that
	# lists no pml monitoring): the run is made, the mpi rows' traffic stays
	# empty, meta.json says why
	mkdir "$t/shim"
	printf '#!/bin/sh\necho "MCA pml: ob1"\n' >"$t/shim/ompi_info" && chmod +x "$t/shim/ompi_info"
	PATH=$t/shim:$PATH sweep --ranks 2 --minbytes 1K --maxbytes 1K --iters 2 --warmup_iters 0 --algo mpi \
		--mpi-traffic --out "$t/run"
	[ $rc = 0 ] || { show; fail "exit $rc"; }
	grep -q '"mpi_traffic": {"status": "not measured: this Open MPI has no pml monitoring component' \
		"$t/run/meta.json" || { cat "$t/run/meta.json" >&2; fail "meta.json does not say why"; }
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "mpi" && $c["tx_total_bytes"] != "" { bad = 1 } END { exit bad || NR < 2 }' \
		"$t/run/summary.csv" || fail "mpi traffic filled without monitoring: $(cat "$t/run/summary.csv")"
	[ ! -e "$t/run/mpi_traffic" ] || fail "monitored launches made without monitoring"
	;;
plot_hosts_transport)
	# a run across hosts (the committed two-host reference): each host's ranks and
	# tx+rx in the traffic figure, the hosts and the transport in the busbw title
	"$src/scripts/plot.sh" "$src/results/reference-2host" "$t/fig" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh failed"; }
	for w in ">host 0 (ranks 0-1), tx+rx:<" ">ps 512 MiB<" ">host 1 (ranks 2-3), tx+rx:<" ">ps 256 MiB<" \
		"4 ranks on 2 hosts, 64 MiB per rank" ">mpi (total tx 384 MiB)<"; do
		grep -qF "$w" "$t/fig/traffic_per_rank.svg" || fail "traffic_per_rank lacks $w"
	done
	grep -qF ">allreduce bus bandwidth, 4 ranks on 2 hosts, transport p2p<" "$t/fig/busbw_np4.svg" ||
		fail "busbw_np4: no hosts and transport in the title"
	# one host, the default transport: titles as before, no host marks
	"$src/scripts/plot.sh" "$src/results/reference" "$t/one" >"$t/out" 2>"$t/err" || { show; fail "plot.sh failed"; }
	grep -qF ">allreduce bus bandwidth, 4 ranks<" "$t/one/busbw_np4.svg" || fail "one host: busbw title changed"
	! grep -q ">host 0" "$t/one/traffic_per_rank.svg" || fail "one host: hosts marked"
	# two transports in one run: a line per (algorithm, transport)
	mkdir "$t/mix"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } { print }
		NR > 1 && $c["algo"] == "ring" { $c["transport"] = "shm"; print }' \
		"$src/results/reference-2host/summary.csv" >"$t/mix/summary.csv"
	"$src/scripts/plot.sh" "$t/mix" "$t/mixfig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh failed"; }
	for w in ">ring (p2p)<" ">ring (shm)<" ">ps (p2p)<" ">mpi<"; do
		grep -qF "$w" "$t/mixfig/busbw_np4.svg" || fail "two transports: busbw_np4 lacks $w"
	done
	;;
plot_time_figures)
	# a run with the time columns (the committed reference-time, schema 2 with nhosts):
	# the busy/wait, straggler and iteration figures are drawn, none skipped
	"$src/scripts/plot.sh" "$src/results/reference-time" "$t/fig" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh failed"; }
	! grep -q "skipping" "$t/err" || { show; fail "plot.sh skipped a figure"; }
	for f in busy_wait_per_rank stragglers iterations; do
		[ -s "$t/fig/$f.svg" ] && [ -s "$t/fig/$f.png" ] || { show; fail "no $f figure"; }
	done
	;;
plot_traffic_algos)
	# every algorithm whose traffic is measured is drawn, not only ps and ring: the reference
	# run with its ring rows once more as "ring_b"; mpi's traffic is not measured: not drawn
	cp -r "$src/results/reference" "$t/run"
	for f in summary.csv ranks.csv; do
		awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } { print }
			NR > 1 && $c["algo"] == "ring" { $c["algo"] = "ring_b"; print }' \
			"$src/results/reference/$f" >"$t/run/$f"
	done
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh failed"; }
	for a in ps ring ring_b; do
		grep -q ">$a (total tx 896 MiB)<" "$t/fig/traffic_per_rank.svg" || fail "no $a bars in traffic_per_rank"
		grep -q ">$a<" "$t/fig/imbalance_vs_ranks.svg" || fail "no $a line in imbalance_vs_ranks"
	done
	! grep -q ">mpi" "$t/fig/traffic_per_rank.svg" || fail "mpi (unmeasured traffic) drawn in traffic_per_rank"
	;;
plot_frontier)
	# frontier_np<N>: one per rank count of the reference run, every allreduce keyed (copy
	# is none), and the fastest at the largest size as the summary's smallest median says
	"$src/scripts/plot.sh" "$src/results/reference" "$t/fig" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh failed"; }
	for n in 2 4 8; do
		f=$t/fig/frontier_np$n.svg
		[ -s "$f" ] && [ -s "${f%.svg}.png" ] || { show; fail "no frontier_np$n figure"; }
		for a in ps ring mpi; do grep -q ">$a<" "$f" || fail "frontier_np$n: no $a line"; done
		! grep -q ">copy<" "$f" || fail "frontier_np$n: copy drawn"
		best=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["nranks"] == n && $c["algo"] != "copy" && $c["status"] == "ok" &&
			(!("collective" in c) || $c["collective"] == "allreduce") {
				b = $c["bytes"] + 0; t = $c["time_us_median"] + 0
				if (b > big) { big = b; w = ""; m = "" }
				if (b == big && (m == "" || t < m)) { m = t; w = $c["algo"] } }
			END { print w }' n=$n "$src/results/reference/summary.csv")
		# its run of sizes ends at 64 MiB, or is 64 MiB alone
		grep -q "[ >]$best \([^,]*-\)\{0,1\}64 MiB<" "$f" ||
			fail "frontier_np$n: the fastest at 64 MiB is not $best"
	done
	;;
plot_folders)
	sweep --ranks 1 --minbytes 8 --maxbytes 64 --stepfactor 8 --iters 2 --warmup_iters 0 --algo ring,copy --out "$t/run"
	[ $rc = 0 ] || { show; fail "sweep: exit $rc"; }
	# default folders: a second plot of one run gets a folder of its own
	"$src/scripts/plot.sh" "$t/run" >"$t/out1" 2>"$t/err" || { show; fail "plot.sh: exit $?"; }
	"$src/scripts/plot.sh" "$t/run" >"$t/out2" 2>"$t/err" || { show; fail "plot.sh again: exit $?"; }
	grep -q "^$t/plots/run/busbw_np1.png$" "$t/out1" && grep -q "^$t/plots/run-2/busbw_np1.png$" "$t/out2" ||
		{ cat "$t/out1" "$t/out2" >&2; fail "the second plot did not get plots/run-2"; }
	cmp -s "$t/out1" "$t/plots/run/figures.txt" || fail "figures.txt does not list the figures"
	# an explicit folder that holds files: refused, untouched
	mkdir -p "$t/fig" && echo keep >"$t/fig/notes.txt"
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 2 ] && grep -q "already holds files" "$t/err" || { show; fail "non-empty OUT_DIR: exit $rc"; }
	[ "$(ls "$t/fig")" = notes.txt ] || fail "the refused plot wrote into $t/fig"
	"$src/scripts/plot.sh" --overwrite "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "--overwrite"; }
	;;
plot_one_size)
	# one message size: the copy roofline is one point, drawn as one (pt 6)
	sweep --ranks 2 --minbytes 64K --maxbytes 64K --iters 2 --warmup_iters 0 --algo ring,copy --out "$t/run"
	[ $rc = 0 ] || { show; fail "sweep: exit $rc"; }
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh failed"; }
	grep -q "copy roofline (algbw), one size" "$t/fig/busbw_np2.svg" || fail "roofline key does not say one size"
	grep -q "gpPt5'" "$t/fig/busbw_np2.svg" || fail "the one-size roofline is not drawn (no point)"
	;;
plot_zero_bytes)
	# only 0-byte rows: they have times (time_vs_ranks), no bandwidth to plot
	sweep --ranks "1 2" --iters 2 --warmup_iters 0 --algo ring,copy --out "$t/run" -- --counts 0
	[ $rc = 0 ] || { show; fail "sweep: exit $rc"; }
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 0 ] || { show; fail "plot.sh: exit $rc, expected 0 (the rows have times)"; }
	[ -s "$t/fig/time_vs_ranks.png" ] || fail "no time_vs_ranks figure"
	! grep -q "no rows with a time" "$t/err" || { show; fail "says 'no rows with a time'"; }
	grep -q "every row at n = 2 has 0 bytes" "$t/err" || { show; fail "does not say the rows have 0 bytes"; }
	;;
plot_readable)
	# what a reader sees (issue 19): no key over the data (bandwidth-bound points sit where
	# keys used to be), log axes labelled between decades, sizes at every 2nd power of two, and
	# the rank counts launched on fewer CPUs marked; on the committed reference run (4 and 8
	# ranks on 2 CPUs), drawn by plot.sh and model.sh through a gnuplot that saves each
	# figure's settings beside it (save set)
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	mkdir "$t/gp"
	echo 'save set outbase.".set.gp"' >"$t/gp/probe.gp"
	printf '#!/usr/bin/env bash\nexec %q "$@" %q\n' "$(command -v gnuplot)" "$t/gp/probe.gp" >"$t/gp/gnuplot"
	chmod +x "$t/gp/gnuplot"
	PATH=$t/gp:$PATH "$src/scripts/plot.sh" "$src/results/reference" "$t/fig" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh failed"; }
	PATH=$t/gp:$PATH "$src/scripts/model.sh" "$src/results/reference" "$t/model" >"$t/out" 2>"$t/err" ||
		{ show; fail "model.sh failed"; }
	# every figure's key outside the plot (or none)
	for f in $(grep '\.svg$' "$t/fig/figures.txt" "$t/model/model_figures.txt" | cut -d: -f2-); do
		# gnuplot draws under a temporary name, renamed when whole (cb_gnuplot)
		s=$(ls "$(dirname "$f")/.$(basename "${f%.svg}").tmp"*.set.gp 2>/dev/null | head -n 1)
		[ -s "$s" ] || fail "no settings saved for $f"
		grep -Eq '^(set key (outside|[lrtb]margin)|unset key)' "$s" ||
			fail "$(basename "$f"): the key is inside the plot: $(grep -m1 -E '^set key (inside|fixed)' "$s")"
	done
	# tic labels of an SVG: y (right-aligned left of the plot) or x (sizes, centred), as
	# numbers; the largest ratio of neighbours
	ratio() {
		awk -v axis="$1" '
			/text-anchor="end"/ && match($0, /translate\([0-9.]+/) { want = substr($0, RSTART + 10, RLENGTH - 10) + 0 < 200 && axis == "y"; next }
			/text-anchor="middle"/ { want = axis == "x"; next }
			want && match($0, /<text>[^<]*<\/text>/) {
				v = substr($0, RSTART + 6, RLENGTH - 13); want = 0; m = 1
				if (axis == "x" && v !~ /^[0-9.]+[KMG]?$/) next
				if (axis == "y") {   # LOG_YTICS: engineering suffixes, powers of 1000
					if (v ~ /k$/) m = 1e3; if (v ~ /M$/) m = 1e6; if (v ~ /G$/) m = 1e9
				} else {
					if (v ~ /K$/) m = 1024; if (v ~ /M$/) m = 1048576; if (v ~ /G$/) m = 1073741824
				}
				sub(/[kKMG]$/, "", v); val[++n] = v * m
			}
			END {
				for (i = 2; i <= n; i++) { r = val[i] / val[i - 1]; if (r < 1) r = 1 / r; if (r > worst) worst = r }
				printf "%d %.3g\n", n, worst
			}' "$2"
	}
	for f in "$t/fig"/busbw_np{2,4,8}.svg "$t/model"/model_busbw_np{2,4,8}.svg "$t/model"/model_time_vs_n.svg; do
		read -r n worst < <(ratio y "$f")
		[ "$n" -ge 5 ] && awk -v w="$worst" 'BEGIN { exit !(w <= 3.34) }' ||
			fail "$(basename "$f"): log y labels $n, up to ${worst}x apart (want a label at least every 3.33x)"
	done
	# (the reference run spans 8 B..64 MiB, 24 powers: every 2nd labelled, the fonts of
	# the PNGs made no room for each)
	for f in "$t/fig"/busbw_np4.svg "$t/fig"/stragglers.svg "$t/model"/model_busbw_np4.svg; do
		read -r n worst < <(ratio x "$f")
		[ "$n" -ge 12 ] && [ "$worst" = 4 ] || fail "$(basename "$f"): $n size labels, up to ${worst}x apart (want every 2nd power of 2)"
	done
	# oversubscription: 4 and 8 ranks on 2 CPUs, in the title or at the rank count's tic
	for f in busbw_np4 busbw_np8 traffic_per_rank busy_wait_per_rank stragglers iterations; do
		grep -q '>more ranks than CPUs ([48] ranks on 2 CPUs): time slicing<' "$t/fig/$f.svg" ||
			fail "$f: oversubscription not marked"
	done
	! grep -q "more ranks than CPUs" "$t/fig/busbw_np2.svg" || fail "busbw_np2 marked oversubscribed"
	for f in time_vs_ranks imbalance_vs_ranks; do
		for w in '<text>2</text>' '<text>4\*</text>' '<text>8\*</text>' '>\* more ranks than CPUs (2 CPUs): time slicing<'; do
			grep -q "$w" "$t/fig/$f.svg" || fail "$f: no $w"
		done
	done
	;;
deps_quiet)
	# dev/deps.sh's cb_install_deps (bench.sh, test.sh) as root on a machine that lacks
	# everything, with a fake apt-get that talks as much as apt does on a fresh machine:
	# one line per step on stderr, apt's output in the log file it names; a failing step
	# says so with the log's last lines
	mkdir "$t/fake" "$t/tmp"
	: >"$t/installed"
	cat >"$t/fake/dpkg-query" <<-EOF
		#!/usr/bin/env bash
		grep -qx "\${!#}" "$t/installed" && printf 'install ok installed'
	EOF
	cat >"$t/fake/apt-get" <<-EOF
		#!/usr/bin/env bash
		echo "\$DEBIAN_FRONTEND \$*" >>"$t/apt-calls"
		for i in \$(seq 400); do echo "Get:\$i http://deb.example/debian bookworm/main pkg\$i [\$i kB]"; done
		[ "\$1" != install ] || [ -z "\${FAKE_APT_FAIL:-}" ] || { echo "E: Unable to locate package \$FAKE_APT_FAIL"; exit 100; }
		[ "\$1" != install ] || printf '%s\\n' "\$@" >>"$t/installed"
		exit 0
	EOF
	printf '#!/usr/bin/env bash\necho 0\n' >"$t/fake/id"
	chmod +x "$t/fake/"*
	install() { PATH=$t/fake:$PATH TMPDIR=$t/tmp bash -c '. "$1/dev/deps.sh"; cb_install_deps shellcheck' _ "$src"; }
	install >"$t/out" 2>"$t/err" || { show; fail "cb_install_deps: exit $?"; }
	[ "$(wc -l <"$t/err")" -le 4 ] || { show; fail "cb_install_deps printed $(wc -l <"$t/err") lines (one per step expected)"; }
	log=$(sed -n "s/.*apt-get's output: \(.*\))$/\1/p" "$t/err")
	[ -n "$log" ] && [ "$(grep -c '^Get:' "$log")" = 800 ] || { show; fail "no log with apt's 800 lines ($log)"; }
	grep -q '^collbench: apt-get update \.\.\. ok$' "$t/err" && grep -q '^collbench: apt-get install .* shellcheck \.\.\. ok$' "$t/err" ||
		{ show; fail "no line per step"; }
	grep -q '^noninteractive install -y --no-install-recommends cmake .*gnuplot-nox.* shellcheck$' "$t/apt-calls" ||
		fail "apt-get install not asked for the missing packages: $(cat "$t/apt-calls")"
	[ ! -s "$t/out" ] || fail "cb_install_deps wrote to stdout: $(head -3 "$t/out")"
	# a failing install: said, with the log's end and its path, still short
	: >"$t/installed"
	FAKE_APT_FAIL=gnuplot-nox install >"$t/out" 2>"$t/err" && { show; fail "a failed apt-get install returned 0"; }
	[ "$(wc -l <"$t/err")" -le 30 ] || { show; fail "the failure printed $(wc -l <"$t/err") lines"; }
	grep -q "apt-get install .* failed (exit 100); the last lines of $t/tmp/collbench-apt\." "$t/err" &&
		grep -q "E: Unable to locate package gnuplot-nox" "$t/err" || { show; fail "the failure does not say why and where"; }
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "scripts.sh $case: ok"
