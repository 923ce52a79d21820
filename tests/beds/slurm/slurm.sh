#!/usr/bin/env bash
# The Slurm job scripts (scripts/slurm/) against a real Slurm: each case
# starts a private single-node cluster (tests/beds/slurm/cluster.sh: munged,
# slurmctld, slurmd as root, every file in one temporary folder), submits
# with sbatch --wait, checks what the jobs left, and stops every daemon it
# started, whatever happens. Skipped (77), with the reason, when not root or
# Slurm and munge are not installed (apt-get install slurm-wlm munge).
#   slurm.sh BIN CASE
# Cases: sweep (srun in a batch job, the same shape as a plain sweep.sh run),
# mpirun (CB_LAUNCHER=mpirun in a batch job; a rank count beyond the
# allocation refused), regress (a baseline made by a job; the job's exit
# status is the verdict, for a baseline no run can fail and one that makes
# the run look slowed; a dependency chain gates on it),
# signal (USR1 to the batch shell stops the sweep; that finished job's
# variables outside it are not trusted), cleanup (a cluster with a running
# job, its test killed by TERM: nothing left). Asserts only what holds at any speed: statuses, files, metadata.
set -uo pipefail
. "$(dirname "$0")/../../lib/lib.sh"
. "$CB_TESTS_DIR/beds/slurm/cluster.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
reason=$(cb_slurm_check) || { echo "$reason"; exit 77; }
# nothing of an enclosing Slurm job (or a user's sbatch/srun defaults) leaks in
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SRUN|SALLOC)_')
# short: the munge socket's path must fit a sockaddr_un
t=$(mktemp -d /tmp/cb-slurm.XXXXXX)
etc_before=$(find /etc/slurm /etc/munge -printf '%p %s %T@ %m\n' 2>/dev/null | sort)
on_exit() {
	cb_slurm_stop
	rm -rf "$t"
}
trap on_exit EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
mkdir -p "$t/log" "$t/tmp"
export CB_BIN=$bin LC_ALL=C CB_RESULTS=$t/results CB_PLOTS=$t/plots TMPDIR=$t/tmp
cb_launch_env
cb_slurm_start "$t/cluster" || { tail -n 20 "$t"/cluster/log/* >&2; fail "the cluster did not start"; }
host=$(hostname -s)
small=(--minbytes 1K --maxbytes 64K --stepfactor 8 --iters 3 --warmup_iters 1)

# submit NAME SCRIPT ARGS...: sbatch --wait from the checkout's root, the
# job's log in $t/log/NAME.out; sets rc (the job's exit status) and job (its
# id). In the background, so a signal to this test is handled at once.
submit() {
	local name=$1
	shift
	(cd "$src" && sbatch --wait --parsable --output="$t/log/$name.out" "$@") >"$t/log/$name.id" &
	wait $!
	rc=$?
	job=$(head -n 1 "$t/log/$name.id")
}
show() { cat "$t/log/$1.out" >&2; }
# one_line FILE: the JSON file as one line, for grep
one_line() { tr -d '\n' <"$1"; }
# run_of JOB: the results folder of the job (its run id ends in -slurm<JOB>)
run_of() {
	local d
	d=$(find "$t/results" -mindepth 1 -maxdepth 1 -name "*-slurm$1" | head -n 2)
	[ -n "$d" ] && [ "$(wc -l <<<"$d")" = 1 ] || { ls "$t/results" >&2; fail "no single results folder for job $1"; }
	echo "$d"
}
# good_rows DIR: summary.csv has rows, every status ok and #wrong 0 (by header names)
good_rows() {
	cb_complete_lines "$1/summary.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; if ($c["status"] != "ok" || $c["wrong"] != 0) bad++ }
		END { exit !(n > 0 && bad == 0) }' "$1/summary.csv" ||
		{ cat "$1/summary.csv" >&2; fail "$1: no rows, or rows not ok / #wrong > 0"; }
	grep -q '"status": "complete"' "$1/meta.json" || fail "$1/meta.json does not say complete"
}
# keys FILE: the top-level keys of a JSON file written with two-space indents
keys() { sed -n 's/^  "\([^"]*\)":.*/\1/p' "$1" | sort; }
# row_keys DIR: the (algo, nranks, bytes, dtype, op, in_place) of every row
row_keys() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["algo"], $c["nranks"], $c["bytes"], $c["dtype"], $c["op"], $c["in_place"] }' \
		"$1/summary.csv" | sort
}
# same_shape A B: the same files, columns, rows and metadata keys
same_shape() {
	local f
	[ "$(ls "$1")" = "$(ls "$2")" ] || { ls "$1" "$2" >&2; fail "the folders hold different files"; }
	for f in summary.csv ranks.csv; do
		[ "$(head -n 1 "$1/$f")" = "$(head -n 1 "$2/$f")" ] || fail "$f: different columns"
	done
	[ "$(row_keys "$1")" = "$(row_keys "$2")" ] || fail "summary.csv: different rows"
	for f in meta.json np2.meta.json; do
		[ "$(keys "$1/$f")" = "$(keys "$2/$f")" ] || { diff <(keys "$1/$f") <(keys "$2/$f") >&2; fail "$f: different keys"; }
	done
}

