#!/usr/bin/env bash
# Multi-host tests on the test bed (tests/multihost/README.md): separate
# "hosts" on this machine, one Open MPI daemon each.
#   multihost.sh BIN CASE
# Skipped (77) where the bed cannot work: not root, no UTS namespaces, or the
# bed's host names not set up (ctest's multihost_setup fixture sets them up).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bin=$1 case=$2
reason=$("$CB_TESTS_DIR/multihost/bed.sh" check) || { echo "$reason"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the metadata as one line, for grep
meta_json() { tr -d '\n' <"$1"; }

case $case in
bed)
	# the bed itself: two hosts of two ranks and three hosts of 1+2+1 are
	# seen as such by MPI (the metadata's host list, node count, ranks per node)
	for layout in "cbnode1:2,cbnode2:2 4 2 2" "cbnode1:1,cbnode2:2,cbnode3:1 4 3 2"; do
		read -r hosts np nnodes rpn <<<"$layout"
		cb_mpirun_bed "$hosts" -np "$np" "$bin/allreduce_perf" -a copy -b 8 -e 8 -n 1 -w 0 -T 60 \
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
