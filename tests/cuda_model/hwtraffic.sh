#!/usr/bin/env bash
# Per-GPU bytes from the (model's) NVML link counters, end to end: the
# model's allreduce_perf under mpirun on the model's 8xH100 box, one model
# GPU per rank, at 2 and 4 ranks: every ps and ring row's per-rank
# hw_tx_bytes/hw_rx_bytes within the stated tolerance of our own counters
# (docs/library.md, "Hardware traffic": 5% + 4 KiB + 36 KiB / calls), ps's
# root visibly larger at 4 ranks, hw_traffic "nvml", no check warning, and
# the topology stamp in the metadata; NCCL's ring and tree rows' per-rank
# bytes as the model's NCCL moves them; then the default (pcie) box: the
# columns empty, hw_traffic no_nvlink, the stamp without NVLink.
#   hwtraffic.sh MODEL_BIN
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
model=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun
calls=5

# launch NP TOPO SIZES: ps, ring and nccl, -n 5 -w 1, into $out/{s,r}.csv and m.json
launch() {
	rm -f "$out"/*
	CB_CUDA_MODEL_TOPO=$2 CB_CUDA_MODEL_GPUS=$1 timeout 90 bash -c 'cb_mpirun "$@"' _ -np "$1" \
		"$model/allreduce_perf" -B cuda -q --algo "${ALGOS:-ps,ring,nccl}" -b 1K -e "$3" -f 32 -n $calls -w 1 \
		--csv "$out/s.csv" --rank-csv "$out/r.csv" --meta "$out/m.json" >"$out/stdout" 2>"$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "np $1 $2: allreduce_perf failed"; }
	if grep -q "hw traffic check" "$out/stderr"; then
		cat "$out/stderr" >&2
		fail "np $1 $2: the hardware bytes left the tolerance"
	fi
}

# col FILE: awk that names columns c[name] (first line) and runs PROGRAM
col() {
	awk -F, -v calls=$calls "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2" "$1"
}

# topo KEY VALUE: the metadata's topology.KEY is VALUE (as JSON)
topo() {
	python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["topology"]; v=json.dumps(t[sys.argv[2]]);
sys.exit(0 if v == sys.argv[3] else "topology.%s is %s, not %s" % (sys.argv[2], v, sys.argv[3]))' \
		"$out/m.json" "$1" "$2" || fail "metadata: topology.$1"
}

for np in 2 4; do
	ALGOS=ps,ring,nccl,nccl.ring.simple,nccl.tree.simple launch $np 8xH100 1M
	bad=$(col "$out/r.csv" '($c["algo"] == "ps" || $c["algo"] == "ring") {
		n++
		for (k = 0; k < 2; k++) {
			ours = $c[k ? "rx_bytes" : "tx_bytes"]; hw = $c[k ? "hw_rx_bytes" : "hw_tx_bytes"]
			tol = 0.05 * ours + 4096 + 2 * 18 * 1024 / calls
			if (hw == "" || (hw - ours > tol) || (ours - hw > tol)) print
		}
	} END { if (n < 12) print "only " n " ps and ring rank rows" }')
	[ -z "$bad" ] || fail "np $np: hardware bytes outside the tolerance of ours: $bad"
	[ "$(col "$out/s.csv" '$c["hw_traffic"] != "nvml" { print }')" = "" ] ||
		fail "np $np: hw_traffic not nvml in every row"
	[ "$(col "$out/s.csv" '$c["algo"] == "nccl" { n++; k += $c["nccl_algo"] != "" } END { print n + 0, k + 0 }')" = "3 3" ] ||
		fail "np $np: the nccl rows lack NCCL's choice (nccl_algo)"
	topo known true
	topo gpu_model '"NVIDIA H100 80GB HBM3"'
	topo nvlink_links 18
	topo nvls true
	topo gpu_count $np
	python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["gpu_locality"];
sys.exit(0 if [g["bus_id"] for g in a] == ["0000:%02x:00.0" % (0x11 + r) for r in range(int(sys.argv[2]))] else a)' \
		"$out/m.json" $np || fail "np $np: gpu_locality is not one entry per rank with its GPU's bus id"
done
# ps's root at 4 ranks: (n-1) S each way against S (the seed's picture)
ratio=$(col "$out/r.csv" '$c["algo"] == "ps" && $c["bytes"] == 1048576 && $c["in_place"] == 0 {
	hw[$c["rank"]] = $c["hw_tx_bytes"] } END { printf "%.2f", hw[0] / hw[1] }')
awk -v r="$ratio" 'BEGIN { exit !(r >= 2.9 && r <= 3.1) }' ||
	fail "ps at 4 ranks: the root's NVLink tx is $ratio x rank 1's, not 3"

# NCCL's ring and tree at 4 ranks, 1 MiB, as the model's NCCL moves them
# (cm_nccl_algo.c): the ring's ranks each send 2(n-1)/n S, the tree (a chain
# in one node) sends S at its ends and 2S in the middle: equal totals,
# unequal ranks, now for NCCL's algorithms
per_rank() {
	col "$out/r.csv" '$c["algo"] == "'"$1"'" && $c["bytes"] == 1048576 && $c["in_place"] == 0 {
		printf "%d ", $c["hw_tx_bytes"] / 1024 }'
}
[ "$(per_rank nccl.ring.simple)" = "1536 1536 1536 1536 " ] ||
	fail "nccl.ring.simple at 4 ranks: per-rank NVLink tx (KiB) $(per_rank nccl.ring.simple), not 1536 each"
[ "$(per_rank nccl.tree.simple)" = "1024 2048 2048 1024 " ] ||
	fail "nccl.tree.simple at 4 ranks: per-rank NVLink tx (KiB) $(per_rank nccl.tree.simple), not 1024 2048 2048 1024"

# the default box: PCIe, no NVLink counters
launch 2 pcie 1K
[ "$(col "$out/r.csv" '$c["hw_tx_bytes"] != "" { print }')" = "" ] || fail "pcie: hw_tx_bytes filled"
[ "$(col "$out/s.csv" '$c["hw_traffic"] != "no_nvlink" { print }')" = "" ] ||
	fail "pcie: hw_traffic not no_nvlink"
grep -q "hardware traffic unmeasured: no NVLink counters" "$out/stderr" || fail "pcie: no reason on stderr"
topo nvlink_links 0
topo known true
echo "hwtraffic: ok"