case $case in
sweep)
	# a batch job across the allocation (2 tasks): srun --mpi=pmix
	submit sweep scripts/slurm/sweep.sbatch "${small[@]}"
	[ $rc = 0 ] || { show sweep; fail "sweep job $job: exit $rc"; }
	run=$(run_of "$job") || exit 1
	good_rows "$run"
	m=$(one_line "$run/meta.json")
	grep -Eq "\"launcher\": \{\"name\": \"srun\", \"command\": \"srun --mpi=pmix[_v0-9]*\", \"job_id\": \"$job\", \"nodelist\": \"$host\", \"partition\": \"cbtest\", \"tasks_per_node\": \"2\", \"nnodes\": 1, \"slurm_ignored\": null\}" <<<"$m" ||
		fail "meta.json's launcher: $(grep -o '"launcher": {[^}]*}' <<<"$m")"
	grep -q '"rank_counts": \[2\]' <<<"$m" || fail "rank counts are not the allocation's 2 tasks"
	m=$(one_line "$run/np2.meta.json")
	grep -Eq "\"launcher\": \{ *\"job_id\": \"$job\", *\"name\": \"srun\", *\"slurm_ignored\": null, *\"step_id\": \"[0-9]+\" *\}" <<<"$m" ||
		fail "np2.meta.json's launcher: $(grep -o '"launcher": {[^}]*}' <<<"$m")"
	grep -q "^# launcher: srun (Slurm job $job, step [0-9]*)$" "$run/np2.txt" || fail "no launcher line in the header"
	plots=$CB_PLOTS/$(basename "$run")
	[ -s "$plots/busbw_np2.png" ] && [ -s "$plots/busbw_np2.svg" ] || { show sweep; fail "no plots in $plots"; }
	grep -qx "results: $run" "$t/log/sweep.out" && grep -qx "plots:   $plots" "$t/log/sweep.out" ||
		{ show sweep; fail "the job log does not say where results and plots went"; }
	# the same sweep with plain sweep.sh, outside Slurm: the same shape
	"$src/scripts/sweep.sh" --ranks 2 "${small[@]}" --out "$t/plain" >/dev/null 2>"$t/log/plain.err" ||
		{ cat "$t/log/plain.err" >&2; fail "plain sweep.sh failed"; }
	good_rows "$t/plain"
	same_shape "$run" "$t/plain"
	grep -q '"launcher": {"name": "mpirun", "command": "mpirun", "job_id": null,' "$t/plain/meta.json" ||
		fail "plain meta.json's launcher: $(grep '"launcher"' "$t/plain/meta.json")"
	grep -Eq '"launcher": \{ *"job_id": null, *"name": "mpirun", *"slurm_ignored": null, *"step_id": null *\}' \
		<<<"$(one_line "$t/plain/np2.meta.json")" || fail "plain np2.meta.json's launcher"
	;;
mpirun)
	# mpirun inside the allocation: it reads the slots, no --oversubscribe
	export CB_LAUNCHER=mpirun
	submit mpirun scripts/slurm/sweep.sbatch --ranks 1,2 "${small[@]}"
	unset CB_LAUNCHER
	[ $rc = 0 ] || { show mpirun; fail "job $job: exit $rc"; }
	run=$(run_of "$job") || exit 1
	good_rows "$run"
	grep -q "\"launcher\": {\"name\": \"mpirun\", \"command\": \"mpirun\", \"job_id\": \"$job\"," "$run/meta.json" ||
		fail "meta.json's launcher: $(grep '"launcher"' "$run/meta.json")"
	grep -Eq "\"launcher\": \{ *\"job_id\": \"$job\", *\"name\": \"mpirun\"," <<<"$(one_line "$run/np2.meta.json")" ||
		fail "np2.meta.json's launcher"
	# mpirun --oversubscribe would show in the ranks' environment (metadata)
	! grep -q '"OMPI_MCA_rmaps_base_oversubscribe"' "$run"/np*.meta.json ||
		fail "mpirun was given --oversubscribe in an allocation"
	# more ranks than the allocation's tasks: refused before any launch, no folder left
	submit toomany scripts/slurm/sweep.sbatch --ranks 4 "${small[@]}"
	[ $rc = 2 ] || { show toomany; fail "4 ranks on 2 tasks: exit $rc, expected 2"; }
	grep -q "4 ranks, but the Slurm allocation has 2 tasks" "$t/log/toomany.out" || { show toomany; fail "no reason given"; }
	[ -z "$(find "$t/results" -mindepth 1 -maxdepth 1 -name "*-slurm$job")" ] || fail "a refused job left a folder"
	;;
