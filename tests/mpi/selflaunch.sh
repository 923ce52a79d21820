#!/usr/bin/env bash
# nccl-tests' one-box form without mpirun (docs/running.md, "One box without
# mpirun"): `all_reduce_perf -g 2` started alone runs its ranks under the
# mpirun it finds; under a launcher -g above 1 is refused.
#   selflaunch.sh BIN CASE
#   run          -g 2 alone: 2 ranks (the header's mpi line), rows of both
#                algorithms ok (8 B to 512 B), nccl-tests' footer, exit 0, the metadata's
#                launcher.self_launch; -t 2 likewise
#   dry          -g 2 --check-args: the launch= line, nothing launched
#   no_mpirun    no mpirun anywhere (CB_MPIRUN a missing file, PATH without
#                one): exit 2, the message names what is missing and the
#                command to run instead, no row
#   launcher     under mpirun (and with a launcher's variable) -g 2 refused,
#                exit 2, with the mpirun -np 2 line
#   fake         a stand-in mpirun (CB_MPIRUN): its words and CB_SELFLAUNCH,
#                its exit status returned, its death by a signal exit 3
#                naming it, SIGTERM forwarded once (then exit 3)
#   gpus         -B cuda -g 2 with CUDA_VISIBLE_DEVICES=0: exit 2, the reason
# CB_SELFLAUNCH_ARGS: more options for the run case (the cuda model's
# "-B cuda": then the header's backend is cuda, one GPU a rank); BIN there
# has allreduce_perf only.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
read -r -a extra <<<"${CB_SELFLAUNCH_ARGS:-}"
prog=all_reduce_perf
[ -x "$bin/$prog" ] || prog=allreduce_perf
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
unset OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK PMI_SIZE MV2_COMM_WORLD_RANK CB_SELFLAUNCH CB_MPIRUN
# the ranks -g starts inherit the sanitizer builds' suppressions of Open
# MPI's leaks (not the run-as-root variables: -g sets those itself)
cb_sanitizer_env

show() { echo "--- stdout" >&2; cat "$t/out" >&2; echo "--- stderr" >&2; cat "$t/err" >&2; }

# fake_mpirun BODY: a stand-in mpirun in $t/fake that logs its words and
# CB_SELFLAUNCH to $t/log, then runs BODY
fake_mpirun() {
	printf '#!/usr/bin/env bash\necho "$*" >%q/log\necho "marker=$CB_SELFLAUNCH" >>%q/log\n%s\n' \
		"$t" "$t" "$1" >"$t/fake"
	chmod +x "$t/fake"
}

case $case in
run)
	for g in "-g 2" "-t 2"; do
		read -r -a gw <<<"$g"
		rc=0
		"$bin/$prog" -b 8 -e 1K -f 4 "${gw[@]}" --algo ring,ps -N 1 -w 1 -n 2 \
			--csv "$t/s.csv" "${extra[@]}" >"$t/out" 2>"$t/err" || rc=$?
		[ "$rc" = 0 ] || { show; fail "$g: exit $rc"; }
		grep -qE '^# mpi: .*; 2 ranks on 1 host' "$t/out" || { show; fail "$g: not 2 ranks"; }
		grep -qE "^# launcher: mpirun \(self-launched for $g: 2 ranks, [^ ]*mpi(run|exec) -np 2 " \
			"$t/out" || { show; fail "$g: the header's launcher line"; }
		# the command as typed, -g or -t included (re-running it gives 2 ranks)
		grep -qxF -- "# command: $bin/$prog -b 8 -e 1K -f 4 $g --algo ring,ps -N 1 -w 1 -n 2 --csv $t/s.csv${extra[*]:+ ${extra[*]}}" \
			"$t/out" || { show; fail "$g: the header's command is not the one typed"; }
		grep -qE '^#.*-+ out-of-place -+ +-+ in-place -+' "$t/out" ||
			{ show; fail "$g: not both modes side by side (nccl-tests' default)"; }
		grep -qE '^ +ring +512 +128 .* ok$' "$t/out" || { show; fail "$g: no ring row of 512 B"; }
		grep -qE '^ +ps +8 +2 ' "$t/out" || { show; fail "$g: no ps row of 8 B"; }
		grep -qE '^# Out of bounds values : 0 OK$' "$t/out" || { show; fail "$g: no footer"; }
		case " ${extra[*]} " in *" -B cuda "*)
			grep -qE '^# backend: cuda, .* up to 1 rank\(s\) per GPU' "$t/out" ||
				{ show; fail "$g: not the cuda backend, one GPU each"; } ;;
		esac
		grep -qE '^# Avg bus bandwidth +: [0-9.]+' "$t/out" || { show; fail "$g: no Avg bus bandwidth"; }
		grep -qF -- "$g: 2 ranks on this host, one process each: " "$t/err" || { show; fail "$g: stderr"; }
		tr -d ' \n' <"$t/s.meta.json" | grep -E "\"self_launch\":\\{[^}]*\"from\":\"$(tr -d ' ' <<<"$g")\"[^}]*\"ranks\":2" >/dev/null ||
			{ cat "$t/s.meta.json" >&2; fail "$g: the metadata's launcher.self_launch"; }
		grep -q '"complete"' "$t/s.meta.json" || fail "$g: the run is not complete"
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ n++; if ($c["status"] != "ok" || $c["wrong"] != 0) bad = 1 }
			END { exit bad || n < 8 }' "$t/s.csv" || { cat "$t/s.csv" >&2; fail "$g: rows not ok"; }
	done
	;;
