#!/usr/bin/env bash
# Which algorithm, protocol and channel count NCCL chose, on the CUDA model
# at 2 ranks (one model GPU each): the model's NCCL loads collbench's
# profiler plugin from NCCL_PROFILER_PLUGIN, which the harness sets, and
# calls it for every collective; the nccl rows' nccl_algo, nccl_proto and
# nccl_channels are filled at every size in the CSV and the JSON, with a
# note under each row in the table, and empty for the other rows. With the
# user's own NCCL_PROFILER_PLUGIN (here a file that does not exist) the run
# still succeeds and each nccl row says why its choice is unknown.
#   nccl_choice.sh MODEL_BIN
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
model=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun
export CB_CUDA_MODEL_GPUS=2

# launch: the model's allreduce_perf at 2 ranks, nccl and ring, 8 B .. 256 KiB
launch() {
	rm -f "$out"/s.*
	timeout 90 bash -c 'cb_mpirun "$@"' _ -np 2 "$@" "$model/allreduce_perf" -B cuda \
		--algo nccl,ring -b 8 -e 256K -f 32 -n 5 -w 1 --inplace 0 \
		--csv "$out/s.csv" --json "$out/s.json" >"$out/stdout" 2>"$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "the run failed: $*"; }
}

# cols ALGO: "bytes algo proto channels" of each row of ALGO in the CSV
cols() {
	awk -F, -v a="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a { print $c["bytes"], $c["nccl_algo"] "|" $c["nccl_proto"] "|" $c["nccl_channels"] }' "$out/s.csv"
}

# with the plugin: a known choice at every size, the same in the JSON
launch
n=$(cols nccl | wc -l)
[ "$n" = 4 ] || { cat "$out/s.csv" >&2; fail "expected 4 nccl rows, got $n"; }
bad=$(cols nccl | grep -Ev ' (Ring|Tree|NVLS|NVLSTree|CollNetDirect|CollNetChain|PAT)\|(LL|LL128|Simple)\|[1-9][0-9]*$')
[ -z "$bad" ] || { cat "$out/stderr" >&2; fail "nccl rows without NCCL's choice: $bad"; }
[ -z "$(cols ring | grep -v ' ||$')" ] || fail "ring rows have an nccl choice: $(cols ring)"
json=$(jq -r 'select(.algo == "nccl") | "\(.bytes) \(.nccl_algo)|\(.nccl_proto)|\(.nccl_channels)"' "$out/s.json")
[ "$json" = "$(cols nccl)" ] || fail "JSON's choice differs from the CSV's: $json"
[ "$(jq -r 'select(.algo == "ring") | .nccl_algo' "$out/s.json" | sort -u)" = null ] ||
	fail "ring rows' nccl_algo is not null in the JSON"
notes=$(grep -cE '^#  \^ nccl chose [A-Za-z]+/[A-Za-z0-9]+/[0-9]+ch at [0-9]+ B' "$out/stdout")
[ "$notes" = 4 ] || { cat "$out/stdout" >&2; fail "expected 4 notes of NCCL's choice, got $notes"; }

# the choice is the model's NCCL's own (cm_nccl_tune.c on its default pcie
# box: LL up to 64 KiB, Simple above), and NCCL_ALGO forces it
[ "$(cols nccl | sed -n '1p;$p' | cut -d'|' -f1,2)" = "$(printf '8 Ring|LL\n262144 Ring|Simple')" ] ||
	fail "not the model's choice by size: $(cols nccl)"
NCCL_ALGO=Tree launch -x NCCL_ALGO
[ "$(cols nccl | cut -d' ' -f2 | cut -d'|' -f1 | sort -u)" = Tree ] ||
	fail "NCCL_ALGO=Tree: the recorded choice is not Tree: $(cols nccl)"

# the user's own plugin (one that cannot load): the rows run, the choice is
# unknown and says why
NCCL_PROFILER_PLUGIN=/nonexistent/libnccl-profiler-user.so launch -x NCCL_PROFILER_PLUGIN
[ -z "$(cols nccl | grep -v ' ||$')" ] || fail "a choice without collbench's plugin: $(cols nccl)"
grep -q 'skipped\|error' <(awk -F, 'NR > 1 { print $NF }' "$out/s.csv") && fail "rows failed"
notes=$(grep -cE '^#  \^ nccl choice at [0-9]+ B: unknown: user profiler plugin \(NCCL_PROFILER_PLUGIN=/nonexistent/' "$out/stdout")
[ "$notes" = 4 ] || { cat "$out/stdout" >&2; fail "expected 4 notes of the unknown choice, got $notes"; }
echo "nccl_choice: ok"
