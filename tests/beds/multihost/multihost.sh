#!/usr/bin/env bash
# Multi-host tests on the test bed (tests/beds/multihost/README.md): separate
# "hosts" on this machine, one Open MPI daemon each.
#   multihost.sh BIN CASE
# The matrix cases run tests/mpi/allreduce.sh's launch (every algorithm x
# dtype x op x count 0, 1, n-1, n+1, 16411 in 1 KiB slices, or 1048573 in the
# backend's own) across hosts: every row checked, ps and ring over p2p with
# tx/rx equal to the formulas, each rank's host recorded:
#   even_inplace0/1    cbnode1:2,cbnode2:2 (in place: the ps root on the second host)
#   uneven_inplace0/1  cbnode1:1,cbnode2:2,cbnode3:1, the ps root on the second host
#   pair_inplace0      cbnode1:1,cbnode2:1
#   even_count1m       2+2 ranks, 1048573 elements in 256 KiB slices
#   coll_even_inplace0/1, coll_uneven_inplace0/1  the same for reduce_scatter,
#                      all_gather, broadcast and reduce (one launch each; the
#                      root on the second host): their every plan and the
#                      library's call
#   shm_forced         --transport shm across hosts: ps and ring skip, saying why
#   issue_rows         the command of issue 10 prints ps, ring and mpi rows, #wrong 0
#   witness            2+2 ranks: Open MPI's monitoring totals equal collbench's
#                      tx/rx for ps and ring over p2p (tests/mpi/mpi_traffic.sh)
#   witness_uneven     the same on 1+2+1 ranks, the ps root (rank 1) on the second host
#   mpi_traffic        2+2 ranks: MPI_Allreduce's traffic measured across hosts
#   cpus               each host's ranks on the CPUs of their host only (cbnodeK:
#                      CPU (K - 1) mod the CPUs online), 1+1 and 1+2+1: a 1+1
#                      launch's two ranks never share a CPU the other lacks
#   sweep              sweep.sh --hosts across the bed (its agent in CB_MPIRUN_ARGS)
#                      with --mpi-traffic: 1+1 and 2+2 ranks, meta.json's hosts,
#                      layouts and transport, ranks on their hosts, mpi rows with
#                      measured tx/rx (sum of the ranks' tx = the row's total)
# Skipped (77) where the bed cannot work: not root, no UTS namespaces, or the
# bed's host names not set up (ctest's multihost_setup fixture sets them up).
set -euo pipefail
. "$(dirname "$0")/../../lib/lib.sh"
bin=$1 case=$2
reason=$("$CB_TESTS_DIR/beds/multihost/bed.sh" check) || { echo "$reason"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the metadata as one line, for grep
meta_json() { tr -d '\n' <"$1"; }

matrix() { rm -rf "$out"; exec "$CB_TESTS_DIR/mpi/allreduce.sh" "$bin" "$@"; }
# colls ARGS...: the matrix of every collective beyond allreduce in turn
colls() {
	local c
	for c in reduce_scatter all_gather broadcast reduce; do
		"$CB_TESTS_DIR/mpi/allreduce.sh" "$bin" "$@" --coll "$c" || fail "--coll $c failed"
	done
}

case $case in
even_inplace0) matrix 4 0 --hosts cbnode1:2,cbnode2:2 ;;
even_inplace1) matrix 4 1 --hosts cbnode1:2,cbnode2:2 --root 3 ;;
uneven_inplace0) matrix 4 0 --hosts cbnode1:1,cbnode2:2,cbnode3:1 --root 2 ;;
uneven_inplace1) matrix 4 1 --hosts cbnode1:1,cbnode2:2,cbnode3:1 --root 1 ;;
pair_inplace0) matrix 2 0 --hosts cbnode1:1,cbnode2:1 --root 1 ;;
coll_even_inplace0) colls 4 0 --hosts cbnode1:2,cbnode2:2 --root 2 ;;
coll_even_inplace1) colls 4 1 --hosts cbnode1:2,cbnode2:2 --root 3 ;;
coll_uneven_inplace0) colls 4 0 --hosts cbnode1:1,cbnode2:2,cbnode3:1 --root 2 ;;
coll_uneven_inplace1) colls 4 1 --hosts cbnode1:1,cbnode2:2,cbnode3:1 --root 1 ;;
even_count1m) matrix 4 0 --hosts cbnode1:2,cbnode2:2 --count 1048573 --slicebytes 0 ;;
witness | mpi_traffic)
	c=$case
	[ "$c" = witness ] || c=mpi
	exec "$CB_TESTS_DIR/mpi/mpi_traffic.sh" "$bin" "$c" --hosts cbnode1:2,cbnode2:2
	;;
