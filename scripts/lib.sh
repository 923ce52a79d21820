# shellcheck shell=bash
# lib.sh: sourced by sweep.sh, regress.sh, plot.sh and bench.sh.
#  - output folders that two runs never share: a default folder is created
#    with mkdir, which is atomic (the first run gets NAME, the next NAME-2, ...);
#    an explicit one is claimed by creating a file in it with O_EXCL, and one
#    that already holds files is refused unless the caller overwrites;
#  - text for JSON and for plot titles under the rule of bench/common/cb_text.h: a
#    byte that is not part of valid UTF-8 becomes the four characters \xHH;
#  - sweep.sh's option letters and their long names (regress.sh passes
#    sweep options on and reads them from a baseline's regress.conf);
#  - how much of the CPUs other work took while a command ran (regress.sh's
#    contention warning, test.sh's report);
#  - adding a run folder to the history database (sweep.sh and regress.sh
#    --history).
#  - how ranks are launched here: mpirun, or srun inside a Slurm allocation
#    (sweep.sh), and the default run id.
# Functions print their errors on stderr prefixed with $PROG and return 2.

# cb_text STRING: STRING with each byte outside a valid UTF-8 sequence as \xHH
# (lower-case hex), everything else unchanged. (perl is in every Debian.)
cb_text() {
	perl -e '
		my $s = $ARGV[0];
		$s =~ s/([\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})|(.)/defined $1 ? $1 : sprintf("\\x%02x", ord $2)/gse;
		print $s' -- "$1"
}

# cb_json_str STRING: a JSON string literal of cb_text STRING (backslash,
# quote and control characters escaped as JSON wants).
cb_json_str() {
	perl -e '
		my $s = $ARGV[0];
		$s =~ s/([\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})|(.)/defined $1 ? $1 : sprintf("\\x%02x", ord $2)/gse;
		$s =~ s/(["\\])/\\$1/g;
		$s =~ s/([\x00-\x1f\x7f])/sprintf("\\u%04x", ord $1)/ge;
		print "\"$s\""' -- "$1"
}

# cb_gp_str STRING: a gnuplot single-quoted string of cb_text STRING (a quote
# is written twice).
cb_gp_str() {
	local s
	s=$(cb_text "$1")
	printf "'%s'" "${s//\'/\'\'}"
}

# cb_new_dir PARENT NAME: creates PARENT/NAME, else PARENT/NAME-2, -3, ...
# (the first that mkdir creates: never a folder another run holds) and prints
# its path. Returns 2 (said) when none can be created.
cb_new_dir() {
	local parent=$1 name=$2 dir i=1
	mkdir -p -- "$parent" || { echo "$PROG: cannot create $parent" >&2; return 2; }
	dir=$parent/$name
	until mkdir -- "$dir" 2>/dev/null; do
		if [ ! -e "$dir" ] || [ $i -ge 1000 ]; then
			echo "$PROG: cannot create a folder in $parent (tried $dir)" >&2
			return 2
		fi
		i=$((i + 1))
		dir=$parent/$name-$i
	done
	printf '%s\n' "$dir"
}

# cb_claim_dir DIR CLAIM OVERWRITE [PATTERN...]: makes DIR this run's output
# folder: creates it (and its parents) or takes an existing empty one, then
# creates DIR/CLAIM exclusively (O_EXCL: of two runs that found DIR empty, one
# gets it). A DIR that holds files is refused unless OVERWRITE is 1; then the
# files matching PATTERNs (globs, the caller's own output names) are removed
# first, other files are left. Returns 2 (said) on refusal.
cb_claim_dir() {
	local dir=$1 claim=$2 overwrite=$3 p
	shift 3
	mkdir -p -- "$dir" 2>/dev/null || { echo "$PROG: cannot create the folder $dir" >&2; return 2; }
	if [ -n "$(ls -A -- "$dir")" ]; then
		if [ "$overwrite" != 1 ]; then
			echo "$PROG: $dir already holds files (another run's?): give a new folder, or" \
				"--overwrite to replace this tool's files there" >&2
			return 2
		fi
		for p in "$claim" "$@"; do
			# shellcheck disable=SC2086 # p is a glob of the caller's file names
			(cd -- "$dir" && rm -f -- $p) || return 2
		done
	fi
	if ! (set -C && : >"$dir/$claim") 2>/dev/null; then
		echo "$PROG: $dir was taken by another run at the same time: give another folder" >&2
		return 2
	fi
}

# cb_sweep_long OPTION: sweep.sh's long name for OPTION. Its letters mean what
# they mean to allreduce_perf (-b -e -f -a -B -R -w -c); the deprecated -n
# (rank counts), -i (iterations) and -o (run folder) map to --ranks, --iters
# and --out. Anything else is printed unchanged.
cb_sweep_long() {
	case $1 in
	-b) echo --minbytes ;;
	-e) echo --maxbytes ;;
	-f) echo --stepfactor ;;
	-a) echo --algo ;;
	-B) echo --backend ;;
	-R) echo --repeat ;;
	-w) echo --warmup_iters ;;
	-c) echo --check ;;
	-h) echo --help ;;
	-n) echo --ranks ;;
	-i) echo --iters ;;
	-o) echo --out ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# cb_sweep_deprecated LETTER: the note on stderr for sweep.sh's old -n, -i, -o