regress)
	export CB_MACHINE=cbslurm
	conf=(--minbytes 64K --maxbytes 256K --stepfactor 4 --repeat 2 --iters 5 --warmup_iters 1)
	# --accept-load: a launch under mpirun records other work's share of the
	# CPUs, and other jobs may share this machine; that refusal is not tested here
	submit base scripts/slurm/regress.sbatch --update-baseline --accept-load -- --ranks 2 "${conf[@]}"
	[ $rc = 0 ] || { show base; fail "--update-baseline job $job: exit $rc"; }
	good=$CB_RESULTS/baseline/cbslurm-host
	grep -q '^ranks=2$' "$good/regress.conf" || fail "no baseline made: $(ls "$CB_RESULTS/baseline")"
	# the job's exit status is the verdict, whatever this machine's speed
	# today: against the baseline made 10^4 times slower (bandwidths / 10^4,
	# times x 10^4) no run can regress: 0; against it made 10^4 times faster
	# (so the new run looks deliberately slowed) every row regresses: 1
	for k in good:0.0001 fast:10000; do
		cp -r "$good" "$t/${k%:*}"
		for f in "$good"/summary.csv "$good"/np*.csv; do
			awk -F, -v OFS=, -v x="${k#*:}" 'NR == 1 {
					for (i = 1; i <= NF; i++) k[i] = $i ~ /^(algbw|busbw)_/ ? x : $i ~ /^time_us/ ? 1 / x : 1
					print; next }
				{ for (i = 1; i <= NF; i++) if (k[i] != 1 && $i != "") $i = sprintf("%.6g", $i * k[i]); print }' \
				"$f" >"$t/${k%:*}/$(basename "$f")"
		done
	done
	submit good scripts/slurm/regress.sbatch --baseline "$t/good"
	[ $rc = 0 ] || { show good; fail "good baseline: job $job exit $rc, expected 0"; }
	grep -q "ExitCode=0:0" <<<"$(scontrol show job "$job")" || fail "job $job: Slurm's exit code is not 0"
	run=$(run_of "$job") || exit 1
	good_rows "$run"
	[ -s "$CB_PLOTS/$(basename "$run")/regress_np2.png" ] || { show good; fail "no overlay plot"; }
	grep -Eq "^0 regressions, [1-9][0-9]* improvements" "$t/log/good.out" || { show good; fail "no verdict line"; }
	submit slow scripts/slurm/regress.sbatch --baseline "$t/fast"
	[ $rc = 1 ] || { show slow; fail "slowed: job $job exit $rc, expected 1"; }
	grep -q "ExitCode=1:0" <<<"$(scontrol show job "$job")" || fail "job $job: Slurm's exit code is not 1"
	grep -Eq "^[1-9][0-9]* regressions?, 0 improvements" "$t/log/slow.out" || { show slow; fail "regressions not named"; }
	# a chain gates on the verdict: afterok of a regressed job never starts
	slow=$(cd "$src" && sbatch --parsable --output="$t/log/chain1.out" scripts/slurm/regress.sbatch \
		--baseline "$t/fast")
	next=$(sbatch --parsable --output="$t/log/chain2.out" --dependency="afterok:$slow" --wrap true)
	cb_slurm_wait_for 300 "the dependency was not found unsatisfiable" \
		eval "squeue -h -j $next -o %r | grep DependencyNeverSatisfied >/dev/null" || fail "chain: job $next"
	[ ! -e "$t/log/chain2.out" ] || fail "the job after a regression ran"
	;;