witness_uneven)
	exec "$CB_TESTS_DIR/mpi/mpi_traffic.sh" "$bin" witness --hosts cbnode1:1,cbnode2:2,cbnode3:1
	;;
cpus)
	ncpu=$(nproc --all)
	for hosts in cbnode1:1,cbnode2:1 cbnode1:1,cbnode2:2,cbnode3:1; do
		np=$(tr ',' '\n' <<<"$hosts" | awk -F: '{ n += $2 } END { print n }')
		# shellcheck disable=SC2016 # expanded by each rank's shell
		cb_mpirun_bed "$hosts" -np "$np" sh -c 'echo "$(hostname) $(taskset -pc $$ | sed "s/.*: //")"' \
			>"$out/cpus" 2>"$out/err" || fail "launch on $hosts failed: $(cat "$out/err")"
		[ "$(wc -l <"$out/cpus")" = "$np" ] || fail "$hosts: not $np ranks: $(cat "$out/cpus")"
		awk -v ncpu="$ncpu" '{ k = substr($1, 7) + 0; want = (k - 1) % ncpu
			if ($2 != want "") { print "rank on " $1 " may run on CPUs " $2 ", want " want; bad = 1 } }
			END { exit bad }' "$out/cpus" || fail "$hosts: $(cat "$out/cpus")"
	done
	;;
