#!/usr/bin/env bash
# sweep.sh: runs allreduce_perf for several rank counts into one run folder,
# results/<host>-<UTC timestamp>/, with summary.csv, ranks.csv and meta.json
# (plus each launch's own np<N>.* files and its metadata sidecar). Every run
# gets its own folder: the default one is created atomically (-2, -3, ... when
# another run took the name in the same second), an --out folder must be new or
# empty (or --overwrite), and it is claimed before anything is written.
# Inside a Slurm allocation (an sbatch job: SLURM_JOB_ID, confirmed by
# squeue) the ranks start with srun --mpi=pmix (or mpirun, which reads the
# allocation), the run id ends in -slurm<job id>, and meta.json's "launcher"
# records how (lib.sh). Options: lib_sweep_opts.sh's table; exit status: the
# usage's last paragraph.
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CB_BIN:-$root/build/bin}
# shellcheck disable=SC2034 # read by lib.sh's messages and cb_die
PROG=sweep.sh
. "$root/scripts/lib.sh"
. "$root/scripts/lib_sweep_opts.sh"
. "$root/scripts/lib_bench.sh"

cb_sweep_opts
cb_opts_text tail <<'EOF_USAGE'
Allocator: unless --default-malloc, ranks run with MALLOC_MMAP_MAX_=0 and a
large MALLOC_TRIM_THRESHOLD_, so that libraries that allocate per call
(MPI_Allreduce's temporaries) reuse heap memory instead of page-faulting a
fresh mmap on every call; recorded in meta.json. Environment: CB_BIN (binaries),
CB_MACHINE (the machine label), CB_RESULTS (root of the default folder and of
the default history: results/), CB_LAUNCHER (mpirun or srun). Text that is not
UTF-8 (paths, names) is written to meta.json with each such byte as \xHH.
Launcher: mpirun, with --oversubscribe for rank counts above the CPUs. Inside a
Slurm allocation (sbatch, salloc: SLURM_JOB_ID set; scripts/slurm/*.sbatch)
that squeue confirms (the job RUNNING on this host; else a note, and the
SLURM_* variables are left out) srun --mpi=<PMIx plugin> when srun lists one
(else mpirun, which reads the allocation), no --oversubscribe, and every rank
count must fit the allocation's tasks; the run folder's name ends in
-slurm<job id>. meta.json's "launcher" says which (name, command, job_id,
nodelist, partition, tasks_per_node, nnodes, slurm_ignored).
Hosts: with --hosts or --hostfile, N ranks go to the hosts in order, N/H on
each (the first N%H one more; consecutive ranks share a host), within each
host's slots; meta.json records the hosts, where each rank count went and
the transport (allreduce_perf's --transport after --, default auto: p2p when
ranks span hosts). CB_MPIRUN_ARGS: more mpirun words (the test bed's launch
agent: tests/beds/multihost/README.md; a real cluster needs none).
Library traffic (--mpi-traffic): for each rank count, library algorithm (mpi,
Open MPI's forced mpi.*) and size with an ok row, a launch of that algorithm
alone under Open MPI's pml monitoring (each rank's totals in a file of its
own: the run folder must be on a file system every host shares), minus
one at 0 bytes with the same settings, divided by its allreduce calls
(collbench-results traffic): per-rank tx/rx, tx total, max and imbalance into
every results file of the rank count (np<N>.csv, .ranks.csv, .jsonl, .txt;
summary.csv and ranks.csv are merged from them), the raw output under
mpi_traffic/, the method in meta.json; where monitoring is absent the
columns stay empty and meta.json says why.
Open MPI's algorithms (-a mpi.ring,...: allreduce_perf --help lists them)
need OMPI_MCA_coll_tuned_use_dynamic_rules=1 at launch; sweep.sh sets it when
--algo names one (and says so), unless it is set already; with mpi rows
beside them (-a mpi,mpi.ring,...) it writes library_choice.txt, .csv and
.json: which one the default ran (collbench-model check --library).
Exit status: 0 done; 1 a launch failed or a results file could not be written
(the rows written so far are kept; meta.json says "failed" and why, no .tmp
file is left); 2 usage (nothing run, no folder made: sweep.sh's
options and those after -- are checked first, by allreduce_perf --check-args at
each --ranks (--world-size: a --plan's ranks, --root), and
the run folder's name must fit the file system); 3
the run is complete and kept, but adding it to the history failed (said on stderr,
with the command that adds it later); 128+N stopped by signal N (INT, TERM, HUP,
or USR1 and USR2, a scheduler's warning before its time limit: passed on to
the launch as TERM, which is waited for; meta.json says "aborted" and
"stopped_by", the rows written so far are kept). --history adds complete runs only.
EOF_USAGE
cb_opts_parse "$@"
extra=("${cb_rest[@]}")
[ -z "${CB_MACHINE+set}" ] || export CB_MACHINE

[ -x "$bin/allreduce_perf" ] || cb_die 2 "$bin/allreduce_perf not built (run scripts/bench.sh or cmake)"
[ -x "$bin/collbench-results" ] || cb_die 2 "$bin/collbench-results not built (run scripts/bench.sh or cmake)"
[ -z "$history" ] || cb_history_usable "$bin" "$history" || exit 2
[ -z "$hosts" ] || [ -z "$hostfile" ] || cb_die 2 "--hosts and --hostfile: give one"
[ -z "$hostfile" ] || hosts=$(cb_hostfile_list "$hostfile") || exit 2
[ -z "$hosts" ] || cb_hosts_parse "$hosts" || exit 2
cb_launcher_pick || exit 2
[ "$cb_launcher" != mpirun ] || command -v mpirun >/dev/null ||
	cb_die 2 "mpirun not found (apt-get install openmpi-bin)"
# canonical, ascending, each once (02 is 2; the table checked each is 1..64)
nps=$(for np in $nps; do echo $((10#$np)); done | sort -nu | tr '\n' ' ')
# inside an allocation: every rank count must fit its tasks, across hosts
# their slots (said before any launch)
for np in $nps; do
	[ ${#cb_host_names[@]} = 0 ] || cb_hosts_layout "$np" || exit 2
	[ "$cb_in_slurm" = 0 ] || [ "$np" -le "$cb_slurm_tasks" ] ||
		cb_die 2 "--ranks: $np ranks, but the Slurm allocation has $cb_slurm_tasks tasks" \
			"(SLURM_TASKS_PER_NODE=${SLURM_TASKS_PER_NODE:-}): sbatch/salloc with more" \
			"(--nodes, --ntasks-per-node), or fewer --ranks"
done

case ${CB_MACHINE-unset} in
unset) ;;
'' | *[!A-Za-z0-9_.-]*) cb_die 2 "--machine/CB_MACHINE: '${CB_MACHINE}' is not a label ([A-Za-z0-9_.-])" ;;
esac

# allreduce_perf's options (its letters; meta.json's "sweep" records them),
# checked by allreduce_perf itself with those after -- (no MPI) before a
# folder is made: refused exactly as the launches would refuse them
args=(-b "$minb" -e "$maxb" -f "$factor" -n "$iters" -w "$warmup" -c "$check" --repeat "$repeat"
	--inplace "$inplace" -B "$backend")
[ -z "$algos" ] || args+=(--algo "$algos")
# --coll: each once, in the order given; each checked with the options
colls=$(tr ', ' '\n' <<<"$colls" | awk 'NF && !seen[$0]++' | tr '\n' ' ')
[ -n "$colls" ] || cb_die 2 "--coll: no collective"
# and at each --ranks (what needs the world size: --root, --servers, a
# --plan's ranks), so that no launch runs before another's is refused
for coll in $colls; do
	"$bin/allreduce_perf" --check-args "${args[@]}" "${extra[@]}" --coll "$coll" --csv np.csv \
		--rank-csv np.ranks.csv --json np.jsonl --meta np.meta.json >/dev/null ||
		cb_die 2 "allreduce_perf refuses these options for --coll $coll (above): nothing run"
	for np in $nps; do
		why=$("$bin/allreduce_perf" --check-args "${args[@]}" "${extra[@]}" --coll "$coll" \
			--world-size "$np" 2>&1 >/dev/null) && continue
		printf '%s\n' "$why" >&2
		# a plan for other ranks: in a sweep its -np is a --ranks
		plan_np=$(sed -n 's/.* is for \([0-9][0-9]*\) ranks, this run has .*/\1/p' <<<"$why" | head -n 1)
		[ -z "$plan_np" ] || cb_note "the plan is for $plan_np ranks: sweep it with --ranks $plan_np"
		cb_die 2 "allreduce_perf refuses these options at --ranks $np (above): nothing run"
	done
done
# the library's measured traffic (mpi_traffic.txt) names no collective: one
# per run (the history keys every row by its collective: any list)
[ "$mpi_traffic" = 0 ] || [ "$(wc -w <<<"$colls")" = 1 ] ||
	cb_die 2 "--mpi-traffic: one collective per run (--coll ${colls% })"

host=$(hostname -s 2>/dev/null || hostname)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
machine=${CB_MACHINE:-$host}
# the run folder, claimed (meta.json created exclusively) before any launch;
# its name and the longest one a launch writes in it (a monitored launch's
# metadata, written through <file>.tmp.<pid>) must fit the file system
longest=mpi_traffic/np64-999999999999.meta.json.tmp.4194304
if [ -z "$outdir" ]; then
	cb_path_fits "the run folder (CB_RESULTS, the host name, SLURM_JOB_ID)" \
		"${CB_RESULTS:-$root/results}/$(cb_run_name "$host" "$stamp")-1000" "$longest" || exit 2
	made=$(($(cb_missing_levels "${CB_RESULTS:-$root/results}") + 1))
	outdir=$(cb_new_dir "${CB_RESULTS:-$root/results}" "$(cb_run_name "$host" "$stamp")") || exit 2
else
	cb_path_fits --out "$outdir" "$longest" || exit 2
	made=$(cb_missing_levels "$outdir")
fi
cb_claim_dir "$outdir" meta.json "$overwrite" 'np[0-9]*.*' summary.csv ranks.csv '*.tmp' \
	mpi_traffic.txt 'mpi_traffic/np*' 'library_choice.*' || exit 2
outdir=$(cd "$outdir" && pwd)
run_id=$(basename "$outdir")
# every file of the run that allreduce_perf does not write, collbench-results
# writes (merged CSVs, measured traffic, meta.json: bench/format/cb_runmeta.c)
# results VERB ARGS...: collbench-results; on failure results_why holds its
# reason ("cannot write X: No space left on device"), which it also printed
results_why=""
results() {
	local err
	err=$("$bin/collbench-results" "$@" 2>&1 >/dev/null) && return 0
	results_why=${err#collbench-results: }
	printf '%s\n' "$err" >&2
	return 1
}
# nothing run yet: a failure here leaves no folder (exit 2), not even the claim
results run-meta "$outdir/meta.json" "run_id=$run_id" status=running ||
	{ cb_unclaim_dir "$outdir" meta.json "$made"; exit 2; }
# scratch files (launch statuses, CPU times) outside the run folder: a full
# results disk must not take them too
scratch=$(mktemp -d "${TMPDIR:-/tmp}/collbench-sweep.XXXXXX") || {
	echo "sweep.sh: cannot create a scratch folder in ${TMPDIR:-/tmp}" >&2
	cb_unclaim_dir "$outdir" meta.json "$made"
	exit 2
}
trap 'rm -rf "$scratch"' EXIT
# from here a signal stops the launch and marks the run (lib.sh, cb_group)
cb_stop_on

# fail_run WHY: a file of the run could not be written (a full disk, ...):
# removes temporaries a killed writer left, makes meta.json say "failed"
# with WHY (replaced whole, else rewritten in place: truncating it frees what
# the "running" record held), says so and exits 1. The rows written so far
# are kept.
fail_run() {
	local why=$1
	[ ${#failures[@]} = 0 ] || why+="; before that: $(IFS=';'; echo "${failures[*]}" | sed 's/;/; /g')"
	rm -f -- "$outdir"/*.tmp.* "$outdir"/*/*.tmp.*
	results run-meta --in-place "$outdir/meta.json" "run_id=$run_id" "host=$host" \
		"machine=$machine" "created_utc=$stamp" status=failed "error=$why" ||
		echo "sweep.sh: meta.json may still say \"running\": $results_why" >&2
	echo "sweep.sh: error: the run failed: $why (the rows written so far are kept in $outdir)" >&2
	exit 1
}

fwd=() # variables mpirun passes on (srun passes the whole environment)
as_root=false
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	as_root=true
fi
if [ "$default_malloc" = 0 ]; then
	export MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184
	fwd+=(MALLOC_MMAP_MAX_ MALLOC_TRIM_THRESHOLD_)
fi
[ -z "${CB_MACHINE:-}" ] || fwd+=(CB_MACHINE)
# Open MPI's forced algorithms (mpi.*) need coll/tuned's dynamic rules on at
# launch; alone they change nothing (collectives/runtime/mpi/cb_algo_mpi_forced.c)
forced_mpi=0
case ",$algos," in *,mpi.*) forced_mpi=1 ;; esac
if [ "$forced_mpi" = 1 ] && [ -z "${OMPI_MCA_coll_tuned_use_dynamic_rules+set}" ]; then
	export OMPI_MCA_coll_tuned_use_dynamic_rules=1
	echo "sweep.sh: mpi.* algorithms: OMPI_MCA_coll_tuned_use_dynamic_rules=1 for the launches" >&2
fi
[ -z "${OMPI_MCA_coll_tuned_use_dynamic_rules+set}" ] || fwd+=(OMPI_MCA_coll_tuned_use_dynamic_rules)
# collbench's own settings that change a measurement (bench/harness/cb_env.c),
# to ranks on other hosts too: the pre-flight refuses ranks that differ
for v in CB_WAIT_SPIN_NS CB_WAIT_YIELD_NS CB_WAIT_TICK_MS CB_CUDA_SYNC CB_CUDA_WAIT; do
	[ -z "${!v+set}" ] || fwd+=("$v")
done
cpus=$(nproc)

# the transport asked of allreduce_perf (its rows say which one ran)
transport=auto
for ((i = 0; i < ${#extra[@]}; i++)); do
	case ${extra[i]} in
	--transport) transport=${extra[i + 1]:-auto} ;;
	--transport=*) transport=${extra[i]#*=} ;;
	esac
done

# stem NP COLL: the launch's files' name, np<NP> (allreduce) or np<NP>-<COLL>
stem() { if [ "$2" = allreduce ]; then echo "np$1"; else echo "np$1-$2"; fi; }

# --mpi-traffic's launches: those of the run's one collective (its files: tstem NP)
tcoll=${colls%% *}
tstem() { stem "$1" "$tcoll"; }

# mpi_traffic_np NP: --mpi-traffic for one rank count (after its launch): for
# each library algorithm with ok rows (mpi, mpi.*) and each size of them, a
# monitored launch of that algorithm alone there and one at 0 bytes; appends
# "np bytes rank tx rx calls [algo]" to mpi_traffic.txt. The launches' output
# stays in mpi_traffic/. Returns 1 (said) on failure.
mpi_traffic_np() {
	local np=$1 algo algos
	algos=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		($c["algo"] == "mpi" || $c["algo"] ~ /^mpi\./) && $c["status"] == "ok" &&
		$c["bytes"] > 0 { print $c["algo"] }' "$outdir/$(tstem "$np").csv" 2>/dev/null | sort -u)
	[ -n "$algos" ] || { echo "sweep.sh: --mpi-traffic: no ok mpi rows at $np ranks" >&2; return 0; }
	mkdir -p "$outdir/mpi_traffic" || return 1
	for algo in $algos; do
		mpi_traffic_algo "$np" "$algo" || return 1
	done
}

# mpi_traffic_algo NP ALGO: mpi_traffic_np's launches of one algorithm.
mpi_traffic_algo() {
	local np=$1 algo=$2 b sizes calls rows0 rows f0 f tag a
	a=(--algo "$algo" --coll "$tcoll" -w 1 -n 2 --repeat 1 -c 0 -q -T 600)
	tag=${algo#mpi}
	sizes=$(awk -F, -v algo="$algo" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == algo && $c["status"] == "ok" && $c["bytes"] > 0 { print $c["bytes"] }' \
		"$outdir/$(tstem "$np").csv" 2>/dev/null | sort -nu)
	for b in 0 $sizes; do
		f=$outdir/mpi_traffic/np$np-$b$tag
		echo "== $np ranks: $algo at $b B under Open MPI's monitoring" >&2
		# each rank's totals (a file per rank) after the launch's output; one
		# prefix for every launch: the ranks exchange their environment
		# (cb_preflight), so a longer name there is traffic of its own
		cb_monitoring_env "$outdir/mpi_traffic/mon"
		cb_group env "${cb_monitoring_vars[@]}" "${cb_cmd[@]}" "$bin/allreduce_perf" \
			"${args[@]}" "${extra[@]}" "${a[@]}" -b "$b" -e "$b" --csv "$f.csv" >"$f.txt" 2>&1 ||
			{ echo "sweep.sh: the monitored launch ($np ranks, $algo, $b B) failed: $f.txt" >&2; return 1; }
		cb_monitoring_collect "$outdir/mpi_traffic/mon" "$f.txt" ||
			{ echo "sweep.sh: the monitored launch ($np ranks, $algo, $b B) wrote no totals (mon.<rank>.prof)" >&2; return 1; }
		# allreduce calls: rows x (warm-up + iterations); --repeat 1, no check
		rows=$(awk -F, 'NR > 1 && $0 ~ /,ok,/' "$f.csv" | wc -l)
		calls=$((rows * 3))
		[ "$b" != 0 ] || { rows0=$rows f0=$f.txt; continue; }
		[ "$rows" -gt 0 ] && [ "$rows" = "$rows0" ] ||
			{ echo "sweep.sh: monitored launches of $algo: $rows rows at $b B, $rows0 at 0 B" >&2; return 1; }
		results traffic -a "$algo" -n "$np" -b "$b" -c "$calls" --append "$outdir/mpi_traffic.txt" \
			"$f0" "$f.txt" || return 1
	done
}

# fill_traffic NP: the measured mpi traffic (mpi_traffic.txt) into the NP-rank launch's files
# (np<NP>.csv, .ranks.csv, .jsonl, .txt), each in its form (collbench-results set-traffic);
# summary.csv and ranks.csv are merged from them, so every file of the run says the same.
# Returns 1 (said) when a file cannot be rewritten.
fill_traffic() {
	local np=$1 f files=()
	[ -s "$outdir/mpi_traffic.txt" ] || return 0
	for f in csv ranks.csv jsonl txt; do
		[ ! -s "$outdir/$(tstem "$np").$f" ] || files+=("$outdir/$(tstem "$np").$f")
	done
	[ ${#files[@]} = 0 ] || results set-traffic -n "$np" "$outdir/mpi_traffic.txt" "${files[@]}" || {
		echo "sweep.sh: cannot write the mpi traffic into the $np-rank files (above)" >&2
		return 1
	}
}

# launch_np NP COLL: the NP-rank launch of COLL, its table on stdout and in
# <stem>.txt; "launch copy" statuses into the scratch file <stem>.rc
# (returns 1, said, when that cannot be written)
launch_np() {
	local st s
	s=$(stem "$1" "$2")
	"${cb_cmd[@]}" "$bin/allreduce_perf" "${args[@]}" "${extra[@]}" --coll "$2" \
		--csv "$outdir/$s.csv" --rank-csv "$outdir/$s.ranks.csv" --json "$outdir/$s.jsonl" \
		--meta "$outdir/$s.meta.json" | tee "$outdir/$s.txt"
	st="${PIPESTATUS[*]}"
	cb_write "$scratch/$s.rc" echo "$st" || { echo "sweep.sh: $cb_write_why" >&2; return 1; }
}

# launch_one NP COLL: one launch and what became of it (status, failures);
# returns 1 when a signal stopped it
launch_one() {
	local np=$1 coll=$2 st what="" launch=1 copy=0
	st=$(stem "$np" "$coll")
	[ "$colls" = "allreduce " ] || what=" of $coll"
	echo "== $np ranks$what${cb_launch_note:+ ($cb_launch_note)}${cb_layout:+ on $cb_layout}" >&2
	rm -f "$scratch/$st.rc"
	cb_group launch_np "$np" "$coll" || true
	if [ -s "$scratch/$st.rc" ]; then
		read -r launch copy <"$scratch/$st.rc"
	elif [ -z "$cb_stopped" ]; then
		fail_run "the $np-rank launch's status could not be written to $scratch/$st.rc (above)"
	fi
	if [ -n "$cb_stopped" ]; then
		echo "sweep.sh: stopped by SIG$cb_stopped during the $np-rank launch$what (rows written so far are kept)" >&2
		status=1
		return 1
	fi
	if [ "$launch" != 0 ]; then
		echo "sweep.sh: the $np-rank launch$what failed (exit $launch; rows written so far are kept)" >&2
		status=1 failures+=("the $np-rank launch$what failed (exit $launch)")
	fi
	if [ "$copy" != 0 ]; then # tee said which of the two ($st.txt or stdout)
		echo "sweep.sh: the $np-rank table could not be written to $outdir/$st.txt or stdout" >&2
		status=1 failures+=("the $np-rank table could not be written to $st.txt or stdout")
	fi
	return 0
}

oversub_list=() status=0 layouts=() traffic_note="" failures=()
# the contention measure (lib.sh, as regress.sh's): other work's share of the
# CPUs while the launches ran, into meta.json
cb_children_cpu "$scratch/times" || fail_run "cannot write the scratch file $scratch/times"
own0=$cb_cpu busy0=$(cb_busy_seconds) t0=$(date +%s.%N)
if [ "$mpi_traffic" = 1 ]; then
	traffic_note=$(cb_monitoring_missing) || echo "sweep.sh: --mpi-traffic: $traffic_note" >&2
fi
for np in $nps; do
	[ -z "$cb_stopped" ] || break
	cb_launch_cmd "$np" "${fwd[@]}" || exit 2
	[ -z "$cb_launch_note" ] || oversub_list+=("$np")
	[ ${#cb_host_names[@]} = 0 ] || layouts+=("hosts.ranks_per_host.$np=$cb_layout")
	for coll in $colls; do
		launch_one "$np" "$coll" || break
	done
	[ -z "$cb_stopped" ] || break
	if [ "$mpi_traffic" = 1 ] && [ -z "$traffic_note" ] && ! mpi_traffic_np "$np"; then
		traffic_note="not measured: a monitored launch failed (sweep.sh's messages)"
		status=1 failures+=("a monitored launch of --mpi-traffic failed at $np ranks")
	elif [ "$mpi_traffic" = 1 ] && [ -z "$traffic_note" ] && ! fill_traffic "$np"; then
		traffic_note="not recorded: a results file could not be rewritten (sweep.sh's messages)"
		status=1 failures+=("the measured mpi traffic could not be written into the $np-rank files")
	fi
done

busy1=$(cb_busy_seconds) t1=$(date +%s.%N)
cb_children_cpu "$scratch/times" || fail_run "cannot write the scratch file $scratch/times"
run_status=complete run_error=""
if [ $status != 0 ]; then
	run_status=failed
	run_error=$(IFS=';'; echo "${failures[*]}")
	run_error=${run_error//;/; }
fi
[ -z "$cb_stopped" ] || { run_status=aborted status=$((128 + $(cb_signum "$cb_stopped"))); }
other=$(cb_other_share "$busy0" "$busy1" "$own0" "$cb_cpu" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

# merged files: one header, every launch's rows
merge() {
	local np coll ins=()
	for np in $nps; do
		for coll in $colls; do ins+=("$outdir/$(stem "$np" "$coll").$1"); done
	done
	results merge "$2" "${ins[@]}"
}
merge csv "$outdir/summary.csv" || fail_run "$results_why"
merge ranks.csv "$outdir/ranks.csv" || fail_run "$results_why"

# Open MPI's forced algorithms: which one the default mpi rows ran (collbench-model check
# --library), as a table, CSV (plot.sh's library_choice) and JSON; none without both kinds of row
if [ "$forced_mpi" = 1 ] && [ -x "$bin/collbench-model" ]; then
	for f in table:txt csv:csv json:json; do
		# into the scratch folder, then placed whole (collbench-results place)
		"$bin/collbench-model" check --library --format "${f%%:*}" "$outdir" \
			>"$scratch/library_choice.${f#*:}" 2>/dev/null &&
			results place "$scratch/library_choice.${f#*:}" "$outdir/library_choice.${f#*:}" ||
			true
	done
fi

# meta.json, as KEY=VALUE words (collbench-results run-meta --keys lists them)
meta=("run_id=$run_id" "host=$host" "machine=$machine" "created_utc=$stamp" "backend=$backend"
	"rank_counts=$(echo $nps | tr ' ' ,)" "cpus_online=$cpus"
	"oversubscribed_rank_counts=$(IFS=,; echo "${oversub_list[*]}")" "other_cpu_percent=$other"
	"run_as_root=$as_root")
mapfile -t -O ${#meta[@]} meta < <(cb_launcher_fields)
if [ ${#cb_host_names[@]} -gt 0 ]; then
	meta+=("hosts.list=$(cb_hosts_text)" "${layouts[@]}")
else
	meta+=("hosts=")
fi
meta+=("mpirun_args=${CB_MPIRUN_ARGS:-}" "transport=$transport")
if [ "$mpi_traffic" = 0 ]; then
	meta+=("mpi_traffic.status=not asked (sweep.sh --mpi-traffic measures it)")
elif [ -n "$traffic_note" ]; then
	meta+=("mpi_traffic.status=$traffic_note")
else
	meta+=("mpi_traffic.status=measured" "mpi_traffic.method=$cb_monitoring_method"
		"mpi_traffic.per_rank=mpi_traffic.txt (nranks bytes rank tx_bytes rx_bytes calls), launches in mpi_traffic/")
fi
if [ "$default_malloc" = 0 ]; then
	meta+=("malloc=MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184")
else
	meta+=("malloc=glibc defaults")
fi
coll_words=""
[ "$colls" = "allreduce " ] || coll_words=" --coll $(echo $colls | tr ' ' ,)"
meta+=("sweep=-b $minb -e $maxb -f $factor -n $iters -w $warmup -c $check --repeat $repeat${algos:+ --algo $algos}$coll_words"
	"status=$run_status" "error=$run_error" "stopped_by=${cb_stopped:+SIG$cb_stopped}")
results run-meta "$outdir/meta.json" "${meta[@]}" || fail_run "$results_why"
echo "sweep.sh: results in $outdir" >&2
# the load the run shared the CPUs with, as bench.sh's summary says it
# (bench.sh, which says it there, sets CB_SWEEP_LOAD=0)
[ "${CB_SWEEP_LOAD:-1}" = 0 ] || cb_bench_load "$outdir" >&2
# the history holds finished runs only
if [ -n "$history" ] && [ $status != 0 ]; then
	echo "sweep.sh: history: the run is $run_status: not added to $history" >&2
elif [ -n "$history" ]; then
	cb_history_ingest "$bin" "$history" "$outdir" || status=3
fi
exit $status
