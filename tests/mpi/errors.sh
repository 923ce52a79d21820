#!/usr/bin/env bash
# Error handling: each case must end with a clear message on stderr and a
# non-zero exit within a bounded time; where rows were written, the results
# files hold only complete lines and the metadata says the run did not finish.
#   errors.sh BIN CASE
# CB_ERRORS_ARGS: more allreduce_perf options for the launches of run and
# of the long runs (tests/cuda_model gives "-B cuda": the same cases on the
# cuda backend, on a host model of CUDA and NCCL).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
read -r -a extra <<<"${CB_ERRORS_ARGS:-}"
out=$(mktemp -d)
job=
# never leave a background job behind, whatever fails
cleanup() {
	if [ -n "$job" ]; then
		kill -9 "$job" 2>/dev/null
		pkill -9 -f "^$bin/allreduce_perf -b 4K -e 16M -i 4K" 2>/dev/null
	fi
	rm -rf "$out"
}
trap cleanup EXIT
export -f cb_mpirun cb_singleton cb_launch_env

# run NP EXPECTED_STATUS PATTERN ARGS...: runs allreduce_perf on NP ranks
# (at most 60 s), expects exit status EXPECTED_STATUS ("nonzero" for any
# failure) and PATTERN on stderr.
run() {
	local np=$1 want=$2 pattern=$3 rc
	shift 3
	# mpirun waits a second before it SIGKILLs what a failed job left, twice
	# (2.3 s a case here); these cases fail on their own, every rank: no wait
	OMPI_MCA_odls_base_sigkill_timeout=0 timeout 60 bash -c 'cb_mpirun "$@"' _ -np "$np" \
		"$bin/allreduce_perf" "$@" "${extra[@]}" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || fail "timed out (hang) for: $*"
	if [ "$want" = nonzero ]; then
		[ "$rc" != 0 ] || fail "exit 0 for: $*"
	else
		[ "$rc" = "$want" ] || { cat "$out/stderr" >&2; fail "exit $rc, expected $want for: $*"; }
	fi
	if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$out/stderr"; then
		cat "$out/stderr" >&2
		fail "no '$pattern' on stderr for: $*"
	fi
	[ ! -e "$out/s.csv" ] || cb_complete_lines "$out/s.csv"
}

# start_long ARGS...: starts a long 4-rank run in the background (pid in
# job) and waits for its first row.
start_long() {
	rm -f "$out/s.csv" "$out/r.csv" "$out/s.meta.json"
	cb_mpirun -np 4 "$bin/allreduce_perf" -b 4K -e 16M -i 4K -n 200 -w 0 -c 0 "$@" "${extra[@]}" \
		--csv "$out/s.csv" --rank-csv "$out/r.csv" >"$out/stdout" 2>"$out/stderr" &
	job=$!
	rows() { { wc -l <"$out/s.csv"; } 2>/dev/null || echo 0; }
	for _ in $(seq 900); do # a sanitizer build on 2 busy cores starts slowly
		[ "$(rows)" -ge 2 ] && break
		kill -0 "$job" 2>/dev/null || break
		sleep 0.1
	done
	[ "$(rows)" -ge 2 ] || { cat "$out/stderr" >&2; fail "no row was written"; }
}

# The pids of the long run's ranks, in start order.
ranks_of_long() {
	pgrep -f "^$bin/allreduce_perf (--inplace 0 )?-b 4K -e 16M -i 4K .*--csv $out/s.csv"
}

# end_long WHAT PATTERN: expects the long run to end non-zero within 60 s
# after WHAT, with PATTERN on stderr, complete result files and metadata that
# does not say complete.
end_long() {
	local what=$1 pattern=$2 rc
	for _ in $(seq 600); do
		kill -0 "$job" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$job" 2>/dev/null && fail "job still running 60 s after $what"
	wait "$job"
	rc=$?
	job=
	[ "$rc" != 0 ] || fail "exit 0 after $what"
	grep -q -- "$pattern" "$out/stderr" || { cat "$out/stderr" >&2; fail "no '$pattern' on stderr"; }
	cb_complete_lines "$out/s.csv"
	cb_complete_lines "$out/r.csv"
	if grep -q '"status": "complete"' "$out/s.meta.json"; then
		fail "metadata says complete after a failed run"
	fi
	no_failed_rows
}

