# shellcheck shell=bash
# lib_launch.sh: sourced by lib.sh (its callers: sweep.sh, regress.sh, bench.sh,
# the job scripts and tests): how ranks are launched (mpirun, or srun inside a
# Slurm allocation), on which hosts (sweep.sh --hosts, --hostfile), the run's
# launcher metadata, and Open MPI's monitoring for library traffic
# (sweep.sh --mpi-traffic). Functions print their errors on stderr prefixed
# with $PROG and return 2.

# ---- launching ranks (sweep.sh) ---------------------------------------------
# How N ranks start here, decided in one place (issue 10 extends it with host
# lists). Outside Slurm: mpirun, with --oversubscribe above the CPU count.
# Inside a Slurm allocation (SLURM_JOB_ID set, as in an sbatch job or salloc,
# and the scheduler confirms it: cb_slurm_confirm): srun --mpi=<PMIx plugin>
# when srun offers one (srun --mpi=list), else mpirun, which reads the
# allocation (nodes, slots) by itself; never --oversubscribe or --host
# there: the allocation says where ranks may go. Slurm variables the
# scheduler does not confirm (left in a shell by a finished job, e.g. in a
# tmux started inside one) are said and unset, and the run is made as
# outside Slurm: otherwise mpirun would read that job's node list too.
# CB_LAUNCHER=mpirun|srun overrides the choice (srun only inside an allocation).

# cb_run_name HOST STAMP: the default run id, HOST-STAMP (STAMP: the UTC
# time, %Y%m%dT%H%M%SZ), with -slurm<job id> inside a Slurm allocation that
# the scheduler confirms (cb_launcher_pick's verdict, else cb_slurm_confirm's:
# the same job id as meta.json's "launcher")
cb_run_name() {
	local job=""
	if [ -n "${SLURM_JOB_ID:-}" ]; then
		case ${cb_in_slurm:-} in
		1) job=$SLURM_JOB_ID ;;
		'') ! cb_slurm_confirm || job=$SLURM_JOB_ID ;;
		esac
	fi
	printf '%s-%s%s\n' "$1" "$2" "${job:+-slurm$job}"
}

