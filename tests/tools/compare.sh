#!/usr/bin/env bash
# collbench-compare on crafted inputs: each case checks the exit status
# (0 no regression, 1 regression, 2 usage or input error; never a crash) and
# the message or row name that must appear.
#   compare.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
cmp="$bin/collbench-compare"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

header=$(cb_summary1_header)

# row ALGO BYTES TIME_US TIME_LO TIME_HI: one ok float-sum row on 2 ranks,
# bandwidths computed from the times as allreduce_perf does (copy: no busbw);
# the median equals the mean, the repeats' medians span the same band.
row() {
	awk -v a="$1" -v b="$2" -v t="$3" -v lo="$4" -v hi="$5" 'BEGIN {
		bw = b / t / 1e3; f = (a == "copy") ? "" : 1
		busbw = (f == "") ? "" : sprintf("%.6g", bw)
		blo = (f == "") ? "" : sprintf("%.6g", b / hi / 1e3)
		bhi = (f == "") ? "" : sprintf("%.6g", b / lo / 1e3)
		printf "collbench-summary-1,host,%s,2,%d,%d,float,sum,0,20,%.6g,%.6g,%.6g,%.6g,%.6g,%s,0,,,,ok,5,3,%.6g,%.6g,%s,%s,0,%.6g,%.6g\n",
			a, b, b / 4, t, t, lo, hi, bw, busbw, lo, hi, blo, bhi, lo, hi }'
}

# meta FILE [BACKEND DEVICE RANKS_PER_NODE CPU MEM_BYTES NRANKS]: a launch
# sidecar as older allreduce_perf wrote it (no "machine": derived from "host").
meta() {
	cat >"$1" <<EOF
{"schema": "collbench-meta-1", "backend": "${2:-host}", "device": "${3:-}",
 "host": {"cpu_model": "${5:-Test CPU}", "cpus_online": 2, "hostname": "t.example.org",
          "mem_bytes": ${6:-25276063744}},
 "mpi": {"nranks": ${7:-2}, "ranks_per_node": ${4:-2}, "nnodes": 1},
 "status": "complete", "tool": "allreduce_perf"}
EOF
}

# meta_machine FILE LABEL CPU [MEM_GIB]: a sidecar with a "machine" identity.
meta_machine() {
	cat >"$1" <<EOF
{"schema": "collbench-meta-1", "backend": "host", "device": "", "gpu_model": "",
 "host": {"cpu_model": "$3", "cpus_online": 2, "hostname": "t", "mem_bytes": 25276063744},
 "machine": {"label": "$2", "label_from": "CB_MACHINE", "cpu_model": "$3", "cpus": 2,
             "mem_gib": ${4:-24}, "gpu_model": ""},
 "mpi": {"nranks": 2, "ranks_per_node": 2, "nnodes": 1},
 "status": "complete", "tool": "allreduce_perf"}
EOF
}

# meta_env FILE ENV_JSON: a sidecar whose "environment" is ENV_JSON.
meta_env() {
	cat >"$1" <<EOF
{"schema": "collbench-meta-1", "backend": "host", "device": "",
 "host": {"cpu_model": "Test CPU", "cpus_online": 2, "hostname": "t.example.org",
          "mem_bytes": 25276063744},
 "mpi": {"nranks": 2, "ranks_per_node": 2, "nnodes": 1},
 "environment": $2, "status": "complete", "tool": "allreduce_perf"}
EOF
}

# mkrun DIR: a run folder with 8 rows (ps, ring, mpi, copy x 1M, 64M).
mkrun() {
	mkdir -p "$1"
	{
		echo "$header"
		row ps 1048576 700 690 710
		row ps 67108864 38000 37500 38500
		row ring 1048576 100 99 101
		row ring 67108864 11000 10800 11200
		row mpi 1048576 300 295 305
		row mpi 67108864 28000 27500 28500
		row copy 1048576 90 89 91
		row copy 67108864 10000 9900 10100
	} >"$1/summary.csv"
	meta "$1/np2.meta.json"
}

# edit DIR ALGO BYTES COLUMN VALUE [COLUMN VALUE ...]: sets columns of one row;
# a VALUE "*F" multiplies the number there by F.
edit() {
	local dir=$1 algo=$2 bytes=$3 IFS=$'\037'
	shift 3
	awk -F, -v OFS=, -v algo="$algo" -v bytes="$bytes" -v sets="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(sets, s, "\037"); print; next }
		$col["algo"] == algo && $col["bytes"] == bytes {
			for (k = 1; k < n; k += 2) {
				c = col[s[k]]; v = s[k + 1]
				$c = (v ~ /^\*/) ? sprintf("%.6g", $c * substr(v, 2)) : v
			}
		}
		{ print }' "$dir/summary.csv" >"$dir/tmp" && mv "$dir/tmp" "$dir/summary.csv"
}

# expect STATUS PATTERN ARGS...: runs collbench-compare ARGS; the exit status
# must be STATUS and PATTERN must appear in stdout+stderr.
expect() {
	local want=$1 pattern=$2 rc
	shift 2
	"$cmp" "$@" >"$t/out" 2>"$t/err"
	rc=$?
	cat "$t/out" "$t/err" >"$t/all"
	[ "$rc" = "$want" ] || { cat "$t/all" >&2; fail "exit $rc, expected $want for: $*"; }
	grep -q -- "$pattern" "$t/all" || { cat "$t/all" >&2; fail "no '$pattern' for: $*"; }
}

