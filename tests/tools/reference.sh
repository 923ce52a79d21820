#!/usr/bin/env bash
# collbench-compare --reference on crafted runs: a run whose metadata says
# 8 x H100 80GB HBM3 on NVLink 4 and NVSwitch is placed against the 8xH100
# entries of the shipped table; a platform the table lacks is given its
# nearest entry, said not to match; a bad table or a run without a known
# topology is refused (exit 2) with a message.
#   reference.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
cmp="$bin/collbench-compare"
table="$CB_TESTS_DIR/../data/reference/nccl_published.csv"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

# row ALGO NRANKS BYTES IN_PLACE BUSBW: one ok float-sum cuda row (schema 1:
# allreduce, transport from the algorithm), time and algbw from busbw.
row() {
	awk -v a="$1" -v n="$2" -v b="$3" -v ip="$4" -v bus="$5" 'BEGIN {
		alg = bus * n / (2 * (n - 1)); tu = b / alg / 1e3
		printf "collbench-summary-1,cuda,%s,%d,%.0f,%.0f,float,sum,%d,20,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,0,,,,ok,5,1,%.6g,%.6g,%.6g,%.6g,0,%.6g,%.6g\n",
			a, n, b, b / 4, ip, tu, tu, tu, tu, alg, bus, tu, tu, bus, bus, tu, tu }'
}

# meta FILE NRANKS TOPOLOGY_JSON: a cuda launch's sidecar with a topology stamp.
meta() {
	cat >"$1" <<EOF2
{"schema": "collbench-meta-1", "backend": "cuda", "device": "GPU", "gpu_model": "GPU",
 "host": {"cpu_model": "Test CPU", "cpus_online": 2, "hostname": "t.example.org",
          "mem_bytes": 25276063744},
 "mpi": {"nranks": $2, "ranks_per_node": $2, "nnodes": 1},
 "topology": $3, "status": "complete", "tool": "allreduce_perf"}
EOF2
}

# topo MODEL COUNT NVLINK NVSWITCH NVLS: a known topology object.
topo() {
	printf '{"known": true, "source": "test", "gpu_model": "%s", "gpu_count": %d, "nvlink_version": %d, "nvlink_links": 18, "nvlink_link_GBps": 25.0, "nvswitch": %s, "nvls": %s, "pcie_gen": 5, "pcie_width": 16, "why_unknown": ""}' \
		"$1" "$2" "$3" "$4" "$5"
}

# run8 DIR: an 8-rank run on 8 x H100 (NVLink 4, NVSwitch, NVLS).
run8() {
	mkdir -p "$1"
	{
		cb_summary1_header
		row nccl 8 1073741824 1 470
		row nccl 8 4294967296 0 480
		row nccl.nvls.simple 8 1073741824 1 466.35
		row nccl.ring.simple 8 4294967296 0 333
		row ring 8 4294967296 0 300
	} >"$1/summary.csv"
	meta "$1/np8.meta.json" 8 "$(topo "NVIDIA H100 80GB HBM3" 8 4 true true)"
}

# expect STATUS PATTERN ARGS...: the exit status, and PATTERN (an ERE) in
# stdout+stderr.
expect() {
	local want=$1 pattern=$2 rc
	shift 2
	"$cmp" "$@" >"$t/out" 2>"$t/err"
	rc=$?
	cat "$t/out" "$t/err" >"$t/all"
	[ "$rc" = "$want" ] || { cat "$t/all" >&2; fail "exit $rc, expected $want for: $*"; }
	grep -Eq -- "$pattern" "$t/all" || { cat "$t/all" >&2; fail "no '$pattern' for: $*"; }
}

# a copy of the shipped table with line N's column COL set to VALUE
bad_table() {
	python3 - "$table" "$t/bad.csv" "$@" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
line, col, val = int(sys.argv[3]), sys.argv[4], sys.argv[5]
rows[line - 2][col] = val
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=rows[0].keys())
w.writeheader(); w.writerows(rows)
PY
}