# cb_slurm_tasks_list: the allocation's task count of each node, in order, one
# a line, from SLURM_TASKS_PER_NODE ("2(x3),1" is 2 2 2 1; unset or empty:
# nothing). Returns 2 (said) for an item that is not N or N(xK), or counts
# beyond any allocation (a node of more than 1e6 tasks, more than 1e5 nodes,
# 1e6 tasks in all): never a loop of 1e18 lines or a count that wraps.
cb_slurm_tasks_list() {
	local item n k nodes=0 sum=0 max=1000000 spec=${SLURM_TASKS_PER_NODE:-}
	for item in ${spec//,/ }; do
		n=${item%%(*} k=1
		case $item in *'(x'*')') k=${item#*(x} k=${k%)} ;; *'('*) k=x ;; esac
		case $n:$k in *[!0-9:]* | :* | *:) echo "$PROG: SLURM_TASKS_PER_NODE='$spec':" \
			"'$item' is not N or N(xK)" >&2; return 2 ;; esac
		# at most 7 digits before arithmetic: bash's integers wrap past 2^63
		if [ ${#n} -gt 7 ] || [ ${#k} -gt 7 ] || [ $((10#$n)) -gt $max ] ||
			[ $((nodes += 10#$k)) -gt $((max / 10)) ] || [ $((sum += 10#$n * 10#$k)) -gt $max ]; then
			echo "$PROG: SLURM_TASKS_PER_NODE='$spec': more than $max tasks" \
				"or $((max / 10)) nodes: not an allocation collbench can use" >&2
			return 2
		fi
		while [ "$k" -gt 0 ]; do echo "$((10#$n))"; k=$((k - 1)); done
	done
}

# cb_slurm_confirm: 0 when the scheduler says that job SLURM_JOB_ID is
# running on this host: squeue's state for it is RUNNING, and a squeue of
# its running jobs on this node (hostname -s, else SLURMD_NODENAME, Slurm's
# name for the node) lists it. Else 1, with the reason in cb_slurm_why: no
# squeue here, squeue's answer (an unknown job: purged after it ended), the
# state (COMPLETED, ...), or the nodes it runs on. Each squeue call is cut
# at 30 s.
cb_slurm_confirm() {
	local job=$SLURM_JOB_ID state node out
	cb_slurm_why=""
	if ! command -v squeue >/dev/null; then
		cb_slurm_why="there is no squeue here to confirm it"
		return 1
	fi
	if ! state=$(timeout 30 squeue -h -j "$job" -o %T 2>&1); then
		cb_slurm_why="squeue -j $job answers: ${state:-nothing}"
		cb_slurm_why=${cb_slurm_why%%$'\n'*}
		return 1
	fi
	state=${state%%$'\n'*}
	if [ "$state" != RUNNING ]; then
		cb_slurm_why="squeue says job $job is ${state:-not known}"
		return 1
	fi
	for node in "$(hostname -s)" "${SLURMD_NODENAME:-}"; do
		[ -n "$node" ] || continue
		out=$(timeout 30 squeue -h -j "$job" -t RUNNING -w "$node" -o %A 2>/dev/null) || continue
		[ "${out%%$'\n'*}" != "$job" ] || return 0
	done
	out=$(timeout 30 squeue -h -j "$job" -o %N 2>/dev/null) || out="?"
	cb_slurm_why="job $job runs on ${out%%$'\n'*}, not on this host ($(hostname -s))"
	return 1
}

# cb_launcher_pick: sets, once per run, cb_launcher (mpirun or srun),
# cb_launcher_mpi (srun's --mpi plugin, "" for mpirun), cb_in_slurm (1 inside
# an allocation the scheduler confirms), cb_slurm_tasks (the allocation's
# task count, 0 outside) and cb_slurm_ignored ("" or why the SLURM_*
# variables were set aside; they are unset then). Returns 2 (said) when
# CB_LAUNCHER asks for what cannot work.
cb_launcher_pick() {
	local want=${CB_LAUNCHER:-} p v
	cb_launcher=mpirun cb_launcher_mpi="" cb_in_slurm=0 cb_slurm_tasks=0 cb_slurm_ignored=""
	if [ -n "${SLURM_JOB_ID:-}" ] && cb_slurm_confirm; then
		cb_in_slurm=1
	elif [ -n "${SLURM_JOB_ID:-}" ]; then
		cb_slurm_ignored="SLURM_JOB_ID=$SLURM_JOB_ID is set, but $cb_slurm_why"
		echo "$PROG: note: $cb_slurm_ignored: not inside a Slurm allocation (variables left" \
			"by a finished job, e.g. in a tmux started inside one?); running as outside Slurm," \
			"without the SLURM_* variables" >&2
		while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^SLURMD?_')
	fi
	case $want in
	'' | mpirun) ;;
	srun) [ $cb_in_slurm = 1 ] || { echo "$PROG: CB_LAUNCHER=srun outside a Slurm allocation" \
		"(no SLURM_JOB_ID the scheduler confirms): use sbatch or salloc, or mpirun" >&2; return 2; } ;;
	*) echo "$PROG: CB_LAUNCHER='$want': not mpirun or srun" >&2; return 2 ;;
	esac
	if [ $cb_in_slurm = 1 ] && [ ${#cb_host_names[@]} -gt 0 ]; then
		echo "$PROG: --hosts/--hostfile: inside a Slurm allocation the allocation says where" \
			"ranks go (srun, or mpirun reading it): leave them out" >&2
		return 2
	fi
	[ $cb_in_slurm = 1 ] || return 0
	p=$(cb_slurm_tasks_list) || return 2
	for p in $p; do cb_slurm_tasks=$((cb_slurm_tasks + p)); done
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

# cb_host_bad NAME SLOTS: prints why NAME:SLOTS cannot be a host and its slots
# (a name of other than [A-Za-z0-9._-]; slots not a whole number in
# 1..999999) and returns 0; returns 1, printing nothing, when both are good.
cb_host_bad() {
	local s=$2
	case $1 in '' | *[!A-Za-z0-9._-]*) echo "'$(cb_text "$1")' is not a host name"; return 0 ;; esac
	while [ "${s#0}" != "$s" ]; do s=${s#0}; done
	case $s in '' | *[!0-9]*)
		echo "the slots must be a positive number, not '$(cb_text "$2")'"; return 0 ;; esac
	[ ${#s} -le 6 ] || { echo "$2 slots: more than any host has"; return 0; }
	return 1
}

# cb_hosts_parse LIST: reads "name[:slots],..." (mpirun's --host form; a name
# without slots has 1, as for mpirun) into cb_host_names/cb_host_slots.
# Returns 2 (said) on a bad name or slot count, or a name given twice.
cb_hosts_parse() {
	local item name slots n why
	cb_host_names=() cb_host_slots=()
	for item in ${1//,/ }; do
		name=${item%%:*} slots=1
		[ "$name" = "$item" ] || slots=${item#*:}
		if why=$(cb_host_bad "$name" "$slots"); then
			echo "$PROG: hosts: '$(cb_text "$item")': $why" >&2
			return 2
		fi
		for n in "${cb_host_names[@]}"; do
			[ "$n" != "$name" ] || { echo "$PROG: hosts: $name given twice" >&2; return 2; }
		done
		cb_host_names+=("$name") cb_host_slots+=("$((10#$slots))")
	done
	[ ${#cb_host_names[@]} -gt 0 ] || { echo "$PROG: hosts: no host given" >&2; return 2; }
}

# cb_hostfile_list FILE: a hostfile as cb_hosts_parse's LIST on stdout. Lines
# in Open MPI's form ("name [slots=N] [max_slots=M]") or MPICH's ("name:N"),
# "#" comments and blank lines; CRLF line ends and a UTF-8 byte-order mark
# (an editor's on Windows) are taken as the text they end or start. Returns 2
# (said, quoting the file's own line and its number) for a line that is
# neither, a bad name or slot count, a host given twice, or an unreadable
# file.
cb_hostfile_list() {
	local f=$1 raw line name slots w why n=0 list="" seen=" "
	local -a words
	[ -r "$f" ] && [ -f "$f" ] || { echo "$PROG: --hostfile: cannot read $f" >&2; return 2; }
	while IFS= read -r raw || [ -n "$raw" ]; do
		n=$((n + 1))
		raw=${raw%$'\r'}
		[ $n != 1 ] || raw=${raw#$'\xef\xbb\xbf'}
		line=${raw%%#*}
		read -r -a words <<<"$line"
		[ ${#words[@]} -gt 0 ] || continue
		name=${words[0]} slots=1 why=""
		case $name in *:*) slots=${name#*:} name=${name%%:*} ;; esac
		for w in "${words[@]:1}"; do
			case $w in
			slots=*) slots=${w#slots=} ;;
			max_slots=* | max-slots=*) ;;
			*) why="'$(cb_text "$w")' is not slots=N or max_slots=N" ;;
			esac
		done
		[ -n "$why" ] || why=$(cb_host_bad "$name" "$slots") || why=""
		[ -n "$why" ] || case $seen in *" $name "*) why="$name is on an earlier line too" ;; esac
		if [ -n "$why" ]; then
			echo "$PROG: --hostfile $(cb_text "$f"), line $n: '$(cb_text "$raw")': $why" \
				"(lines are 'name slots=N' or 'name:N')" >&2
			return 2
		fi
		seen+="$name " list+="${list:+,}$name:$((10#$slots))"
	done <"$f"
	[ -n "$list" ] || { echo "$PROG: --hostfile $(cb_text "$f"): no host in it" >&2; return 2; }
	printf '%s\n' "$list"
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

# cb_launcher_fields: meta.json's "launcher" members (after cb_launcher_pick),
# one KEY=VALUE line each for collbench-results run-meta: name (mpirun or
# srun), command (what started the ranks, before -N/-n/-np), job_id,
# nodelist, partition, tasks_per_node (SLURM_TASKS_PER_NODE's text), nnodes
# (empty, written null, outside Slurm), slurm_ignored (why the SLURM_*
# variables were left out, else empty)
cb_launcher_fields() {
	local cmd=mpirun nnodes=${SLURM_JOB_NUM_NODES:-}
	[ "$cb_launcher" != srun ] || cmd="srun --mpi=$cb_launcher_mpi"
	case $nnodes in *[!0-9]*) nnodes="" ;; esac
	printf 'launcher.%s\n' "name=$cb_launcher" "command=$cmd" "job_id=${SLURM_JOB_ID:-}" \
		"nodelist=${SLURM_JOB_NODELIST:-}" "partition=${SLURM_JOB_PARTITION:-}" \
		"tasks_per_node=${SLURM_TASKS_PER_NODE:-}" "nnodes=$nnodes" "slurm_ignored=${cb_slurm_ignored:-}"
}

# ---- library traffic: Open MPI's monitoring (issue 10) ----------------------
# The pml "monitoring" component counts the bytes each process sends to each
# peer through the point-to-point layer (collectives' internal messages too)
# and writes the per-peer totals at MPI_Finalize, each rank into a file of its
# own (pml_monitoring_enable_output 3: <pml_monitoring_filename>.<rank>.prof);
# collbench-results traffic reads them. Not to stderr (output 1): there the
# lines of two ranks run into each other in mpirun's forwarding, and a torn
# line drops a peer's total. The one-sided monitoring (osc) is left
# out: it breaks MPI_Win_allocate_shared (MPI_ERR_RMA_FLAVOR, Open MPI 4.1.4).
# Its MPI_T variables (pml_monitoring_messages_size) answer
# MPI_T_ERR_INVALID_INDEX at run time in that build, and coll_monitoring's
# count nominal bytes, not what moved: hence the written totals.
# cb_monitoring_env PREFIX: sets cb_monitoring_vars to the environment
# (mpirun and srun both pass it on) of a monitored launch whose ranks write
# PREFIX.<rank>.prof; cb_monitoring_collect PREFIX FILE appends them to FILE
# and removes them (1 when there are none).
cb_monitoring_env() {
	rm -f "$1".*.prof
	# shellcheck disable=SC2034 # the callers read it
	cb_monitoring_vars=(OMPI_MCA_pml_monitoring_enable=2 OMPI_MCA_pml_monitoring_enable_output=3
		OMPI_MCA_pml_monitoring_filename="$1" OMPI_MCA_osc=^monitoring)
}
cb_monitoring_collect() {
	local f found=1
	for f in "$1".*.prof; do
		[ -e "$f" ] || continue
		cat "$f" >>"$2" && rm -f "$f" && found=0
	done
	return $found
}
# shellcheck disable=SC2034
cb_monitoring_method="Open MPI pml monitoring (pml_monitoring_enable 2): per-peer bytes written at MPI_Finalize, a file per rank (pml_monitoring_enable_output 3, pml_monitoring_filename; E and I lines, collbench-results traffic); a launch of the library algorithm (mpi, mpi.*) alone at S bytes minus one at 0 bytes with the same settings, divided by its allreduce calls (rows x (warm-up + iterations))"
# cb_monitoring_missing: prints why Open MPI's monitoring cannot be used here
# and returns 1, or prints nothing and returns 0 when it can.
cb_monitoring_missing() {
	if ! command -v ompi_info >/dev/null; then
		echo "not measured: no ompi_info (not Open MPI?); its pml monitoring component is what measures library traffic"
		return 1
	fi
	if ! ompi_info 2>/dev/null | grep 'MCA pml: monitoring' >/dev/null; then
		echo "not measured: this Open MPI has no pml monitoring component (ompi_info)"
		return 1
	fi
}