# last_line_is TEXT: the summary line is the last line of stdout.
last_line_is() {
	[ "$(tail -n 1 "$t/out")" = "$1" ] || { cat "$t/out" >&2; fail "last line is not '$1'"; }
}

mkrun "$t/base"
cp -r "$t/base" "$t/cur"
# a row 20% slower in every number (bands included)
slow20=(busbw_GBps "*0.8" busbw_GBps_rep_min "*0.8" busbw_GBps_rep_max "*0.8" algbw_GBps "*0.8"
	time_us "*1.25" time_us_rep_min "*1.25" time_us_rep_max "*1.25" time_us_median "*1.25"
	time_us_median_rep_min "*1.25" time_us_median_rep_max "*1.25")

case $case in
identical)
	expect 0 "8 same" "$t/base" "$t/cur"
	last_line_is "0 regressions, 0 improvements, 8 same, 0 missing"
	# the same through the file arguments (np2.csv + np2.meta.json)
	cp "$t/base/summary.csv" "$t/np2.csv" && meta "$t/np2.meta.json"
	expect 0 "8 same" "$t/base" "$t/np2.csv"
	! grep -q "no metadata" "$t/err" || fail "the sidecar of np2.csv was not read"
	;;
identical_real)
	# a real run folder of allreduce_perf (results/reference, every
	# collective; its skipped rows, MPI_Bcast's out of place, are counted
	# apart), against itself
	ref="$CB_TESTS_DIR/../results/reference"
	expect 0 " 0 missing" "$ref" "$ref"
	grep -Eq "^0 regressions, 0 improvements, [0-9]+ same, 0 missing(, [0-9]+ skipped)?$" "$t/out" ||
		fail "unexpected summary: $(tail -n 1 "$t/out")"
	;;
slower20)
	edit "$t/cur" ring 67108864 "${slow20[@]}"
	expect 1 "regression  *ring np2 64M float sum" "$t/base" "$t/cur"
	last_line_is "1 regression, 0 improvements, 7 same, 0 missing"
	grep -q -- "-20.0%" "$t/out" || fail "change -20.0% not shown"
	# time: the same row, mirrored rule
	expect 1 "regression  *ring np2 64M" --metric time "$t/base" "$t/cur"
	# 25% tolerance lets it through
	expect 0 "8 same" --tolerance 25 "$t/base" "$t/cur"
	;;
slower20_busbw_only)
	# only busbw_GBps edited (its repeat band no longer holds it): still caught
	edit "$t/cur" ring 67108864 busbw_GBps "*0.8"
	expect 1 "regression  *ring np2 64M" "$t/base" "$t/cur"
	expect 1 "regression  *ring np2 64M" --stat mean "$t/base" "$t/cur"
	grep -q "outside their own repeat band" "$t/err" || fail "no warning on the edited band"
	;;
outlier)
	# a preempted iteration in every repeat doubles the current mean, not its median
	edit "$t/cur" ring 67108864 busbw_GBps "*0.5" algbw_GBps "*0.5" time_us "*2" \
		time_us_rep_min "*1.6" time_us_rep_max "*3" busbw_GBps_rep_min "*0.33" \
		busbw_GBps_rep_max "*0.6"
	expect 0 "8 same" "$t/base" "$t/cur"
	expect 1 "regression  *ring np2 64M" --stat mean "$t/base" "$t/cur"
	;;
no_median)
	# an older file without the median columns against the same measurement
	# with them (medians 25% below the means, as a skewed run's are): both
	# sides are read on the mean, never one's mean against the other's median
	for a in ps ring mpi copy; do
		for b in 1048576 67108864; do
			edit "$t/base" $a $b time_us_median "*0.75" time_us_median_rep_min "*0.75" \
				time_us_median_rep_max "*0.75"
		done
	done
	cut -d, -f1-11,13-28 "$t/base/summary.csv" >"$t/cur/summary.csv"
	head -n 1 "$t/cur/summary.csv" | grep median >/dev/null && fail "the median columns are still there"
	for args in "$t/base $t/cur" "$t/cur $t/base" "--metric time $t/base $t/cur"; do
		# shellcheck disable=SC2086 # the words of args are the arguments
		expect 0 "8 same" $args
		last_line_is "0 regressions, 0 improvements, 8 same, 0 missing"
		grep -q "8 row(s) lack the median columns (an older file): both sides compared on the mean" \
			"$t/err" || fail "no note of the mean for: $args"
		grep -q "of the median (the mean in 8 row(s)) time" "$t/out" ||
			fail "the heading does not say the mean was read for: $args"
	done
	# the current run 20% slower in its mean alone: a regression on the mean
	edit "$t/cur" ring 67108864 busbw_GBps "*0.8" busbw_GBps_rep_min "*0.8" busbw_GBps_rep_max "*0.8" \
		algbw_GBps "*0.8" time_us "*1.25" time_us_rep_min "*1.25" time_us_rep_max "*1.25"
	expect 1 "regression  *ring np2 64M float sum" "$t/base" "$t/cur"
	last_line_is "1 regression, 0 improvements, 7 same, 0 missing"
	;;