# No row of a measurement a rank saw fail ("ALGO failed in PHASE at BYTES B"
# on stderr): a row is written only when every rank measured it.
no_failed_rows() {
	local algo bytes
	while IFS=, read -r algo bytes; do
		awk -F, -v a="$algo" -v b="$bytes" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["algo"] == a && $c["bytes"] == b { exit 1 }' "$out/s.csv" ||
			fail "a row of $algo at $bytes B, a measurement that failed on a rank"
	done < <(sed -n 's/^collbench: rank [0-9]*: \([a-z0-9_.]*\) failed in .* at \([0-9]*\) B: .*/\1,\2/p' \
		"$out/stderr" | sort -u)
}

# Starts a long run, waits for its first row, then hurts one rank (its pid
# in victim) with SIGNAL; expects the job to end non-zero within 60 s.
hurt_a_rank() {
	local signal=$1 pattern=$2
	shift 2
	start_long "$@"
	victim=$(ranks_of_long | tail -n 1)
	[ -n "$victim" ] || fail "no rank process found"
	kill "-$signal" "$victim"
	end_long "SIGNAL $signal to one rank" "$pattern"
}

case $case in
unknown_algo) run 2 2 "unknown algorithm 'tree'" --algo ring,tree ;;
unknown_dtype) run 2 2 "unknown name 'float8'" -d float8 ;;
unknown_op) run 2 2 "unknown name 'mean'" -o mean ;;
min_gt_max) run 2 2 "larger than -e/--maxbytes" -b 64M -e 8 ;;
negative_size) run 2 2 "is not a size" -b -8 ;;
garbage_size) run 2 2 "is not a size" -e 12Q ;;
not_multiple) run 2 2 "not a multiple of float's 4 bytes" -b 6 -e 6 ;;
bad_root) run 2 2 "there are only 2 ranks" -r 5 ;;
wrong_backend) # nccl: "does not run on the host backend", or not built at all
	run 2 2 "nccl does not run on the host backend\|unknown algorithm 'nccl'" --algo nccl -b 8 -e 8 ;;
unwritable_csv) run 2 2 "cannot write.* /nonexistent/dir/s" -b 8 -e 8 --csv /nonexistent/dir/s.csv ;;
mismatch)
	# MPMD launch: rank 1 gets another -e than rank 0
	timeout 60 bash -c 'cb_mpirun -np 1 "$1" -b 8 -e 64M -f 2 : -np 1 "$1" -b 8 -e 32M -f 2' \
		_ "$bin/allreduce_perf" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || fail "hang on mismatched arguments"
	[ "$rc" != 0 ] || fail "exit 0 on mismatched arguments"
	[ "$(grep -c 'ranks differing from rank 0: 1 (maxbytes)' "$out/stderr")" = 2 ] ||
		{ cat "$out/stderr" >&2; fail "every rank must name rank 1 and maxbytes"; }
	;;
env_mismatch)
	# a setting that changes a measurement, set on one rank only (the wait
	# strategy's CB_WAIT_SPIN_NS; the machine label; an allocator variable
	# with another value): refused before any timed work (exit 2, no results
	# file), naming the rank, the variable and both values (no SIGKILL wait,
	# as in run())
	export OMPI_MCA_odls_base_sigkill_timeout=0
	for set in "CB_WAIT_SPIN_NS=500" "CB_MACHINE=other-label" "MALLOC_ARENA_MAX=2"; do
		rm -f "$out/s.csv"
		MALLOC_ARENA_MAX=4 timeout 60 bash -c 'cb_mpirun -np 1 "$1" -b 8 -e 8 --algo ring --csv "$2" : \
			-np 1 env "$3" "$1" -b 8 -e 8 --algo ring' _ "$bin/allreduce_perf" "$out/s.csv" "$set" \
			>"$out/stdout" 2>"$out/stderr"
		rc=$?
		[ "$rc" = 2 ] || { cat "$out/stderr" >&2; fail "$set on rank 1 only: exit $rc, expected 2"; }
		name=${set%%=*} val=${set#*=} was=unset
		[ "$name" != MALLOC_ARENA_MAX ] || was="'4'"
		grep -qF "differ between ranks (1 rank(s) differ from rank 0): rank 1: $name '$val' (rank 0: $was)" \
			"$out/stderr" || { cat "$out/stderr" >&2; fail "$set: no message naming rank 1 and $name"; }
		[ ! -e "$out/s.csv" ] || fail "$set: a results file was written"
	done
	# a variable that may differ by rank (a launcher's GPU binding) is
	# accepted, and recorded for each rank
	timeout 60 bash -c 'cb_mpirun -np 1 env CUDA_VISIBLE_DEVICES=0 "$1" -b 8 -e 8 --algo ring --csv "$2" : \
		-np 1 env CUDA_VISIBLE_DEVICES=1 "$1" -b 8 -e 8 --algo ring' _ "$bin/allreduce_perf" "$out/s.csv" \
		>"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" = 0 ] || { cat "$out/stderr" >&2; fail "CUDA_VISIBLE_DEVICES by rank: exit $rc, expected 0"; }
	tr -d ' \n' <"$out/s.meta.json" | grep -F '"environment_by_rank":{"CUDA_VISIBLE_DEVICES":["0","1"]}' >/dev/null ||
		{ cat "$out/s.meta.json" >&2; fail "CUDA_VISIBLE_DEVICES not recorded by rank"; } ;;