sweep)
	export CB_BIN=$bin CB_MPIRUN_ARGS="--mca plm_rsh_agent $CB_TESTS_DIR/beds/multihost/agent.sh --bind-to none --mca mpi_yield_when_idle 1"
	cb_launch_env
	"$CB_TESTS_DIR/../scripts/sweep.sh" --hosts cbnode1:2,cbnode2:2 --ranks 2,4 -b 64K -e 64K --iters 2 \
		-w 0 -a ps,ring,mpi --mpi-traffic --out "$out/run" >"$out/log" 2>&1 || fail "sweep failed: $(cat "$out/log")"
	m=$(meta_json "$out/run/meta.json")
	for want in '"ranks_per_host": {"2": "cbnode1:1,cbnode2:1", "4": "cbnode1:2,cbnode2:2"}' \
		'"transport": "auto"' '"mpi_traffic": {"status": "measured"' '"list": "cbnode1:2,cbnode2:2"'; do
		grep -qF "$want" <<<"$m" || fail "meta.json lacks $want: $m"
	done
	# rank r of 4 on host r/2; every row across 2 hosts, ps and ring over p2p
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["nranks"] == 4 && $c["host"] != int($c["rank"] / 2) { bad = 1 } END { exit bad }' \
		"$out/run/ranks.csv" || fail "ranks not on their hosts: $(cat "$out/run/ranks.csv")"
	# mpi rows: measured, the total the sum of the ranks' tx, each rank >= S
	for np in 2 4; do
		got=$(awk -F, -v np=$np 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["algo"] == "mpi" && $c["nranks"] == np && $c["tx_bytes"] >= 65536 && $c["rx_bytes"] >= 65536 {
				t += $c["tx_bytes"]; n++ } END { print n + 0, t + 0 }' "$out/run/ranks.csv")
		tot=$(awk -F, -v np=$np 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["algo"] == "mpi" && $c["nranks"] == np && $c["nhosts"] == 2 { print $c["tx_total_bytes"] }' \
			"$out/run/summary.csv")
		[ "$got" = "$np $tot" ] || fail "$np ranks: mpi per-rank tx (n, sum) $got, row total '$tot'"
	done
	"$bin/check_results" --json "$out/run/meta.json" || fail "meta.json is not valid JSON"
	;;
shm_forced)
	# forced one-sided across hosts: ps and ring say why they cannot run,
	# the library rows still run and are right
	cb_mpirun_bed cbnode1:2,cbnode2:2 -np 4 "$bin/allreduce_perf" --transport shm -b 4K -e 4K \
		-n 1 -w 0 -T 60 -q --csv "$out/s.csv" || fail "launch failed"
	for a in ps ring; do
		grep -q "^collbench-summary-3,host,$a,.*,skipped:ranks span several hosts; shared memory and IPC reach one host only.*,shm,2,.*,allreduce\(,\|$\)" \
			"$out/s.csv" || fail "$a: no skip with the one-host reason: $(cat "$out/s.csv")"
	done
	grep -q '^collbench-summary-3,host,mpi,4,4096,.*,ok,.*,library,2,.*,allreduce\(,\|$\)' "$out/s.csv" ||
		fail "mpi row not ok: $(cat "$out/s.csv")"
	;;
issue_rows)
	# issue 10's command: every mpi row was wrong across hosts, ps and ring skipped
	cb_mpirun_bed cbnode1:2,cbnode2:2 -np 4 "$bin/allreduce_perf" -b 4 -e 1M -f 16 -d int32,float \
		-T 120 --csv "$out/s.csv" --rank-csv "$out/r.csv" >"$out/table.txt" || fail "launch failed"
	"$bin/check_results" "$out/s.csv" "$out/r.csv" 4 0 --transport p2p --nhosts 2 ||
		fail "rows not right: $(cat "$out/table.txt")"
	for a in ps ring mpi; do
		[ "$(awk -v a="$a" '$1 == a && $11 == 0 && $NF == "ok"' "$out/table.txt" | wc -l)" = 10 ] ||
			fail "$a: not 10 rows with #wrong 0 in the table: $(cat "$out/table.txt")"
	done
	grep -q '^# mpi: .*; 4 ranks on 2 host(s)' "$out/table.txt" || fail "header: not 4 ranks on 2 hosts"
	grep -q '^# transport: p2p (--transport auto)' "$out/table.txt" || fail "header: transport"
	;;
bed)
	# the bed itself: two hosts of two ranks and three hosts of 1+2+1 are
	# seen as such by MPI (the metadata's host list, node count, ranks per node)
	for layout in "cbnode1:2,cbnode2:2 4 2 2" "cbnode1:1,cbnode2:2,cbnode3:1 4 3 2"; do
		read -r hosts np nnodes rpn <<<"$layout"
		cb_mpirun_bed "$hosts" -np "$np" "$bin/allreduce_perf" --algo copy -b 8 -e 8 -n 1 -w 0 -T 60 \
			-q --csv "$out/s.csv" || fail "launch on $hosts failed"
		m=$(meta_json "$out/s.meta.json")
		grep -q "\"nnodes\": *${nnodes}[,}]" <<<"$m" || fail "$hosts: nnodes is not $nnodes: $m"
		grep -q "\"ranks_per_node\": *${rpn}[,}]" <<<"$m" || fail "$hosts: ranks_per_node is not $rpn"
		for h in ${hosts//,/ }; do
			grep -q "\"${h%%:*}\"" <<<"$m" || fail "$hosts: host ${h%%:*} missing from the metadata"
		done
	done
	;;
*)
	fail "unknown case $case"
	;;
esac