noise_overlap)
	# 20% lower, the current repeats reaching into the baseline's band: beyond
	# the noise cap (twice the 5% tolerance) the bands cannot hide it
	edit "$t/cur" ring 67108864 busbw_GBps "*0.8" busbw_GBps_rep_min "*0.7" busbw_GBps_rep_max 6.0 \
		time_us_median_rep_min "*0.7"
	expect 1 "regression  *ring np2 64M" "$t/base" "$t/cur"
	expect 1 "regression  *ring np2 64M" --stat mean "$t/base" "$t/cur"
	# a cap above the change: the noise decides, and cannot: unknown, exit 4
	expect 4 "unknown  *ring np2 64M .*within the noise: run again" --noise-cap 25 "$t/base" "$t/cur"
	last_line_is "0 regressions, 0 improvements, 7 same, 0 missing, 1 unknown"
	grep -q "unknown, run again (exit 4)" "$t/err" || fail "no word on stderr of what exit 4 means"
	expect 4 "^### collbench-compare: UNKNOWN" --noise-cap 25 --format markdown "$t/base" "$t/cur"
	expect 4 '"gate": "unknown"' --noise-cap 25 --format json "$t/base" "$t/cur"
	# the same change for the better is no reason to fail
	expect 0 "unknown  *ring np2 64M" --noise-cap 25 "$t/cur" "$t/base"
	expect 2 "below --tolerance" --tolerance 10 --noise-cap 5 "$t/base" "$t/cur"
	;;
wide_band)
	# a baseline recorded under load: repeat bands of -40%..+40% on every row;
	# the current run 29% slower on every row. The bands may widen the 10%
	# tolerance to the noise cap (20%) and no further: every row a regression
	cp -r "$t/base" "$t/wide"
	for a in ps ring mpi copy; do
		for b in 1048576 67108864; do
			edit "$t/wide" $a $b busbw_GBps_rep_min "*0.6" busbw_GBps_rep_max "*1.4" \
				time_us_rep_min "*0.6" time_us_rep_max "*1.4" \
				time_us_median_rep_min "*0.6" time_us_median_rep_max "*1.4"
			edit "$t/cur" $a $b busbw_GBps "*0.71" busbw_GBps_rep_min "*0.71" \
				busbw_GBps_rep_max "*0.71" algbw_GBps "*0.71" time_us "*1.40845" \
				time_us_rep_min "*1.40845" time_us_rep_max "*1.40845" \
				time_us_median "*1.40845" time_us_median_rep_min "*1.40845" \
				time_us_median_rep_max "*1.40845"
		done
	done
	expect 1 "8 regressions" --tolerance 10 "$t/wide" "$t/cur"
	last_line_is "8 regressions, 0 improvements, 0 same, 0 missing"
	grep -q -- "-29.0%" "$t/out" || fail "change -29.0% not shown"
	# the cap is the bound: set above the change, the noise cannot tell
	expect 4 "8 unknown" --tolerance 10 --noise-cap 40 "$t/wide" "$t/cur"
	;;
samples)
	# a real run (the committed baseline) against a copy 7% slower in every
	# iteration, its summary and its JSON lines alike: the per-iteration
	# samples (Mann-Whitney, p < 0.001) decide rows whose repeat bands
	# overlap; without the JSON lines those rows are unknown
	ref="$CB_TESTS_DIR/../results/baseline/host-2core"
	cp -r "$ref" "$t/slow"
	python3 - "$t/slow" <<'PY' || fail "cannot write the slowed copy"
import csv, json, sys
d = sys.argv[1]
k = 1.07
rows = list(csv.reader(open(d + "/summary.csv")))
h = rows[0]
for r in rows[1:]:
    for i, name in enumerate(h):
        if r[i] == "" or r[i] == "ok":
            continue
        if name.startswith("time_us") and name != "time_us_cv":
            r[i] = "%.6g" % (float(r[i]) * k)
        elif name.startswith(("busbw_GBps", "algbw_GBps")):
            r[i] = "%.6g" % (float(r[i]) / k)
csv.writer(open(d + "/summary.csv", "w"), lineterminator="\n").writerows(rows)
out = []
for line in open(d + "/np2.jsonl"):
    o = json.loads(line)
    o["time_us_median"] *= k
    o["iterations"]["time_us"] = [x * k for x in o["iterations"]["time_us"]]
    out.append(json.dumps(o))
open(d + "/np2.jsonl", "w").write("\n".join(out) + "\n")
PY
	"$cmp" --format json "$ref" "$t/slow" >"$t/with.json" 2>"$t/err"
	rc=$?
	rm "$t/slow/np2.jsonl"
	"$cmp" --format json "$ref" "$t/slow" >"$t/without.json" 2>>"$t/err"
	python3 - "$t/with.json" "$t/without.json" $rc $? <<'PY' || { cat "$t/err" >&2; fail "samples did not decide"; }