same_path)
	run 2 2 "name the same file" -b 8 -e 8 --csv "$out/s.csv" --meta "$out/s.csv"
	# the same file spelled otherwise: refused alike, nothing written
	(cd "$out" && run 2 2 "--csv 's.csv' and --rank-csv './s.csv' name the same file" -b 8 -e 8 \
		--csv s.csv --rank-csv ./s.csv) || exit 1
	[ ! -e "$out/s.csv" ] || fail "a file was written" ;;
meta_not_regular)
	# metadata is written by rename: never over a device or a link
	run 2 2 "not a regular file" -b 8 -e 8 --csv "$out/s.csv" --meta /dev/null
	[ -c /dev/null ] || fail "/dev/null is no longer a device" ;;
huge_size) run 2 2 "limit of 1 TiB" -b 2048G -e 2048G ;;
shm_full) run 2 3 "free in /dev/shm" -b 512G -e 512G --csv "$out/s.csv" ;;
help_one_rank)
	timeout 60 bash -c 'cb_mpirun -np 1 "$1" -b 8 -e 8 : -np 1 "$1" -b 8 -e 8 -h' \
		_ "$bin/allreduce_perf" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || fail "hang when one rank gets -h"
	[ "$rc" != 0 ] || fail "exit 0 when one rank gets -h"
	grep -q "ranks differing from rank 0: 1 (help)" "$out/stderr" || fail "no mismatch message" ;;
keep_old_results)
	# a run that cannot open one output leaves an earlier run's files intact
	run 2 0 "" -b 8 -e 64 -f 8 --algo ring --csv "$out/s.csv"
	before=$(wc -l <"$out/s.csv")
	run 2 2 "cannot write /nonexistent/r.csv" -b 8 -e 8 --csv "$out/s.csv" --rank-csv /nonexistent/r.csv
	[ "$(wc -l <"$out/s.csv")" = "$before" ] || fail "the earlier results were truncated"
	grep -q '"status": "complete"' "$out/s.meta.json" || fail "the earlier metadata was changed" ;;
empty_list_entry)
	run 2 2 "'1,,2' has an empty entry" --counts 1,,2
	run 2 2 "'float,' has an empty entry" -d float,
	run 2 2 "'ring,,ps' has an empty entry" --algo ring,,ps ;;
table_every_row)
	# every row of the CSV is a row of the table, with its status (mpi has no
	# avg: those rows are skipped, and still in the table)
	run 2 0 "" -b 8 -e 64 -f 8 --algo ring,mpi -o sum,avg --csv "$out/s.csv"
	# table columns by the names of its header line ("#  algo size count type redop ...
	# status"); the status is the rest of the line (it may hold spaces)
	awk '/^# *algo / { sub(/^#/, ""); for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }
		{ s = $c["status"]; for (i = c["status"] + 1; i <= NF; i++) s = s " " $i
		  print $c["algo"], $c["size"], $c["redop"], s }' "$out/stdout" >"$out/table"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["algo"], $c["bytes"], $c["op"], $c["status"] }' "$out/s.csv" >"$out/csv"
	[ "$(wc -l <"$out/csv")" = 8 ] || { cat "$out/s.csv" >&2; fail "expected 8 CSV rows"; }
	cmp -s "$out/table" "$out/csv" || { diff "$out/csv" "$out/table" >&2; fail "table rows differ from CSV rows"; }
	grep -q "^mpi 64 avg skipped:MPI has no avg op$" "$out/table" || fail "no skipped row in the table" ;;