# (they meant other things than allreduce_perf's -n, -i and -o).
cb_sweep_deprecated() {
	local what
	case $1 in
	-n) what="rank counts; to allreduce_perf -n is the iteration count" ;;
	-i) what="iterations; to allreduce_perf -i is the size step" ;;
	-o) what="run folder; to allreduce_perf -o is the reduction op" ;;
	*) return 0 ;;
	esac
	echo "$PROG: note: $1 ($what) is deprecated: use $(cb_sweep_long "$1")" >&2
}

# cb_busy_seconds: the CPU seconds the whole machine has spent busy (user,
# nice, system, irq, softirq, and steal: time the hypervisor gave to other
# guests), from /proc/stat; 0 where there is none.
cb_busy_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' \
		/proc/stat 2>/dev/null || echo 0
}

# cb_children_cpu FILE: sets cb_cpu to the CPU seconds (user + system) of this
# shell's finished children. Call it in this shell, never in a pipe or $(...):
# a subshell has no children of its own. FILE: a scratch file.
cb_children_cpu() {
	times >"$1"
	# shellcheck disable=SC2034 # the caller reads it
	cb_cpu=$(tail -n 1 "$1" |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } print t }')
}

# cb_other_share BUSY0 BUSY1 OWN0 OWN1 WALL: the percent (0-100, rounded) of
# the CPUs (nproc) that other work used during WALL seconds: the machine's
# busy seconds (cb_busy_seconds) minus our own (cb_children_cpu), over WALL x
# CPUs.
cb_other_share() {
	awk -v c="$(nproc)" -v b0="$1" -v b1="$2" -v o0="$3" -v o1="$4" -v wall="$5" 'BEGIN {
		share = wall > 0 ? ((b1 - b0) - (o1 - o0)) / (wall * c) : 0
		printf "%.0f\n", (share > 0 ? 100 * share : 0) }'
}