case $case in
h100)
	run8 "$t/run"
	expect 0 "np 8: 8 x NVIDIA H100 80GB HBM3, nvlink4-nvswitch, NVLS" --reference "$t/run"
	# at the entries' sizes: ours, published, ratio; a peak entry against our peak
	grep -Eq '^  nccl\.nvls\.simple +nvls +1G +ip +466\.35 +466\.35 +1\.00  Azure ND H100 v5' "$t/out" ||
		fail "the NVLS row is not placed against Azure's 1G figure: $(cat "$t/out")"
	grep -Eq '^  nccl\.ring\.simple +ring +4G +oop +333\.00 +370\.00 +0\.90 ' "$t/out" ||
		fail "the ring row is not placed against the 370 GB/s figure: $(cat "$t/out")"
	grep -Eq '^  nccl +default +4G +peak +480\.00 +480\.00 +1\.00 .*nccl-tests/issues/212' "$t/out" ||
		fail "the nccl row's peak is not placed against NVIDIA's ~480 GB/s: $(cat "$t/out")"
	! grep -Eq '^  ring ' "$t/out" || fail "our own ring was placed against NCCL's figures"
	! grep -q "H200\|A100" "$t/out" || fail "another platform's entry was matched"
	grep -q "matching entries (NVIDIA H100 80GB HBM3 family, 8 GPUs, nvlink4-nvswitch); [0-9]* without a row" "$t/out" ||
		fail "no count of the matches: $(cat "$t/out")"
	;;
nearest)
	# 4 x H100 on NVSwitch: no entry has 4 GPUs; nearest is an 8 x H100 entry
	run8 "$t/run"
	meta "$t/run/np8.meta.json" 8 "$(topo "NVIDIA H100 80GB HBM3" 4 4 true true)"
	expect 0 "no published figure for this platform; nearest: 8 x H100 \(nvlink4-nvswitch\), line 2: .*not a match \(4 GPUs, not 8\)" \
		--reference "$t/run"
	# a GPU the table lacks on NVLink 3: nearest by interconnect (A100's), then count
	meta "$t/run/np8.meta.json" 8 "$(topo "NVIDIA Z9" 8 3 true false)"
	expect 0 "nearest: 8 x A100 \(nvlink3-nvswitch\).*not a match \(GPU NVIDIA Z9, not A100\)" \
		--reference "$t/run"
	# a family must be a whole word: H10 is not H100
	meta "$t/run/np8.meta.json" 8 "$(topo "NVIDIA H10" 8 4 true true)"
	expect 0 "nearest: .*not a match \(GPU NVIDIA H10, not H100\)" --reference "$t/run"
	;;
bad_table)
	run8 "$t/run"
	bad_table 3 busbw_GBps "fast"
	expect 2 "bad\.csv: line 3: busbw_GBps: not a positive number" --reference --ref-table "$t/bad.csv" "$t/run"
	bad_table 2 source_date "May 2024"
	expect 2 "line 2: source_date: not YYYY-MM-DD" --reference --ref-table "$t/bad.csv" "$t/run"
	bad_table 4 source_url ""
	expect 2 "line 4: source_url: empty" --reference --ref-table "$t/bad.csv" "$t/run"
	bad_table 5 gpu_count "8.5"
	expect 2 "line 5: gpu_count: not a positive integer" --reference --ref-table "$t/bad.csv" "$t/run"
	cut -d, -f1-7 "$table" >"$t/cols.csv"
	expect 2 "cols\.csv: no column 'nccl_version'" --reference --ref-table "$t/cols.csv" "$t/run"
	head -n 1 "$table" >"$t/empty.csv"
	expect 2 "empty\.csv: no entries" --reference --ref-table "$t/empty.csv" "$t/run"
	printf 'a,"b\n' >"$t/notcsv.csv"
	expect 2 "notcsv\.csv" --reference --ref-table "$t/notcsv.csv" "$t/run"
	expect 2 "nope\.csv" --reference --ref-table "$t/nope.csv" "$t/run"
	expect 2 "--reference takes CURRENT alone, got 2" --reference "$t/run" "$t/run"
	;;
no_topology)
	run8 "$t/run"
	meta "$t/run/np8.meta.json" 8 '{"known": false, "why_unknown": "no NVML on this host"}'
	expect 2 "np 8: not placed: no NVML on this host" --reference "$t/run"
	grep -q "nothing to place" "$t/err" || fail "no final message"
	sed -i 's/"topology": [^}]*}, //' "$t/run/np8.meta.json"
	expect 2 'no "topology" in .*np8\.meta\.json' --reference "$t/run"
	;;
shipped)
	# the shipped table loads, has at least 8 entries, each with a source and
	# a date, and the 8xH100 platform is in it
	n=$(python3 - "$table" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    assert r["source_url"].startswith("https://") and r["source_title"], r
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", r["source_date"]), r
print(len(rows))
PY
) || fail "the shipped table lacks a source or a date"
	[ "$n" -ge 8 ] || fail "only $n entries"
	run8 "$t/run"
	expect 0 "reference: .*nccl_published\.csv \($n entries\)" --reference "$t/run"
	;;
*) fail "unknown case $case" ;;
esac