import json, sys
w, wo = (json.load(open(f)) for f in sys.argv[1:3])
rc_w, rc_wo = int(sys.argv[3]), int(sys.argv[4])
by = lambda d, v: [r for r in d["rows"] if r["verdict"] == v]
print("with samples:", w["summary_line"], "exit", rc_w, "; without:", wo["summary_line"], "exit", rc_wo)
assert all(r["p_value"] is None for r in wo["rows"]), "p-values without samples"
assert all(r["p_value"] is not None for r in w["rows"]), "a row without its p-value"
assert len(by(wo, "unknown")) > 0, "no row undecided by the bands: the case tests nothing"
decided = [r for r in by(w, "regression") if r["note"].startswith("samples")]
assert decided and len(by(w, "unknown")) < len(by(wo, "unknown")), "samples decided no row"
assert all(r["p_value"] < 0.001 for r in decided)
assert rc_w == 1 and rc_wo in (1, 4)
PY
	;;
improvement)
	edit "$t/cur" mpi 1048576 busbw_GBps "*1.3" busbw_GBps_rep_min "*1.3" busbw_GBps_rep_max "*1.3"
	expect 0 "improvement  *mpi np2 1M" "$t/base" "$t/cur"
	last_line_is "0 regressions, 1 improvement, 7 same, 0 missing"
	;;
copy_algbw)
	# copy rows have no busbw: compared on algbw (time band)
	edit "$t/cur" copy 67108864 algbw_GBps "*0.5" time_us "*2" time_us_rep_min "*2" time_us_rep_max "*2" \
		time_us_median "*2" time_us_median_rep_min "*2" time_us_median_rep_max "*2"
	expect 1 "regression  *copy np2 64M float sum *algbw" "$t/base" "$t/cur"
	grep -q "compared on algbw" "$t/err" || fail "no note on the algbw fallback"
	;;
missing)
	# a row measured in the baseline and absent now vanished: a failure, unless
	# --allow-missing; a row only in the current run is missing (a warning)
	grep -v ",ps,2,1048576," "$t/base/summary.csv" >"$t/cur/summary.csv"
	expect 1 "vanished  *ps np2 1M float sum  .*measured in baseline, not in current" "$t/base" "$t/cur"
	last_line_is "1 regression (1 vanished), 0 improvements, 7 same, 0 missing"
	grep -q "allow-missing" "$t/err" || fail "no word of --allow-missing"
	expect 0 "ps np2 1M float sum: only in baseline" --allow-missing "$t/base" "$t/cur"
	last_line_is "0 regressions, 0 improvements, 7 same, 1 missing"
	expect 1 "1 missing" --allow-missing --strict "$t/base" "$t/cur"
	# the other way round: new in the current run, a warning only
	expect 0 "only in current" "$t/cur" "$t/base"
	expect 1 "only in current" --strict "$t/cur" "$t/base"
	;;
vanished)
	# a driver update breaks a transport: its rows say skipped now; they ran in
	# the baseline, so the gate fails (CI reads exit 1), in every format
	for b in 1048576 67108864; do edit "$t/cur" ring $b status "skipped:cudaIpcOpenMemHandle failed"; done
	expect 1 "vanished  *ring np2 1M float sum .*measured in baseline, skipped in current" "$t/base" "$t/cur"
	last_line_is "2 regressions (2 vanished), 0 improvements, 6 same, 0 missing"
	expect 1 "^| \*\*vanished\*\* | ring np2 64M float sum |" --format markdown "$t/base" "$t/cur"
	head -n 1 "$t/out" | grep "REGRESSION" >/dev/null || fail "markdown: title"
	expect 1 '"vanished": 2' --format json "$t/base" "$t/cur"
	expect 1 "^vanished,host,ring,2,1048576," --format csv "$t/base" "$t/cur"
	expect 0 "skipped in current" --allow-missing "$t/base" "$t/cur"
	# a row that failed in the baseline and is skipped now was not measured:
	# missing, not vanished
	edit "$t/base" ring 1048576 status "error:3 wrong elements"
	expect 1 "missing  *ring np2 1M" "$t/base" "$t/cur"
	last_line_is "1 regression (1 vanished), 0 improvements, 6 same, 1 missing"
	# every measured row gone: nothing to compare (exit 2), and it says why
	for a in ps mpi copy; do for b in 1048576 67108864; do edit "$t/cur" $a $b status "skipped:x"; done; done
	expect 2 "every row measured in the baseline is skipped or absent" "$t/base" "$t/cur"
	;;
failed)
	edit "$t/cur" ps 1048576 status "error:3 wrong elements"
	expect 1 "failed  *ps np2 1M" "$t/base" "$t/cur"
	last_line_is "1 regression (1 failed), 0 improvements, 7 same, 0 missing"
	;;
filters)
	edit "$t/cur" ring 1048576 "${slow20[@]}"
	expect 0 "4 same" --min-bytes 2M "$t/base" "$t/cur"
	expect 0 "2 same" --algo mpi "$t/base" "$t/cur"
	expect 1 "ring np2 1M" --algo ring,mpi "$t/base" "$t/cur"
	expect 2 "nothing to compare" --algo nosuch "$t/base" "$t/cur"
	;;