# cb_history_opt DEFAULT INLINE VALUE [NEXT]: the --history [DB] option of
# sweep.sh and regress.sh, whose value is optional: VALUE when it was given
# inline (INLINE 1: --history=DB), else NEXT, the word after the option, when
# there is one that is not an option, else DEFAULT. Sets cb_history (the
# database) and cb_history_take (the words used: 1 or 2). Returns 2 (said)
# for an empty path.
# shellcheck disable=SC2034 # the caller reads cb_history_take
cb_history_opt() {
	cb_history=$1 cb_history_take=1
	if [ "$2" = 1 ]; then
		cb_history=$3
	elif [ $# -ge 4 ] && [ -n "$4" ] && [ "${4#-}" = "$4" ]; then
		cb_history=$4 cb_history_take=2
	fi
	[ -n "$cb_history" ] || { echo "$PROG: --history: an empty path" >&2; return 2; }
}

# cb_history_usable BIN DB: before a run, whether its ingest into the history
# DB can work: collbench-history built, DB's folder there (created if not),
# and DB, when it exists, a collbench history this build can read. Returns 2
# (said) if not.
cb_history_usable() {
	local bin=$1 db=$2
	[ -x "$bin/collbench-history" ] ||
		{ echo "$PROG: --history: $bin/collbench-history not built (cmake --build build)" >&2; return 2; }
	mkdir -p -- "$(dirname -- "$db")" 2>/dev/null ||
		{ echo "$PROG: --history: cannot create the folder of $db" >&2; return 2; }
	if [ -e "$db" ] && ! "$bin/collbench-history" runs --db "$db" >/dev/null; then
		echo "$PROG: --history: $db cannot be used as the history (above)" >&2
		return 2
	fi
}

# cb_history_ingest BIN DB RUN_DIR: adds the run folder to the history DB
# (collbench-history ingest: one transaction, a run already there changes
# nothing). On failure the run folder stays as it is, and the message says
# how to add it later; returns 3.
cb_history_ingest() {
	local bin=$1 db=$2 dir=$3
	if "$bin/collbench-history" ingest --db "$db" "$dir" >&2; then
		echo "$PROG: history: $dir is in $db" >&2
		return 0
	fi
	echo "$PROG: error: adding the run to the history $db failed (above). The run folder $dir" \
		"is kept as it is; add it later with: $bin/collbench-history ingest --db $db $dir" >&2
	return 3
}

# cb_default_backend BIN: cuda when nvidia-smi shows a GPU and BIN/allreduce_perf
# has the cuda backend built, else host
cb_default_backend() {
	if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
		"$1/allreduce_perf" --help 2>/dev/null | grep -q 'backends built: .*cuda'; then
		echo cuda
	else
		echo host
	fi
}

# ---- launching ranks (sweep.sh) ---------------------------------------------
# How N ranks start here, decided in one place (issue 10 extends it with host
# lists). Outside Slurm: mpirun, with --oversubscribe above the CPU count.
# Inside a Slurm allocation (SLURM_JOB_ID set, as in an sbatch job or salloc):
# srun --mpi=<PMIx plugin> when srun offers one (srun --mpi=list), else
# mpirun, which reads the allocation (nodes, slots) by itself; never
# --oversubscribe or --host there: the allocation says where ranks may go.
# CB_LAUNCHER=mpirun|srun overrides the choice (srun only inside an allocation).

# cb_run_name HOST STAMP: the default run id, HOST-STAMP (STAMP: the UTC
# time, %Y%m%dT%H%M%SZ), with -slurm<job id> inside a Slurm allocation (the
# same job id as meta.json's "launcher")
cb_run_name() {
	printf '%s-%s%s\n' "$1" "$2" "${SLURM_JOB_ID:+-slurm$SLURM_JOB_ID}"
}

# cb_slurm_tasks_list: the allocation's task count of each node, in order, one
# a line, from SLURM_TASKS_PER_NODE ("2(x3),1" is 2 2 2 1)
cb_slurm_tasks_list() {
	local item n k
	for item in ${SLURM_TASKS_PER_NODE//,/ }; do
		n=${item%%(*} k=1
		case $item in *'(x'*')') k=${item#*(x} k=${k%)} ;; esac
		case $n$k in '' | *[!0-9]*) continue ;; esac
		while [ "$k" -gt 0 ]; do echo "$n"; k=$((k - 1)); done
	done
}

# cb_launcher_pick: sets, once per run, cb_launcher (mpirun or srun),
# cb_launcher_mpi (srun's --mpi plugin, "" for mpirun), cb_in_slurm (1 inside
# an allocation) and cb_slurm_tasks (the allocation's task count, 0 outside).
# Returns 2 (said) when CB_LAUNCHER asks for what cannot work.
cb_launcher_pick() {
	local want=${CB_LAUNCHER:-} p
	cb_launcher=mpirun cb_launcher_mpi="" cb_in_slurm=0 cb_slurm_tasks=0
	[ -z "${SLURM_JOB_ID:-}" ] || cb_in_slurm=1
	case $want in
	'' | mpirun) ;;
	srun) [ $cb_in_slurm = 1 ] || { echo "$PROG: CB_LAUNCHER=srun outside a Slurm allocation" \
		"(no SLURM_JOB_ID): use sbatch or salloc, or mpirun" >&2; return 2; } ;;
	*) echo "$PROG: CB_LAUNCHER='$want': not mpirun or srun" >&2; return 2 ;;
	esac
	if [ $cb_in_slurm = 1 ] && [ ${#cb_host_names[@]} -gt 0 ]; then
		echo "$PROG: --hosts/--hostfile: inside a Slurm allocation the allocation says where" \
			"ranks go (srun, or mpirun reading it): leave them out" >&2
		return 2
	fi
	[ $cb_in_slurm = 1 ] || return 0
	for p in $(cb_slurm_tasks_list); do cb_slurm_tasks=$((cb_slurm_tasks + p)); done
	[ "$want" != mpirun ] || return 0
	# the PMIx plugin: "pmix" (Slurm's default version) when listed, else the
	# first versioned one (pmix_v3, pmix_v4, ...); Open MPI's ranks need PMIx
	p=""
	! command -v srun >/dev/null || p=$(srun --mpi=list 2>&1 | grep -o 'pmix[_v0-9]*' | sort -u | head -n 1)
	if [ -n "$p" ]; then
		cb_launcher=srun cb_launcher_mpi=$p
	elif [ "$want" = srun ]; then
		echo "$PROG: CB_LAUNCHER=srun, but srun offers no PMIx plugin (srun --mpi=list)" >&2
		return 2
	else
		echo "$PROG: note: srun offers no PMIx plugin (srun --mpi=list): launching with mpirun" >&2
	fi
}

# cb_launch_cmd NP VAR...: sets the array cb_cmd to the command that starts NP
# ranks (the program and its arguments follow it), passing the environment
# variables VAR on (srun passes the whole environment), and cb_launch_note to
# what a reader should know ("" or "oversubscribed: ..."). Inside an
# allocation srun gets the fewest nodes that hold NP tasks (-N), so ranks fill
# a node before the next, as mpirun places them. Call cb_launcher_pick first.
# Returns 2 (said) when NP exceeds the allocation's tasks.
cb_launch_cmd() {
	local np=$1 v nodes=0 sum=0 t
	shift
	# shellcheck disable=SC2034 # the caller reads it
	cb_launch_note=""
	if [ "$cb_in_slurm" = 1 ] && [ "$np" -gt "$cb_slurm_tasks" ]; then
		echo "$PROG: $np ranks: the Slurm allocation has $cb_slurm_tasks tasks" \
			"(SLURM_TASKS_PER_NODE=${SLURM_TASKS_PER_NODE:-unset}); ask sbatch/salloc for more" \
			"(--ntasks-per-node, --nodes)" >&2
		return 2
	fi
	if [ "$cb_launcher" = srun ]; then
		for t in $(cb_slurm_tasks_list); do
			[ $sum -lt "$np" ] || break
			sum=$((sum + t)) nodes=$((nodes + 1))
		done
		cb_cmd=(srun "--mpi=$cb_launcher_mpi" --kill-on-bad-exit=1 -N "$nodes" -n "$np")
		return 0
	fi
	cb_cmd=(mpirun)
	for v in "$@"; do cb_cmd+=(-x "$v"); done
	# shellcheck disable=SC2206 # CB_MPIRUN_ARGS: words, as on a command line
	[ -z "${CB_MPIRUN_ARGS:-}" ] || cb_cmd+=($CB_MPIRUN_ARGS)
	if [ ${#cb_host_names[@]} -gt 0 ]; then
		cb_hosts_layout "$np" || return 2
		cb_cmd+=(--host "$cb_layout" -np "$np")
		return 0
	fi
	if [ "$cb_in_slurm" = 0 ] && [ "$np" -gt "$(nproc)" ]; then
		cb_cmd+=(--oversubscribe)
		# shellcheck disable=SC2034 # the caller reads it
		cb_launch_note="oversubscribed: $np ranks on $(nproc) CPUs"
	fi
	cb_cmd+=(-np "$np")
}

# Hosts outside Slurm (sweep.sh --hosts, --hostfile): cb_host_names and
# cb_host_slots, in order; empty: this host only, as before.
cb_host_names=() cb_host_slots=()

# cb_hosts_parse LIST: reads "name[:slots],..." (mpirun's --host form; a name
# without slots has 1, as for mpirun) into cb_host_names/cb_host_slots.
# Returns 2 (said) on a bad name or slot count, or a name given twice.
cb_hosts_parse() {
	local item name slots n
	cb_host_names=() cb_host_slots=()
	for item in ${1//,/ }; do
		name=${item%%:*} slots=1
		[ "$name" = "$item" ] || slots=${item#*:}
		case $name in '' | *[!A-Za-z0-9._-]*)
			echo "$PROG: hosts: '$name' is not a host name" >&2; return 2 ;; esac
		case $slots in '' | *[!0-9]* | 0)
			echo "$PROG: hosts: '$item': the slots after ':' must be a positive number" >&2; return 2 ;; esac
		for n in "${cb_host_names[@]}"; do
			[ "$n" != "$name" ] || { echo "$PROG: hosts: $name given twice" >&2; return 2; }
		done
		cb_host_names+=("$name") cb_host_slots+=("$((10#$slots))")
	done
	[ ${#cb_host_names[@]} -gt 0 ] || { echo "$PROG: hosts: no host given" >&2; return 2; }
}

# cb_hostfile_list FILE: an Open MPI hostfile ("name [slots=N] ...", # comments)
# as cb_hosts_parse's LIST on stdout. Returns 2 (said) when unreadable.
cb_hostfile_list() {
	[ -r "$1" ] && [ -f "$1" ] || { echo "$PROG: --hostfile: cannot read $1" >&2; return 2; }
	awk '{ sub(/#.*/, "") } NF { s = 1; for (i = 2; i <= NF; i++) if ($i ~ /^slots=/) s = substr($i, 7)
		printf "%s%s:%s", n++ ? "," : "", $1, s }' "$1"
}

# cb_hosts_layout NP: sets cb_layout to where NP ranks go, as mpirun's --host
# takes it: spread evenly over the hosts in order (NP/H each, the first
# NP%H one more; consecutive ranks share a host), at most each host's slots,
# the remainder to the next host with a free slot. Returns 2 (said) when NP
# exceeds the slots.
cb_hosts_layout() {
	local np=$1 h=${#cb_host_names[@]} i k total=0 left
	local -a on=()
	for i in "${!cb_host_names[@]}"; do total=$((total + cb_host_slots[i])); done
	if [ "$np" -gt "$total" ]; then
		echo "$PROG: $np ranks: the hosts have $total slots ($(cb_hosts_text)); give more slots" >&2
		return 2
	fi
	left=$np
	for i in "${!cb_host_names[@]}"; do
		k=$((np / h + (i < np % h ? 1 : 0)))
		[ "$k" -le "${cb_host_slots[i]}" ] || k=${cb_host_slots[i]}
		on+=("$k") left=$((left - k))
	done
	for i in "${!cb_host_names[@]}"; do
		k=$((cb_host_slots[i] - on[i]))
		[ "$k" -le "$left" ] || k=$left
		on[i]=$((on[i] + k)) left=$((left - k))
	done
	cb_layout=""
	for i in "${!cb_host_names[@]}"; do
		[ "${on[i]}" = 0 ] || cb_layout+="${cb_layout:+,}${cb_host_names[i]}:${on[i]}"
	done
}

# cb_hosts_text: the hosts as name:slots,... (for messages and metadata)
cb_hosts_text() {
	local i t=""
	for i in "${!cb_host_names[@]}"; do t+="${t:+,}${cb_host_names[i]}:${cb_host_slots[i]}"; done
	printf '%s\n' "$t"
}

# cb_json_or_null TEXT: cb_json_str TEXT, or null when TEXT is empty
cb_json_or_null() {
	if [ -n "$1" ]; then cb_json_str "$1"; else echo null; fi
}

# cb_launcher_json: meta.json's "launcher" object (after cb_launcher_pick):
# name (mpirun or srun), command (what started the ranks, before -N/-n/-np),
# job_id, nodelist, partition, tasks_per_node (SLURM_TASKS_PER_NODE's text):
# strings, null outside Slurm; nnodes: a number, null outside Slurm.
cb_launcher_json() {
	local cmd=mpirun nnodes=${SLURM_JOB_NUM_NODES:-null}
	[ "$cb_launcher" != srun ] || cmd="srun --mpi=$cb_launcher_mpi"
	case $nnodes in '' | *[!0-9]*) nnodes=null ;; esac
	printf '{"name": %s, "command": %s, "job_id": %s, "nodelist": %s, "partition": %s, ' \
		"$(cb_json_str "$cb_launcher")" "$(cb_json_str "$cmd")" "$(cb_json_or_null "${SLURM_JOB_ID:-}")" \
		"$(cb_json_or_null "${SLURM_JOB_NODELIST:-}")" "$(cb_json_or_null "${SLURM_JOB_PARTITION:-}")"
	printf '"tasks_per_node": %s, "nnodes": %s}' "$(cb_json_or_null "${SLURM_TASKS_PER_NODE:-}")" "$nnodes"
}

# ---- library traffic: Open MPI's monitoring (issue 10) ----------------------
# The pml "monitoring" component counts the bytes each process sends to each
# peer through the point-to-point layer (collectives' internal messages too)
# and prints the per-peer totals at MPI_Finalize (mpirun forwards them);
# scripts/mpi_traffic.awk reads them. The one-sided monitoring (osc) is left
# out: it breaks MPI_Win_allocate_shared (MPI_ERR_RMA_FLAVOR, Open MPI 4.1.4).
# Its MPI_T variables (pml_monitoring_messages_size) answer
# MPI_T_ERR_INVALID_INDEX at run time in that build, and coll_monitoring's
# count nominal bytes, not what moved: hence the printed totals.
# cb_monitoring_args: its mpirun options; cb_monitoring_env: the same as
# environment variables, which mpirun and srun both pass on.
# shellcheck disable=SC2034 # the callers read them
cb_monitoring_args=(--mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 1
	--mca osc ^monitoring)
# shellcheck disable=SC2034
cb_monitoring_env=(OMPI_MCA_pml_monitoring_enable=2 OMPI_MCA_pml_monitoring_enable_output=1
	OMPI_MCA_osc=^monitoring)
# shellcheck disable=SC2034
cb_monitoring_method="Open MPI pml monitoring (pml_monitoring_enable 2): per-peer bytes printed at MPI_Finalize (E and I lines, scripts/mpi_traffic.awk); a launch of the mpi algorithm alone at S bytes minus one at 0 bytes with the same settings, divided by its allreduce calls (rows x (warm-up + iterations))"
# cb_monitoring_missing: prints why Open MPI's monitoring cannot be used here
# and returns 1, or prints nothing and returns 0 when it can.
cb_monitoring_missing() {
	if ! command -v ompi_info >/dev/null; then
		echo "not measured: no ompi_info (not Open MPI?); its pml monitoring component is what measures library traffic"
		return 1
	fi
	if ! ompi_info 2>/dev/null | grep -q 'MCA pml: monitoring'; then
		echo "not measured: this Open MPI has no pml monitoring component (ompi_info)"
		return 1
	fi
}