dry)
	fake_mpirun 'exit 0'
	CB_MPIRUN=$t/fake "$bin/$prog" -b 8 -e 1M -f 2 -g 2 --check-args >"$t/out" 2>"$t/err" ||
		{ show; fail "--check-args -g 2 failed"; }
	head -1 "$t/out" | grep -xE "launch=$t/fake -np 2 (--oversubscribe )?$bin/$prog -b 8 -e 1M -f 2" >/dev/null ||
		{ show; fail "no launch= line first (or --check-args in it)"; }
	grep -qx "maxbytes=1048576" "$t/out" || { show; fail "the ranks' settings not printed"; }
	[ ! -e "$t/log" ] || fail "--check-args launched"
	;;
no_mpirun)
	rc=0
	env PATH=/nonexistent CB_MPIRUN=$t/none "$bin/$prog" -b 8 -e 1K -g 2 >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] || { show; fail "exit $rc, expected 2"; }
	[ ! -s "$t/out" ] || { show; fail "printed on stdout"; }
	grep -qF "no mpirun found: $t/none (CB_MPIRUN) is not an executable file, and none on PATH" "$t/err" &&
		grep -qF "mpirun -np 2 $bin/$prog -b 8 -e 1K" "$t/err" || { show; fail "the message"; }
	;;
launcher)
	rc=0
	cb_mpirun -np 1 "$bin/$prog" -b 8 -e 1K -g 2 --inplace 0 >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] || { show; fail "under mpirun: exit $rc, expected 2"; }
	grep -qF "mpirun -np 2 $bin/$prog -b 8 -e 1K" "$t/err" &&
		grep -qF -- "-g/--ngpus 2: not supported under a launcher (OMPI_COMM_WORLD_SIZE is set)" "$t/err" ||
		{ show; fail "under mpirun: the message"; }
	rc=0
	PMI_RANK=0 "$bin/$prog" --check-args -t 2 -g 2 >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] && grep -qF "(PMI_RANK is set)" "$t/err" && grep -qF "mpirun -np 4 " "$t/err" ||
		{ show; fail "PMI_RANK: exit $rc"; }
	;;
fake)
	fake_mpirun 'exit 5'
	rc=0
	CB_MPIRUN=$t/fake "$bin/$prog" -b 8 -g 3 -e 1K >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 5 ] || { show; fail "exit $rc, expected the launcher's 5"; }
	grep -qE -- "^-np 3 (--oversubscribe )?$bin/$prog -b 8 -e 1K$" "$t/log" ||
		{ cat "$t/log" >&2; fail "the launcher's words"; }
	grep -qE "^marker=3	-g 3	$t/fake -np 3 " "$t/log" || { cat "$t/log" >&2; fail "CB_SELFLAUNCH"; }
	fake_mpirun 'kill -KILL $$'
	rc=0
	CB_MPIRUN=$t/fake "$bin/$prog" -b 8 -g 2 >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 3 ] && grep -qF "was ended by signal 9 (Killed)" "$t/err" || { show; fail "killed: exit $rc"; }
	# SIGTERM to the parent: forwarded to the launcher, once (a repeat
	# within a second is dropped)
	fake_mpirun "trap 'echo TERM >>$t/sigs' TERM; touch $t/ready; for i in \$(seq 40); do sleep 0.05; done; exit 7"
	CB_MPIRUN=$t/fake "$bin/$prog" -b 8 -g 2 >"$t/out" 2>"$t/err" &
	pid=$!
	for _ in $(seq 100); do [ -e "$t/ready" ] && break; sleep 0.05; done
	kill -TERM $pid
	sleep 0.3
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" = 3 ] && grep -qF "stopped by signal 15 (Terminated), forwarded to $t/fake (its exit status: 7)" "$t/err" ||
		{ show; fail "SIGTERM: exit $rc, expected 3 (aborted) naming the signal"; }
	[ "$(cat "$t/sigs" 2>/dev/null)" = TERM ] || fail "SIGTERM reached the launcher $(wc -l <"$t/sigs" 2>/dev/null || echo 0) times, expected once"
	;;
gpus)
	rc=0
	CUDA_VISIBLE_DEVICES=0 "$bin/$prog" -B cuda -g 2 --check-args >"$t/out" 2>"$t/err" || rc=$?
	if grep -q "backend" "$t/err" && ! grep -q "GPU" "$t/err"; then
		echo "no cuda backend in this build: skipped"
		exit 77
	fi
	[ "$rc" = 2 ] || { show; fail "exit $rc, expected 2"; }
	grep -qF "2 ranks, one GPU each, but this host shows 1 GPU(s) (CUDA_VISIBLE_DEVICES)" "$t/err" ||
		{ show; fail "the message"; }
	;;
*) fail "unknown case $case" ;;
esac