formats)
	edit "$t/cur" ring 67108864 "${slow20[@]}"
	expect 1 "^regression,host,ring,2,67108864,float,sum,0,busbw," --format csv "$t/base" "$t/cur"
	[ "$(wc -l <"$t/out")" = 9 ] || fail "csv: expected a header and 8 rows"
	head -n 1 "$t/out" | grep "^verdict,backend,algo,nranks,bytes," >/dev/null || fail "csv header"
	grep -q "^1 regression, 0 improvements, 7 same, 0 missing$" "$t/err" || fail "csv: summary on stderr"
	expect 1 '"summary_line": "1 regression, 0 improvements, 7 same, 0 missing"' --format json "$t/base" "$t/cur"
	grep -q '"verdict": "regression"' "$t/out" || fail "json: no regression row"
	[ "$(tail -c 2 "$t/out" | head -c 1)" = "}" ] || fail "json: output does not end with the object"
	expect 1 "^| \*\*regression\*\* | ring np2 64M float sum |" --format markdown "$t/base" "$t/cur"
	# regressions first, the summary line last
	grep "^| " "$t/out" | sed -n 2p | grep regression >/dev/null || fail "markdown: regression not first"
	last_line_is "1 regression, 0 improvements, 7 same, 0 missing"
	head -n 1 "$t/out" | grep "REGRESSION" >/dev/null || fail "markdown: title"
	;;
meta_backend)
	sed -i 's/,host,/,cuda,/' "$t/cur/summary.csv"
	meta "$t/cur/np2.meta.json" cuda "NVIDIA H100"
	expect 2 "backends differ: baseline 'host', current 'cuda'" "$t/base" "$t/cur"
	grep -q "not comparable" "$t/err" || fail "no refusal line"
	# --force: compared anyway (nothing joins: backend is part of the key)
	expect 2 "compared anyway" --force "$t/base" "$t/cur"
	;;
meta_device)
	meta "$t/base/np2.meta.json" host "NVIDIA A100-SXM4-80GB"
	meta "$t/cur/np2.meta.json" host "NVIDIA H100 80GB HBM3"
	expect 2 "GPU models differ" "$t/base" "$t/cur"
	expect 0 "compared anyway: --force" --force "$t/base" "$t/cur"
	;;
meta_placement)
	meta "$t/cur/np2.meta.json" host "" 1
	expect 2 "2 ranks placed differently: baseline 2 per node on 1 node(s)" "$t/base" "$t/cur"
	;;
meta_dtype)
	sed -i 's/,float,/,double,/' "$t/cur/summary.csv"
	expect 2 "dtypes differ: baseline 'float', current 'double'" "$t/base" "$t/cur"
	;;
machine)
	# a baseline belongs to one machine: another CPU is refused, with advice
	meta "$t/cur/np2.meta.json" host "" 2 "AMD EPYC 7B13"
	expect 2 "machines differ: baseline 't (Test CPU, 2 CPUs)', current 't (AMD EPYC 7B13" \
		"$t/base" "$t/cur"
	grep -q "scripts/regress.sh --update-baseline" "$t/err" || fail "no advice on a local baseline"
	expect 0 "compared anyway: --force" --force "$t/base" "$t/cur"
	# memory is no part of the identity: a few pages apart (another boot), on
	# both sides of the edge of rounding to GiB (23.49 and 23.51 GiB), or 8 GiB
	# less, it is the same machine
	meta "$t/cur/np2.meta.json" host "" 2 "Test CPU" 25276502016
	expect 0 "8 same" "$t/base" "$t/cur"
	meta "$t/base/np2.meta.json" host "" 2 "Test CPU" 25222382797
	meta "$t/cur/np2.meta.json" host "" 2 "Test CPU" 25243857633
	expect 0 "8 same" "$t/base" "$t/cur"
	meta "$t/cur/np2.meta.json" host "" 2 "Test CPU" 16686129152
	expect 0 "8 same" "$t/base" "$t/cur"
	# a "machine" object (mem_gib 23 and 24), and one against an older file's
	# "host" facts (label: the host name up to its first dot)
	meta_machine "$t/base/np2.meta.json" t "Test CPU" 23
	meta_machine "$t/cur/np2.meta.json" t "Test CPU" 24
	expect 0 "8 same" "$t/base" "$t/cur"
	meta "$t/base/np2.meta.json"
	expect 0 "8 same" "$t/base" "$t/cur"
	# labels (CB_MACHINE): the same hardware under two labels is two machines
	meta_machine "$t/base/np2.meta.json" ci-a "Test CPU"
	meta_machine "$t/cur/np2.meta.json" ci-b "Test CPU"
	expect 2 "machines differ: baseline 'ci-a (Test CPU, 2 CPUs)', current 'ci-b" \
		"$t/base" "$t/cur"
	meta_machine "$t/cur/np2.meta.json" ci-a "Test CPU"
	expect 0 "8 same" "$t/base" "$t/cur"
	;;
