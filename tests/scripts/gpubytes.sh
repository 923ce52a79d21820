#!/usr/bin/env bash
# plot.sh's gpu_bytes_per_rank: each GPU's tx+rx per call, NCCL's rows beside
# ours, on a fixture: the committed reference run's ps and ring rows at 4
# ranks and 4 KiB with made-up hardware columns (hw_tx_bytes, hw_rx_bytes as
# NVML's counters would give them): ring's equal to our counters, ps's empty
# (so our counters are drawn, and its key says so), and an nccl.ring.simple
# row with hardware counts only (a library's own counters are empty). The
# figure builds, its data file holds those values, each key names its source,
# and a run without hardware counts draws nothing and says nothing.
#   gpubytes.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C CB_PLOTS=$t/plots
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
show() { cat "$t/out" "$t/err" >&2; }

# fixture DIR HW: the reference run's ps and ring rows of 4 ranks at 4 KiB
# (summary.csv, ranks.csv); HW 1 adds the hardware columns and nccl.ring.simple
fixture() {
	mkdir -p "$1"
	cp "$src/results/reference/meta.json" "$1/"
	awk -F, -v OFS=, -v hw="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["nranks"] == 4 && $c["bytes"] == 4096 && $c["collective"] == "allreduce" &&
		($c["algo"] == "ps" || $c["algo"] == "ring") { print
			if (hw && $c["algo"] == "ring") { $c["algo"] = "nccl.ring.simple"; $c["transport"] = "library"; print } }' \
		"$src/results/reference/summary.csv" >"$1/summary.csv"
	awk -F, -v OFS=, -v hw="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			print $0 (hw ? ",hw_tx_bytes,hw_rx_bytes" : ""); next }
		$c["nranks"] == 4 && $c["bytes"] == 4096 && $c["collective"] == "allreduce" &&
		($c["algo"] == "ps" || $c["algo"] == "ring") {
			if (!hw) { print; next }
			if ($c["algo"] == "ps") { print $0 ",,"; next }
			print $0 "," $c["tx_bytes"] "," $c["rx_bytes"]
			$c["algo"] = "nccl.ring.simple"; $c["transport"] = "library"
			$c["tx_bytes"] = ""; $c["rx_bytes"] = ""
			print $0 ",6656,6656" }' "$src/results/reference/ranks.csv" >"$1/ranks.csv"
}

case $case in
gpubytes_fixture)
	fixture "$t/run" 1
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh: exit $?"; }
	grep -q 'gpu_bytes_per_rank.png$' "$t/fig/figures.txt" && [ -s "$t/fig/gpu_bytes_per_rank.svg" ] ||
		{ show; fail "no gpu_bytes_per_rank figure"; }
	# the figure's data: NCCL's row first, then ours (ps, ring); ring 2(n-1)/n S each way = 12288 B per rank;
	# ps's root (n-1)S each way, the others S
	want="algo	rank	source	txrx_bytes
nccl.ring.simple	0	NVML	13312
nccl.ring.simple	1	NVML	13312
nccl.ring.simple	2	NVML	13312
nccl.ring.simple	3	NVML	13312
ps	0	own	24576
ps	1	own	8192
ps	2	own	8192
ps	3	own	8192
ring	0	NVML	12288
ring	1	NVML	12288
ring	2	NVML	12288
ring	3	NVML	12288"
	[ "$(cat "$t/fig/gpu_bytes_per_rank.tsv")" = "$want" ] ||
		{ cat "$t/fig/gpu_bytes_per_rank.tsv" >&2; fail "the figure's data are not the fixture's bytes"; }
	for k in "nccl.ring.simple, NVML (52 KiB in all)" "ring, NVML (48 KiB in all)" \
		"ps, own counters (48 KiB in all)" "4 ranks, 4 KiB per rank"; do
		grep -qF ">$k<" "$t/fig/gpu_bytes_per_rank.svg" || grep -qF "$k" "$t/fig/gpu_bytes_per_rank.svg" ||
			fail "the figure lacks '$k'"
	done
	# a size the run lacks: nothing drawn, said
	"$src/scripts/plot.sh" --gpu-bytes-size 8192 "$t/run" "$t/fig2" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh --gpu-bytes-size 8192: exit $?"; }
	grep -q "skipping gpu_bytes_per_rank: .* no per-rank bytes at n = 4, 8 KiB" "$t/err" ||
		{ show; fail "no note for a size without rows"; }
	;;
gpubytes_none)
	# no hardware columns (a host run): no figure, no note
	fixture "$t/run" 0
	"$src/scripts/plot.sh" "$t/run" "$t/fig" >"$t/out" 2>"$t/err" || { show; fail "plot.sh: exit $?"; }
	! grep -q gpu_bytes "$t/fig/figures.txt" "$t/err" || { show; fail "gpu_bytes_per_rank drawn or named"; }
	;;
*) fail "unknown case $case" ;;
esac