signal)
	# the warning before the time limit, to the batch shell (sbatch
	# --signal=B:USR1@N; here scancel --signal=USR1 --batch, the same signal
	# at once): the job script passes it on, the sweep stops its launch, the
	# run says aborted by SIGUSR1 and the job exits 128 + 10
	(cd "$src" && sbatch --parsable --output="$t/log/sig.out" scripts/slurm/sweep.sbatch --ranks 2 \
		--minbytes 1M --maxbytes 64M --repeat 3 --algo ring) >"$t/log/sig.id" || fail "sbatch failed"
	job=$(head -n 1 "$t/log/sig.id")
	has_row() { [ "$(cat "$t"/results/*-slurm"$job"/np2.csv 2>/dev/null | wc -l)" -ge 2 ]; }
	cb_slurm_wait_for 120 "job $job wrote no row" has_row || { show sig; fail "no row"; }
	scancel --signal=USR1 --batch "$job" || fail "scancel failed"
	cb_slurm_wait_for 120 "job $job did not end" eval "! squeue -h -j $job -t PD,R,CG | grep . >/dev/null" ||
		{ show sig; fail "the job went on"; }
	grep -q "ExitCode=138:0" <<<"$(scontrol show job "$job")" ||
		{ show sig; scontrol show job "$job" | grep -o 'ExitCode=[^ ]*' >&2; fail "job $job: not exit 138"; }
	run=$(run_of "$job") || exit 1
	grep -q '"status": "aborted"' "$run/meta.json" && grep -q '"stopped_by": "SIGUSR1"' "$run/meta.json" ||
		{ cat "$run/meta.json" >&2; fail "meta.json does not say aborted by SIGUSR1"; }
	# that finished job's variables in a shell outside it (a tmux started
	# inside it): squeue does not confirm it, so the sweep runs as outside Slurm
	SLURM_JOB_ID=$job SLURM_JOB_NODELIST=$host SLURM_TASKS_PER_NODE=1 \
		"$src/scripts/sweep.sh" --ranks 2 "${small[@]}" --out "$t/stale" >"$t/log/stale.out" 2>&1 ||
		{ show stale; fail "a sweep with a finished job's variables failed"; }
	grep -Eq "note: SLURM_JOB_ID=$job is set, but (squeue says job $job is ([A-Z]+|not known)|squeue -j $job answers: .*)" \
		"$t/log/stale.out" || { show stale; fail "no note on the stale variables"; }
	grep -q '"launcher": {"name": "mpirun", "command": "mpirun", "job_id": null,' "$t/stale/meta.json" ||
		fail "stale: meta.json's launcher: $(grep '"launcher"' "$t/stale/meta.json")"
	;;
cleanup)
	# a test killed (TERM) while its job runs: every daemon, slurmstepd and
	# job process of its cluster ends, its folder is gone
	inner=$(mktemp -d /tmp/cb-slurm.XXXXXX)
	CB_INNER=$inner bash -c '. "$1"; cb_slurm_start "$CB_INNER/c" || exit 1
		trap "cb_slurm_stop; rm -rf \"\$CB_INNER\"" EXIT; trap "exit 143" TERM
		sbatch --output=/dev/null --wrap "sleep 600" >/dev/null; sleep 600 & wait $!' \
		_ "$CB_TESTS_DIR/beds/slurm/cluster.sh" 2>"$t/log/inner.err" &
	pid=$!
	# its job is running (the inner cluster's slurm.conf, once it exists)
	cb_slurm_wait_for 60 "the inner job did not start" \
		eval "[ -s '$inner/c/slurm.conf' ] && SLURM_CONF='$inner/c/slurm.conf' squeue -h -t R | grep . >/dev/null"
	left=$(cb_slurm_dir=$inner/c cb_slurm_marked)
	[ "$(wc -w <<<"$left")" -ge 4 ] || fail "expected 3 daemons and a slurmstepd with the marker: $left"
	kill -TERM "$pid"
	wait "$pid"
	for p in $left; do
		[ ! -d "/proc/$p" ] || [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = Z ] ||
			fail "pid $p ($(tr '\0' ' ' <"/proc/$p/cmdline")) outlived its cluster"
	done
	[ -z "$(cb_slurm_dir=$inner/c cb_slurm_marked)" ] || fail "processes of the killed cluster remain"
	[ ! -e "$inner" ] || fail "the killed cluster's folder remains"
	;;
*)
	fail "unknown case $case"
	;;
esac
# nothing written to the system's Slurm or munge configuration
cb_slurm_stop
[ "$(find /etc/slurm /etc/munge -printf '%p %s %T@ %m\n' 2>/dev/null | sort)" = "$etc_before" ] ||
	fail "/etc/slurm or /etc/munge changed"
echo "slurm.sh $case: ok"