n1_busbw0)
	# busbw is 0 at n = 1 and for 0 bytes: a row 75x slower must not be "same"
	n1() { # ALGO BYTES TIME: an ok row on 1 rank, busbw 0
		awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
			printf "collbench-summary-1,host,%s,1,%d,%d,float,sum,0,20,%.6g,%.6g,%.6g,%.6g,%.6g,0,0,,,,ok,5,1,%.6g,%.6g,0,0,0,%.6g,%.6g\n",
				a, b, b / 4, t, t, t, t, b / t / 1e3, t, t, t, t }'
	}
	{ echo "$header"; n1 ring 1048576 100; n1 ring 0 0.5; n1 ps 1048576 200; } >"$t/base/summary.csv"
	{ echo "$header"; n1 ring 1048576 7500; n1 ring 0 37.5; n1 ps 1048576 200; } >"$t/cur/summary.csv"
	meta "$t/base/np2.meta.json" host "" 1 "Test CPU" 25276063744 1
	meta "$t/cur/np2.meta.json" host "" 1 "Test CPU" 25276063744 1
	expect 1 "regression  *ring np1 1M float sum  *algbw " "$t/base" "$t/cur"
	grep -q "regression  *ring np1 0 float sum  *time " "$t/out" || { cat "$t/out" >&2; fail "0-byte row"; }
	grep -q "same  *ps np1 1M float sum  *algbw " "$t/out" || { cat "$t/out" >&2; fail "ps row"; }
	last_line_is "2 regressions, 0 improvements, 1 same, 0 missing"
	grep -q "compared on algbw" "$t/err" && grep -q "compared on time" "$t/err" ||
		{ cat "$t/err" >&2; fail "no note on the metrics used"; }
	! grep -Eqi "nan|inf" "$t/out" || { cat "$t/out" >&2; fail "NaN or inf in the report"; }
	expect 1 '"metric": "time"' --format json "$t/base" "$t/cur"
	! grep -Eqi "nan|inf" "$t/out" || fail "NaN or inf in the JSON report"
	expect 1 "^regression,host,ring,1,1048576,float,sum,0,algbw," --format csv "$t/base" "$t/cur"
	! grep -Eqi "nan|inf" "$t/out" || fail "NaN or inf in the CSV report"
	;;
bom)
	# a spreadsheet's byte-order mark before the header is not part of "schema"
	printf '\xef\xbb\xbf' | cat - "$t/base/summary.csv" >"$t/cur/summary.csv"
	expect 0 "8 same" "$t/base" "$t/cur"
	;;
non_utf8)
	# paths are bytes: the JSON report carries them under the \xHH rule
	odd=$t/$(printf 'run\xff\xe9')
	cp -r "$t/cur" "$odd"
	expect 0 '"current": ".*run\\\\xff\\\\xe9"' --format json "$t/base" "$odd"
	expect 0 "8 same" "$t/base" "$odd"
	# names, fields and paths echoed in messages follow the \xHH rule too, in
	# compare, history and model: never a raw byte on stderr
	sed -i '2s/^\([^,]*,[^,]*,\)[^,]*/\1p\xe9s/' "$odd/summary.csv"
	rm "$t/cur/np2.meta.json"
	cp -r "$t/cur" "$t/nometa"$'\xe9'
	for c in "$cmp $t/base $odd" "$bin/collbench-model fit $odd" \
		"$bin/collbench-history ingest --db $t/h.db $odd" "$bin/collbench-model fit $t/none"$'\xe9' \
		"$cmp $t/base $t/nometa"$'\xe9'; do
		$c >"$t/out" 2>"$t/err"
		LC_ALL=C.UTF-8 grep -qax '.*' "$t/err" && ! grep -q $'\xe9' "$t/err" ||
			{ cat -v "$t/err" >&2; fail "raw bytes on stderr of: $(printf "%s" "$c" | cat -v)"; }
		grep -q 'p\\xe9s\|none\\xe9\|nometa\\xe9' "$t/err" ||
			{ cat -v "$t/err" >&2; fail "no \\xHH name in the message of: $(printf "%s" "$c" | cat -v)"; }
	done
	;;
stdout_full)
	# a report that cannot be written is an error, named, never a verdict
	"$cmp" "$t/base" "$t/cur" >/dev/full 2>"$t/err"
	rc=$?
	[ $rc = 2 ] || fail "exit $rc with stdout on /dev/full, expected 2"
	grep -q "cannot write the report to stdout: No space left on device" "$t/err" ||
		{ cat "$t/err" >&2; fail "no message naming stdout"; }
	"$cmp" --format json "$t/base" "$t/cur" >/dev/full 2>"$t/err"
	[ $? = 2 ] || fail "json on /dev/full: exit status is not 2"
	;;
meta_absent_warns)
	rm "$t/cur/np2.meta.json"
	expect 0 "no metadata sidecar" "$t/base" "$t/cur"
	;;
meta_malformed)
	echo '{"schema": "collbench-meta-1", "backend": ' >"$t/cur/np2.meta.json"
	expect 2 "np2.meta.json: not valid JSON: line" "$t/base" "$t/cur"
	echo '{"schema": "collbench-meta-1", "backend": "host", "mpi": {"nranks": "two"}}' >"$t/cur/np2.meta.json"
	expect 2 'missing or invalid key "mpi.nranks"' "$t/base" "$t/cur"
	# a future version is refused, the launch's sidecar and the run's meta.json alike
	meta "$t/cur/np2.meta.json" && sed -i 's/collbench-meta-1/collbench-meta-99/' "$t/cur/np2.meta.json"
	expect 2 'np2.meta.json: not a launch metadata file: "schema" is not "collbench-meta-1"' \
		"$t/base" "$t/cur"
	meta "$t/cur/np2.meta.json"
	echo '{"schema": "collbench-run-1", "run_id": "cur"}' >"$t/cur/meta.json"
	expect 0 "8 same" "$t/base" "$t/cur"
	echo '{"schema": "collbench-run-9", "run_id": "cur"}' >"$t/cur/meta.json"
	expect 2 'cur/meta.json: not a run metadata file: "schema" is not "collbench-run-1"' \
		"$t/base" "$t/cur"
	expect 2 'cur/meta.json: not a run metadata file' "$t/cur/summary.csv" "$t/base"
	;;