stdout_full)
	# the table on stdout is a results stream: a failed write is an error,
	# named (singleton: under mpirun, mpirun forwards stdout and would be
	# the one to see the failure)
	# (an earlier run's files are kept: the run stops before changing them)
	run 2 0 "" -b 8 -e 64 -f 8 --algo ring --csv "$out/s.csv"
	cp "$out/s.csv" "$out/before.csv"
	timeout 60 bash -c 'cb_singleton "$@"' _ "$bin/allreduce_perf" -b 8 -e 64 -f 2 --algo ring \
		--csv "$out/s.csv" >/dev/full 2>"$out/stderr"
	rc=$?
	[ "$rc" = 2 ] || { cat "$out/stderr" >&2; fail "exit $rc with stdout on /dev/full, expected 2"; }
	grep -q "cannot write the run header to stdout: No space left on device" "$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "no message naming stdout"; }
	cmp -s "$out/s.csv" "$out/before.csv" || fail "the earlier results were changed"
	grep -q '"status": "complete"' "$out/s.meta.json" || fail "the earlier metadata was changed" ;;
stdout_closed)
	# the reader of stdout goes away after the first row (the first line not
	# starting with '#', whatever the header's length): a later row's write
	# fails (EPIPE, SIGPIPE ignored as by many launchers) and the run ends
	# non-zero, naming stdout, instead of exiting 0 with a cut table
	timeout 120 bash -c 'trap "" PIPE; cb_singleton "$@" | awk "!/^#/ { exit }"; exit "${PIPESTATUS[0]}"' \
		_ "$bin/allreduce_perf" -b 1M -e 64M -f 2 -n 5 -w 1 -T 60 --csv "$out/s.csv" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || fail "timed out"
	[ "$rc" != 0 ] || { cat "$out/stderr" >&2; fail "exit 0 after stdout was closed"; }
	grep -q "cannot write the result table on stdout: Broken pipe" "$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "no message naming stdout"; }
	cb_complete_lines "$out/s.csv"
	! grep -q '"status": "complete"' "$out/s.meta.json" || fail "metadata says complete" ;;
non_utf8)
	# bytes that are not UTF-8 in the program path, an output path, an
	# environment value and the machine label: the run completes and the
	# metadata carries them under the \xHH rule, readable by collbench-compare
	odd=$out/$(printf 'run\xff-caf\xe9')
	mkdir "$odd" && ln -s "$bin/allreduce_perf" "$odd/allreduce_perf"
	CB_MACHINE=$(printf 'lab\xe9l') MALLOC_ARENA_TEST=$(printf '\xff') \
		timeout 60 bash -c 'cb_mpirun -x CB_MACHINE -x MALLOC_ARENA_TEST "$@"' _ -np 2 \
		"$odd/allreduce_perf" -b 8 -e 64 -f 8 --algo ring --csv "$odd/s.csv" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" = 0 ] || { cat "$out/stderr" >&2; fail "exit $rc, expected 0"; }
	cb_complete_lines "$odd/s.csv"
	grep -q '"status": "complete"' "$odd/s.meta.json" || fail "metadata does not say complete"
	grep -q 'run\\\\xff-caf\\\\xe9/allreduce_perf' "$odd/s.meta.json" || fail "argv[0] not escaped"
	grep -q '"MALLOC_ARENA_TEST": "\\\\xff"' "$odd/s.meta.json" || fail "environment value not escaped"
	grep -q '"label": "lab\\\\xe9l"' "$odd/s.meta.json" || fail "machine label not escaped"
	"$bin/collbench-compare" "$odd/s.csv" "$odd/s.csv" >"$out/cmp" 2>&1 ||
		{ cat "$out/cmp" >&2; fail "collbench-compare cannot read what allreduce_perf wrote"; } ;;
killed_rank) hurt_a_rank KILL "exited on signal 9" ;;
killed_rank_shm | killed_rank_p2p)
	# whatever the transport, a killed rank leaves the metadata saying
	# aborted (p2p: the SIGTERM mpirun sends the other ranks stops them as
	# the watchdog would; shm: they also see the dead peer's pid), and the
	# others name it (a rank of their host), never a timeout that did not pass
	hurt_a_rank KILL "exited on signal 9" --algo ring --transport "${case#killed_rank_}"
	grep -q '"status": "aborted"' "$out/s.meta.json" ||
		{ cat "$out/stderr" "$out/s.meta.json" >&2; fail "the metadata does not say aborted"; }
	grep -q "\"error\": \"peer failed: rank [0-9]* (pid $victim) ended" "$out/s.meta.json" &&
		grep -q "run aborted: peer failed: rank [0-9]* (pid $victim) ended" "$out/stderr" ||
		{ cat "$out/stderr" "$out/s.meta.json" >&2; fail "the dead rank (pid $victim) is not named"; }
	! grep -q "B: timeout\|(watchdog)" "$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "a timeout is blamed, though none passed"; } ;;