malformed)
	f=$t/cur/summary.csv
	# a device where the summary is meant: named at once, not read up to the size cap
	ln -sf /dev/zero "$f"
	expect 2 "summary.csv is not a regular file (a character device)" "$t/base" "$t/cur"
	rm -f "$f"
	: >"$f"
	expect 2 "empty file" "$t/base" "$t/cur"
	echo "$header" >"$f"
	expect 2 "nothing to compare" "$t/base" "$t/cur"
	{ echo "$header"; echo "collbench-summary-1,host,ring,2,1048576"; } >"$f"
	expect 2 "line 2 has a different number of fields" "$t/base" "$t/cur"
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 busbw_GBps fast
	expect 2 "line [0-9]*: column busbw_GBps: 'fast' is not a number" "$t/base" "$t/cur"
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 time_us 1e999
	expect 2 "column time_us: 1e999 is out of range" "$t/base" "$t/cur"
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 bytes 123456789012345678901234567890
	expect 2 "column bytes: .* is out of range" "$t/base" "$t/cur"
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 busbw_GBps NaN
	expect 2 "'NaN' is not a number" "$t/base" "$t/cur"
	# a measured row of 1 MiB in 0 us is impossible, never an improvement of -100%
	for c in time_us time_us_median time_us_rep_min time_us_median_rep_max; do
		cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 $c 0
		expect 2 "line 4: column $c: 0 us for 1048576 bytes: a measured time is above 0" \
			"$t/base" "$t/cur"
	done
	# a failed row's 0 is no measurement
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 time_us 0 status "error:watchdog"
	expect 1 "failed  *ring np2 1M" "$t/base" "$t/cur"
	cp "$t/base/summary.csv" "$f" && edit "$t/cur" ring 1048576 schema collbench-summary-4
	expect 2 "schema 'collbench-summary-4' is not collbench-summary-3, collbench-summary-2 or collbench-summary-1" \
		"$t/base" "$t/cur"
	cut -d, -f1-6,8- "$t/base/summary.csv" >"$f"
	expect 2 "no column 'dtype'" "$t/base" "$t/cur"
	head -c 700 "$t/base/summary.csv" >"$f"
	expect 2 "different number of fields" "$t/base" "$t/cur"
	{ echo "$header"; printf 'collbench-summary-1,"host\n'; } >"$f"
	expect 2 "not valid CSV" "$t/base" "$t/cur"
	head -c 3000 /dev/urandom >"$f"
	"$cmp" "$t/base" "$t/cur" >/dev/null 2>&1
	[ $? = 2 ] || fail "random bytes: exit status is not 2"
	# a rank CSV is a different schema
	printf 'schema,backend,algo,nranks,bytes,rank,tx_bytes,rx_bytes,time_us,dtype,op,in_place\n' >"$f"
	expect 2 "no column" "$t/base" "$t/cur"
	;;
floor)
	# --min-busbw on CURRENT alone (busbw: ps 1.50/1.77, ring 10.5/6.10, mpi
	# 3.50/2.40 GB/s at 1M/64M; copy has none)
	expect 0 "floor: 4 row(s) at or above, 0 below, 0 failed" --min-busbw 'ring=5,ps@1M=1.4' "$t/cur"
	expect 1 "below floor: ring np2 64M float sum busbw 6.101 GB/s (median) < 7 GB/s" \
		--min-busbw 'ring@16M=7' "$t/cur"
	grep -q "ring np2 1M" "$t/all" && fail "a row outside the size range was judged"
	expect 0 "floor: 1 row(s) at or above" --min-busbw 'ring@1M-2M=7' "$t/cur"
	# every rule a row matches applies (the highest floor); copy is not judged
	expect 1 "below floor: ps np2 64M float sum busbw 1.766" --min-busbw '*@64M=2,mpi=1' "$t/cur"
	grep -q "1 without a busbw not judged" "$t/all" || fail "copy's row not counted as unjudged"
	# with a baseline: the comparison passes, the floor fails the run
	expect 1 "below floor: ps np2 1M" --min-busbw 'ps=100' "$t/base" "$t/cur"
	grep -q "8 same" "$t/all" || fail "the comparison did not run beside the floor"
	edit "$t/cur" ring 67108864 status "error:watchdog"
	expect 1 "below floor: ring np2 64M float sum failed (watchdog)" --min-busbw 'ring=1' "$t/cur"
	expect 2 "matched no measured row" --min-busbw 'nccl=1' "$t/cur"
	expect 2 "'ring' is not ALGO" --min-busbw 'ring' "$t/cur"
	expect 2 "'0' is not a bandwidth > 0" --min-busbw 'ring=0' "$t/cur"
	expect 2 "bad size range for ring" --min-busbw 'ring@2M-1M=3' "$t/cur"
	expect 2 "or CURRENT alone" --min-busbw 'ring=1' "$t/base" "$t/cur" "$t/cur"
	;;
libconf)
	# rows made under another library configuration (Open MPI's forced
	# algorithm) are another measurement: refused, naming the variable
	meta_env "$t/base/np2.meta.json" '{"MALLOC_MMAP_MAX_": "0"}'
	meta_env "$t/cur/np2.meta.json" '{"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
	  "OMPI_MCA_coll_tuned_allreduce_algorithm": "1", "MALLOC_MMAP_MAX_": "0"}'
	expect 2 "OMPI_MCA_coll_tuned_allreduce_algorithm is unset in the baseline" \
		"$t/base" "$t/cur"
	grep -q "not comparable (--force" "$t/err" || fail "no word of --force"
	expect 0 "compared anyway: --force" --force "$t/base" "$t/cur"
	# another value, named with both
	meta_env "$t/base/np2.meta.json" '{"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
	  "OMPI_MCA_coll_tuned_allreduce_algorithm": "4"}'
	expect 2 "allreduce_algorithm is '4' in the baseline.*'1' in the current" \
		"$t/base" "$t/cur"
	# NCCL's and UCX's too; logging, placement and the allocator are not
	meta_env "$t/base/np2.meta.json" '{"NCCL_PROTO": "LL"}'
	meta_env "$t/cur/np2.meta.json" '{"NCCL_PROTO": "Simple"}'
	expect 2 "NCCL_PROTO is 'LL'" "$t/base" "$t/cur"
	meta_env "$t/base/np2.meta.json" '{"NCCL_DEBUG": "INFO", "MALLOC_MMAP_MAX_": "0",
	  "OMPI_MCA_mpi_oversubscribe": "0", "UCX_TLS": "tcp"}'
	meta_env "$t/cur/np2.meta.json" '{"OMPI_MCA_mpi_oversubscribe": "1", "UCX_TLS": "tcp"}'
	expect 0 "8 same" "$t/base" "$t/cur"
	# an environment that is not an object of strings is refused by the reader
	meta_env "$t/cur/np2.meta.json" '{"NCCL_PROTO": 3}'
	expect 2 "invalid key \"environment\"" "$t/base" "$t/cur"
	;;
plan_digest)
	# a plan file edited between the runs under the same name (--plan; the
	# metadata records its digest): its rows measure another schedule,
	# refused as another library configuration is
	for d in base cur; do
		edit "$t/$d" ring 1048576 algo pair2
		edit "$t/$d" ring 67108864 algo pair2
	done
	meta_plan() { # FILE NAME DIGEST
		sed 's/"status": "complete"/"plan_file": {"name": "'"$2"'", "path": "p.json", '"$3"'"ranks": 2}, &/' \
			"$1" >"$1.tmp" && mv "$1.tmp" "$1"
	}
	meta "$t/base/np2.meta.json"
	cp "$t/base/np2.meta.json" "$t/orig.meta.json"
	meta_plan "$t/base/np2.meta.json" pair2 '"digest": "14d5ff8a37019067", '
	cp "$t/base/np2.meta.json" "$t/cur/np2.meta.json"
	expect 0 "8 same" "$t/base" "$t/cur"
	sed -i 's/14d5ff8a37019067/9b0e1c35a2d4f788/' "$t/cur/np2.meta.json"
	expect 2 "the plan behind pair2 differs at 2 ranks: digest 14d5ff8a37019067 in the baseline" \
		"$t/base" "$t/cur"
	grep -q "9b0e1c35a2d4f788 in the current run" "$t/err" || fail "no current digest named"
	grep -q "not comparable (--force" "$t/err" || fail "no word of --force"
	expect 0 "compared anyway: --force" --force "$t/base" "$t/cur"
	# --algo leaving the plan's rows out: nothing of the plan is compared
	expect 0 "6 same" --algo ps,ring,mpi,copy "$t/base" "$t/cur"
	# another plan's name beside it, or a plan without rows in one run: no refusal
	sed -i 's/"pair2"/"other"/' "$t/cur/np2.meta.json"
	expect 0 "8 same" "$t/base" "$t/cur"
	# a sidecar from before the digest: said, not refused
	cp "$t/orig.meta.json" "$t/cur/np2.meta.json"
	meta_plan "$t/cur/np2.meta.json" pair2 ""
	expect 0 "does not record plan pair2's digest" "$t/base" "$t/cur"
	# a mistyped plan_file is the reader's refusal
	sed -i 's/"plan_file": {[^}]*}/"plan_file": 3/' "$t/cur/np2.meta.json"
	expect 2 'invalid key "plan_file"' "$t/base" "$t/cur"
	;;
usage)
	expect 2 "expected BASELINE and CURRENT" "$t/base"
	expect 2 "expected BASELINE and CURRENT" "$t/base" "$t/cur" "$t/cur"
	expect 2 "'--nope' is not a known option" --nope "$t/base" "$t/cur"
	expect 2 "--algo: 'ring,,mpi' has an empty entry" --algo ring,,mpi "$t/base" "$t/cur"
	expect 2 "--tolerance: invalid value 'five'" --tolerance five "$t/base" "$t/cur"
	expect 2 "--metric: invalid value" --metric speed "$t/base" "$t/cur"
	expect 2 "needs a value" "$t/base" "$t/cur" --format
	expect 2 "cannot open $t/nothere" "$t/base" "$t/nothere"
	mkdir "$t/emptydir"
	expect 2 "not a run folder" "$t/emptydir" "$t/cur"
	expect 0 "exit status: 0 no regression" --help
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "compare.sh $case: ok"