killed_rank_between_rows)
	# one iteration per row: the ranks spend most of their time gathering
	# each row's results (reduce, gather, the counters), where a rank whose
	# peer died must still see the SIGTERM that mpirun sends, and not block
	# in a collective until mpirun's SIGKILL 1 s later; three tries, as where
	# the kill lands is chance
	for try in 1 2 3; do
		hurt_a_rank KILL "exited on signal 9" --algo ring --transport shm -n 1
		grep -q '"status": "aborted"' "$out/s.meta.json" ||
			{ cat "$out/stderr" "$out/s.meta.json" >&2; fail "try $try: the metadata does not say aborted"; }
	done ;;
setup_not_a_hang)
	# 1 GiB buffers: allocating and pre-faulting them, the inputs, the
	# reference and the comparison each take longer than -T 1 on this kind
	# of machine, an iteration (a copy on one rank) a tenth of it: -T is
	# about an iteration without progress, set-up steps have their own bound
	big=(-b 1G -e 1G -n 2 -w 0 -c 1 --algo ring --csv "$out/s.csv")
	timeout 120 bash -c 'cb_singleton "$@"' _ "$bin/allreduce_perf" "${big[@]}" -T 1 \
		>"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" = 0 ] || { cat "$out/stderr" >&2; fail "exit $rc with -T 1 and 1 GiB buffers, expected 0"; }
	grep -q '"status": "complete"' "$out/s.meta.json" || fail "the metadata does not say complete"
	# and the set-up bound holds: a step longer than --setup-timeout ends the run
	timeout 120 bash -c 'cb_singleton "$@"' _ "$bin/allreduce_perf" "${big[@]}" -T 100 \
		--setup-timeout 0.2 >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" = 3 ] || { cat "$out/stderr" >&2; fail "exit $rc with --setup-timeout 0.2, expected 3"; }
	grep -q "watchdog: a set-up step took more than 0.2 s (--setup-timeout) in " "$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "no message naming the set-up step"; } ;;
cuda_no_gpu)
	# without a GPU the cuda backend says so, in words, and every rank exits
	if cb_have_gpu; then
		echo "skipped: a GPU is visible"
		exit 77
	fi
	run 2 3 "cuda backend: no usable GPU" -B cuda -b 8 -e 8 ;;
scheduler_signal)
	# the warning a scheduler sends before its time limit (sbatch
	# --signal=USR1@N sends it to every task of the step; mpirun forwards it
	# to every rank) stops the run as SIGTERM does: each rank says so, the
	# metadata says aborted by that signal, exit 3 (the default action would
	# end each rank without a word)
	# slow0: rank 0 held stopped for 2 s across the signal (a loaded box),
	# past the 1 s mpirun leaves between the first MPI_Abort's SIGTERM and
	# its SIGKILL: the other ranks must leave rank 0 the time to write
	for how in USR1 USR2 slow0; do
		sig=${how/slow0/USR1}
		start_long --algo ring
		if [ $how = USR1 ]; then # to every rank, as Slurm sends it
			ranks_of_long | xargs kill -USR1
		elif [ $how = slow0 ]; then
			r0=$(ranks_of_long | head -n 1)
			kill -STOP "$r0"
			ranks_of_long | xargs kill -USR1
			# mpirun's kill sequence sends SIGCONT first: stop it again
			for _ in $(seq 40); do kill -STOP "$r0" 2>/dev/null; sleep 0.05; done
			kill -CONT "$r0" 2>/dev/null
		else # to mpirun, which forwards it
			mp=$(pgrep -P "$job" -x mpirun) || mp=$job
			kill -USR2 "$mp"
		fi
		end_long "SIG$sig ($how)" "run aborted: stopped by signal $(kill -l $sig) "
		grep -q '"status": "aborted"' "$out/s.meta.json" &&
			grep -q "\"error\": \"stopped by signal $(kill -l $sig) " "$out/s.meta.json" ||
			{ cat "$out/stderr" "$out/s.meta.json" >&2; fail "$how: the metadata does not say aborted by it"; }
	done ;;
watchdog)
	# a stopped rank never posts: the others' watchdog must end the job
	# (-T 5: the rows before the stop, 4-8 KiB, take milliseconds even in a
	# loaded sanitizer build; the test waits the 5 s)
	hurt_a_rank STOP "watchdog: no progress for 5 s in" --algo ring -T 5 ;;
*) fail "unknown case $case" ;;
esac
[ -z "${CB_VERBOSE:-}" ] || cat "$out/stderr"
echo "ok: $case"
