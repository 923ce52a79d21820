#!/usr/bin/env bash
# collbench-model on crafted inputs: each case checks the exit status (0 done,
# 1 check --gate found a row far off, 2 usage or input error; never a crash)
# and the message or value that must appear.
#   model.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
cm="$bin/collbench-model"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

header=$(cb_summary1_header)

# synth DIR [SLOW_ALGO SLOW_BYTES FACTOR]: a run folder of ps, ring and copy at
# 2 ranks, 64 B .. 64 MiB x4, float, timed exactly as the model says with
# overhead 0.05 us, alpha 1 us, beta 10 GB/s, gamma 4 GB/s and 256 KiB ring
# slices (repeats +-2%); the one row SLOW_ALGO/SLOW_BYTES FACTOR times slower.
synth() {
	mkdir -p "$1"
	{
		echo "$header"
		awk -v slow="${2:-}" -v sb="${3:-0}" -v f="${4:-1}" 'BEGIN {
			t0 = 0.05e-6; a = 1e-6; b = 10e9; g = 4e9
			split("ps ring copy", al, " ")
			for (k = 1; k <= 3; k++) for (s = 64; s <= 67108864; s *= 4) {
				if (al[k] == "ps") t = t0 + 2 * a + 2 * s / b + s / g
				else if (al[k] == "copy") t = t0 + s / b
				else {
					ns = int((s / 8 + 65535) / 65536)
					t = t0 + 2 * ns * a + (s / 2) / g + (s / 2) / b
				}
				if (al[k] == slow && s == sb) t *= f
				us = t * 1e6; bw = s / us / 1e3
				bus = (al[k] == "copy") ? "" : sprintf("%.6g", bw)
				printf "collbench-summary-1,host,%s,2,%d,%d,float,sum,0,20,%.9g,%.9g,%.9g,%.9g,%.6g,%s,0,,,,ok,5,3,%.9g,%.9g,,,0,%.9g,%.9g\n",
					al[k], s, s / 4, us, us, us * 0.98, us * 1.02, bw, bus,
					us * 0.98, us * 1.02, us * 0.98, us * 1.02
			}
		}'
	} >"$1/summary.csv"
	cat >"$1/np2.meta.json" <<EOF
{"schema": "collbench-meta-1", "backend": "host", "device": "",
 "host": {"cpu_model": "Test CPU", "cpus_online": 2, "hostname": "t", "mem_bytes": 25276063744},
 "mpi": {"nranks": 2, "ranks_per_node": 2, "nnodes": 1, "oversubscribed": false},
 "options": "root=0;slicebytes=0", "status": "complete", "tool": "allreduce_perf"}
EOF
}

# expect STATUS TEXT CMD...: runs CMD, checks its exit status and that TEXT
# appears in its stdout or stderr.
expect() {
	local want=$1 text=$2 rc
	shift 2
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$t/out" "$t/err" >&2; fail "exit $rc, want $want: $*"; }
	# grep reads the files itself: `cat | grep -q` fails under pipefail when
	# grep stops before cat has written everything (SIGPIPE)
	[ -z "$text" ] || grep -q -- "$text" "$t/out" "$t/err" ||
		{ cat "$t/out" "$t/err" >&2; fail "no '$text' in the output of: $*"; }
}

# json_get FILE EXPR: a value of the JSON file (python3, in every Debian)
json_get() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

case $case in
usage)
	expect 2 usage "$cm"
	expect 0 "exit status" "$cm" --help
	expect 0 "predict" "$cm" fit --help
	expect 2 "unknown verb 'fitt'" "$cm" fitt x
	expect 2 "expected one RUN" "$cm" fit
	expect 2 "expected one RUN" "$cm" check a b
	expect 2 "unexpected argument" "$cm" predict extra
	expect 2 "does not apply" "$cm" fit --gate "$t"
	expect 2 "does not apply" "$cm" predict --tiers 2
	expect 2 "far" "$cm" check --far abc "$t"
	expect 2 "tiers" "$cm" fit --tiers 4M,1M "$t"
	expect 2 "ranks" "$cm" predict -n 0
	expect 2 "ranks" "$cm" predict -n 2,,4
	expect 2 "larger than" "$cm" predict -b 1G -e 1M
	expect 2 "root 99 is not a rank of 4 ranks" "$cm" predict -r 99 -n 4
	expect 2 "root 4 is not a rank of 4 ranks" "$cm" predict -r 4 -n 8,4
	expect 0 "" "$cm" predict -r 3 -n 4,8 -b 1M -e 1M
	;;
fit_recovers)
	# --no-fresh: synth's times are sums by hand (ps's unpipelined), which the
	# fresh reads' rate would partly absorb; the unit test fits it on rows the
	# model made (test_model_fit.c)
	synth "$t/run"
	expect 0 "" "$cm" fit --tiers 1 --no-fresh "$t/run" -o "$t/fit.json"
	grep -q '"schema"' "$t/out" && fail "-o: the table goes to stdout, not JSON"
	awk '/shm/ { found = 1 } END { exit !found }' "$t/out" || fail "no fit table on stdout"
	for kv in "alpha_us 1" "tiers'][0]['beta_GBps 10" "tiers'][0]['gamma_GBps 4" "overhead_us 0.05"; do
		set -- $kv
		v=$(json_get "$t/fit.json" "d['groups'][0]['$1']") || fail "no $1 in the fit"
		awk -v v="$v" -v w="$2" 'BEGIN { exit !(v / w > 0.99 && v / w < 1.01) }' ||
			fail "$1 = $v, want $2 within 1%"
	done
	lo=$(json_get "$t/fit.json" "d['groups'][0]['tiers'][0]['beta_GBps_repeats'][0]")
	awk -v v="$lo" 'BEGIN { exit !(v > 10.1) }' || fail "fastest repeats' beta $lo, want > 10.1"
	# the table labels its brackets and gives the standard error
	head -n 1 "$t/out" | grep "alpha_us +-se \[fast, slow\] *beta_GBps +-se \[fast, slow\]" >/dev/null ||
		fail "the fit table's header does not label the brackets"
	grep -q "^+-se: standard error from the residuals; \[fast, slow\]: " "$t/out" || fail "no legend"
	grep -qE ' 10(\.0*)? \+-[0-9.e-]+ \[10\.[1-9][0-9]*, 9\.[0-9]+\]' "$t/out" ||
		fail "beta: no '10 +-se [fast, slow]' cell"
	# one repeat: the repeats' fits equal the value, so no bracket
	awk -F, -v OFS=, 'NR > 1 { $24 = $25 = $11; $29 = $30 = $12 } 1' "$t/run/summary.csv" >"$t/one.csv"
	cp "$t/run/np2.meta.json" "$t/one.meta.json"
	expect 0 "" "$cm" fit --tiers 1 --format table "$t/one.csv"
	grep -q "shm" "$t/out" || fail "no fit of one repeat"
	grep "shm" "$t/out" | grep "\[" >/dev/null && fail "one repeat: brackets shown"
	expect 0 '"schema": "collbench-model-fit-1"' "$cm" fit --tiers 1 "$t/run"
	;;
library)
	# check --library: which forced algorithm (mpi.*) the default mpi row ran
	lrow() { # ALGO NRANKS BYTES TIME_US TX_TOTAL TXRX_MAX (empty: unmeasured)
		awk -v a="$1" -v n="$2" -v b="$3" -v t="$4" -v tx="$5" -v mx="$6" 'BEGIN {
			bw = b / t / 1e3
			printf "collbench-summary-1,host,%s,%d,%d,%d,float,sum,0,20,%.9g,%.9g,%.9g,%.9g,%.6g,%.6g,0,%s,%s,,ok,5,3,%.9g,%.9g,,,0,%.9g,%.9g\n",
				a, n, b, b / 4, t, t, t, t, bw, bw, tx, mx, t, t, t, t }'
	}
	mkdir -p "$t/lib"
	M=1048576 K=4096
	{
		echo "$header"
		# 4 ranks, 1 MiB: ring and Rabenseifner move the same bytes as the
		# default, Rabenseifner is nearer in time; the table says Rabenseifner
		lrow mpi 4 $M 1000 $((6 * M)) $((3 * M))
		lrow mpi.ring 4 $M 1020 $((6 * M)) $((3 * M))
		lrow mpi.rabenseifner 4 $M 990 $((6 * M)) $((3 * M))
		lrow mpi.basic_linear 4 $M 1500 $((6 * M)) $((6 * M))
		lrow mpi.recursive_doubling 4 $M 1100 $((8 * M)) $((4 * M))
		# 4 ranks, 4 KiB: recursive doubling's bytes, though the ring is nearer
		# in time; the table says recursive doubling
		lrow mpi 4 $K 50 $((8 * K)) $((4 * K))
		lrow mpi.ring 4 $K 50 $((6 * K)) $((3 * K))
		lrow mpi.recursive_doubling 4 $K 60 $((8 * K)) $((4 * K))
		# 4 ranks, 16 KiB, traffic unmeasured: the nearest in time, the ring,
		# is not the table's Rabenseifner
		lrow mpi 4 16384 100 "" ""
		lrow mpi.ring 4 16384 101 "" ""
		lrow mpi.recursive_doubling 4 16384 150 "" ""
		# 2 ranks, no forced row beside it: left out
		lrow mpi 2 $M 300 $((2 * M)) $((2 * M))
	} >"$t/lib/summary.csv"
	expect 0 "at 2 of 3 points" "$cm" check --library "$t/lib"
	grep -q "1048576 .* rabenseifner,ring *rabenseifner *0.99 *rabenseifner *yes" "$t/out" ||
		fail "1 MiB: $(cat "$t/out")"
	grep -q " 4096 .* recursive_doubling *recursive_doubling *1.2 *recursive_doubling *yes" "$t/out" ||
		fail "4 KiB: $(cat "$t/out")"
	grep -q " 16384 .* unmeasured *ring *1.01 *rabenseifner *no" "$t/out" ||
		fail "16 KiB: $(cat "$t/out")"
	grep -q "^ *host *2 " "$t/out" && fail "a point without forced rows was shown"
	expect 0 "traffic_matches" "$cm" check --library --format csv "$t/lib"
	# nothing to identify: refused, saying what it needs
	head -n 1 "$t/lib/summary.csv" >"$t/none.csv"
	lrow mpi 2 $M 300 "" "" >>"$t/none.csv"
	expect 2 "no ok mpi row with ok mpi.\* rows" "$cm" check --library "$t/none.csv"
	;;
fit_refuses)
	synth "$t/run"
	awk -F, 'NR == 1 || ($3 == "ring" && $5 == 1048576)' "$t/run/summary.csv" >"$t/one.csv"
	mkdir "$t/one" && mv "$t/one.csv" "$t/one/summary.csv"
	expect 2 "one message size" "$cm" fit "$t/one"
	expect 2 "nothing could be fitted" "$cm" fit "$t/one"
	awk -F, 'NR == 1 || $3 == "ring"' "$t/run/summary.csv" >"$t/ringonly.csv"
	# the ring alone fuses every reduce with a move: the fused rate is its only
	# term beside beta, in a fixed ratio
	expect 2 "(fused) is not determined" "$cm" fit --tiers 1 "$t/ringonly.csv"
	expect 0 "" "$cm" fit --tiers 1 --no-gamma "$t/ringonly.csv"
	expect 2 "no ok row" "$cm" fit --algo nccl "$t/run"
	expect 2 "cannot read\|No such" "$cm" fit "$t/missing"
	echo "not,a,summary" >"$t/bad.csv"
	expect 2 "bad.csv" "$cm" fit "$t/bad.csv"
	;;
fit_degenerate)
	# times that barely grow with size: the least-squares bandwidth is beyond
	# any machine's. fit refuses what check --fit and predict --fit refuse
	# (one check for the writer and the readers): for every slope, either fit
	# writes a file both readers take, or it writes none and says why
	refused=0
	for slope in 0 1e-13 1e-12 1e-11 1e-4; do
		synth "$t/s$slope"
		awk -F, -v OFS=, -v sl="$slope" 'NR > 1 {
			us = 10 + $5 * sl; bw = $5 / us / 1e3
			$11 = $12 = sprintf("%.9g", us); $13 = $24 = $29 = sprintf("%.9g", us * 0.98)
			$14 = $25 = $30 = sprintf("%.9g", us * 1.02); $15 = sprintf("%.6g", bw)
			if ($16 != "") $16 = $15 } 1' "$t/s$slope/summary.csv" >"$t/s.csv" &&
			mv "$t/s.csv" "$t/s$slope/summary.csv"
		"$cm" fit -o "$t/f$slope.json" "$t/s$slope" >"$t/out" 2>"$t/err"
		rc=$?
		if [ $rc = 0 ]; then
			expect 0 "" "$cm" check --fit "$t/f$slope.json" "$t/s$slope"
			expect 0 "" "$cm" predict --fit "$t/f$slope.json" -n 2 -b 1M -e 1M
		else
			[ $rc = 2 ] || { cat "$t/err" >&2; fail "slope $slope: fit exit $rc"; }
			[ ! -e "$t/f$slope.json" ] || fail "slope $slope: a refused fit wrote its file"
			grep -q "must be a number in\|is not determined" "$t/err" ||
				{ cat "$t/err" >&2; fail "slope $slope: no reason"; }
			refused=$((refused + 1))
		fi
	done
	[ $refused -gt 0 ] || fail "no slope gave a degenerate fit: the case tests nothing"
	expect 2 "beta_GBps must be a number in" "$cm" fit -o "$t/f.json" "$t/s1e-12"
	expect 2 "nothing could be fitted" "$cm" check "$t/s1e-12"
	;;
fit_constant)
	# every row at the same 100 us, 64 KiB .. 4 MiB: overhead 100 us and no time
	# per byte fit every row; no bandwidth does. Refused naming beta, exit 2 and
	# no file, with the tiers chosen and with one (not overhead 0 and a
	# saw-tooth of tiers 60% off every row)
	synth "$t/s"
	mkdir -p "$t/run" && cp "$t/s/np2.meta.json" "$t/run/"
	awk -F, -v OFS=, 'NR == 1 { print; next } $5 >= 65536 && $5 <= 4194304 {
		us = 100; bw = $5 / us / 1e3
		$11 = $12 = us; $13 = $24 = $29 = us * 0.98; $14 = $25 = $30 = us * 1.02
		$15 = sprintf("%.6g", bw); if ($16 != "") $16 = $15; print }' \
		"$t/s/summary.csv" >"$t/run/summary.csv"
	for tiers in auto 1 3; do
		expect 2 "beta.*do not grow" "$cm" fit --tiers $tiers -o "$t/f.json" "$t/run"
		[ ! -e "$t/f.json" ] || fail "--tiers $tiers: a refused fit wrote its file"
		grep -q "nothing could be fitted" "$t/err" ||
			fail "--tiers $tiers: no 'nothing could be fitted'"
	done
	;;
fit_output)
	synth "$t/run"
	expect 2 "cannot write" "$cm" fit "$t/run" -o "$t/nodir/fit.json"
	# a name longer than a file name may be: refused with the options (exit 2,
	# before fitting), its writer's temporary suffix counted
	expect 2 "would be [0-9]* bytes long; this file system allows" "$cm" fit "$t/run" \
		-o "$t/$(printf 'f%.0s' $(seq 250)).json"
	[ ! -s "$t/out" ] || fail "a refused -o printed a fit"
	ls "$t"/fff* 2>/dev/null && fail "a file of the refused name was made"
	[ -e "$t/nodir" ] && fail "a folder appeared"
	echo old >"$t/fit.json"
	expect 0 "" "$cm" fit "$t/run" -o "$t/fit.json"
	json_get "$t/fit.json" "d['schema']" | grep collbench-model-fit-1 >/dev/null || fail "fit.json not replaced"
	ls "$t"/fit.json.tmp.* 2>/dev/null && fail "a temporary file was left"
	# -o replaces by rename: never a link, a FIFO, a device (our own node)
	echo target >"$t/target" && ln -s "$t/target" "$t/link.json"
	expect 2 "exists and is not a regular file; not replacing it" "$cm" fit "$t/run" -o "$t/link.json"
	[ -L "$t/link.json" ] && [ "$(cat "$t/target")" = target ] || fail "the link was replaced"
	mkfifo "$t/fifo.json"
	expect 2 "not a regular file" "$cm" fit "$t/run" -o "$t/fifo.json"
	[ -p "$t/fifo.json" ] || fail "the FIFO was replaced"
	if mknod "$t/full" c 1 7 2>/dev/null; then
		expect 2 "not a regular file" "$cm" fit "$t/run" -o "$t/full"
		[ -c "$t/full" ] || fail "the device node was replaced"
	fi
	ls "$t"/*.tmp.* 2>/dev/null && fail "a temporary file was left"
	"$cm" fit "$t/run" --format table -o "$t/f2.json" >/dev/full 2>"$t/err"
	[ $? = 2 ] && grep -q "cannot write stdout" "$t/err" || fail "a full stdout is not an error"
	;;
check_gate)
	synth "$t/a"
	synth "$t/b" ps 4194304 2
	"$cm" fit --tiers 1 "$t/a" -o "$t/fit.json" >/dev/null 2>&1 || fail "fit failed"
	expect 0 "far off" "$cm" check --fit "$t/fit.json" "$t/b"
	grep -E '^ *host +shm +ps +2 +4194304 ' "$t/out" | grep far >/dev/null || fail "the slowed row is not flagged"
	[ "$(grep -cE '^ *host .* far *$' "$t/out")" = 1 ] || fail "rows other than the slowed one flagged"
	expect 1 "1 far off" "$cm" check --gate --fit "$t/fit.json" "$t/b"
	expect 0 "0 far off" "$cm" check --gate --fit "$t/fit.json" "$t/a"
	tail -n 1 "$t/out" | grep "band)$" >/dev/null || fail "a run without oversubscribed rows: no split expected"
	# a gate that modelled nothing has nothing to judge: never a pass
	json_get "$t/fit.json" "json.dumps(dict(d, groups=[]))" >"$t/empty.json"
	expect 2 "nothing to judge" "$cm" check --gate --fit "$t/empty.json" "$t/a"
	grep -q "^0 of [0-9]* rows modelled" "$t/out" || fail "the summary line is missing"
	sed 's/,host,/,cuda,/' "$t/a/summary.csv" >"$t/cuda.csv"
	expect 2 "nothing to judge" "$cm" check --gate --fit "$t/fit.json" "$t/cuda.csv"
	expect 0 "^0 of [0-9]* rows modelled" "$cm" check --fit "$t/fit.json" "$t/cuda.csv"
	expect 0 "all >= 64K" "$cm" check --summary --fit "$t/fit.json" "$t/b"
	expect 0 "" "$cm" check --format csv --fit "$t/fit.json" "$t/b"
	head -1 "$t/out" | grep '^backend,transport,algo,nranks,bytes' >/dev/null || fail "csv header"
	expect 0 "in-sample" "$cm" check "$t/b"
	expect 2 "json" "$cm" check --format json "$t/b"
	# parameters that make times overflow or vanish: refused, never an inf
	for kv in "beta_GBps 1e-320" "beta_GBps 1e300" "gamma_GBps 1e-320" "alpha_us 1e300"; do
		set -- $kv
		python3 - "$t/fit.json" "$1" "$2" >"$t/odd.json" <<'PY' || fail "cannot write odd.json"
import json, sys
d = json.load(open(sys.argv[1]))
g = d['groups'][0]
(g if sys.argv[2] == 'alpha_us' else g['tiers'][0])[sys.argv[2]] = float(sys.argv[3])
print(json.dumps(d))
PY
		expect 2 "$1 must be a number in" "$cm" check --fit "$t/odd.json" "$t/b"
		grep -qi inf "$t/out" && fail "inf printed for $1 $2"
	done
	echo '{"schema": "other"}' >"$t/bad.json"
	expect 2 "schema" "$cm" check --fit "$t/bad.json" "$t/b"
	echo '{' >"$t/bad.json"
	expect 2 "not valid JSON" "$cm" check --fit "$t/bad.json" "$t/b"
	expect 2 "cannot read" "$cm" check --fit "$t/none.json" "$t/b"
	;;
p2p_group)
	# the row's transport column, not the backend: p2p rows are a group of
	# their own, and check matches them to it
	synth "$t/one"
	mkdir "$t/run" && cp "$t/one/np2.meta.json" "$t/run/"
	awk -F, -v OFS=, 'NR == 1 { print $0 ",transport,nhosts"; next }
		{ $1 = "collbench-summary-2"; print $0 "," ($3 == "copy" ? "local" : "p2p") ",1" }' \
		"$t/one/summary.csv" >"$t/run/summary.csv"
	expect 0 "" "$cm" fit --tiers 1 "$t/run" -o "$t/fit.json"
	[ "$(json_get "$t/fit.json" "','.join(g['transport'] for g in d['groups'])")" = p2p ] ||
		fail "want one p2p group (copy's rows in it), got $(json_get "$t/fit.json" "[g['transport'] for g in d['groups']]")"
	expect 0 "" "$cm" check --fit "$t/fit.json" "$t/run"
	grep -qE '^ *host +p2p +ring +2 +67108864 ' "$t/out" || fail "no p2p ring row in check"
	grep -qE '^ *host +shm +(ps|ring) ' "$t/out" && fail "a p2p row checked as shm"
	grep -q "no fit for" "$t/out" && fail "rows left without their group"
	;;
oversubscribed)
	synth "$t/run"
	sed -i 's/"oversubscribed": false/"oversubscribed": true/' "$t/run/np2.meta.json"
	expect 2 "oversubscribed" "$cm" fit "$t/run"
	expect 0 "" "$cm" fit --oversubscribed --tiers 1 "$t/run" -o "$t/fit.json"
	expect 0 "oversubscribed" "$cm" check --fit "$t/fit.json" "$t/run"
	# the summary line splits the far rows: every row here is oversubscribed
	m=$(tail -n 1 "$t/out" | sed -n 's/^\([0-9]*\) of [0-9]* rows modelled, \([0-9]*\) far off .*: 0 of 0 rows with ranks <= CPUs, \2 of \1 oversubscribed (more ranks than CPUs: time slicing)$/\1/p')
	[ -n "$m" ] && [ "$m" -gt 0 ] || { tail -n 1 "$t/out" >&2; fail "the summary line does not split the far rows"; }
	expect 0 "oversubscribed" "$cm" check --summary --fit "$t/fit.json" "$t/run"
	rm "$t/run/np2.meta.json"
	expect 0 "without launch metadata" "$cm" fit --tiers 1 "$t/run"
	;;
time_slicing)
	# the reference run's 4 and 8 ranks on 2 CPUs: the fit gives a cost per
	# waited round from them, the file keeps it, and check prices with it
	ref=$CB_TESTS_DIR/../results/reference
	expect 0 "" "$cm" fit "$ref" -o "$t/fit.json"
	sw=$(json_get "$t/fit.json" "[g['switch_us'] for g in d['groups'] if g['transport'] == 'shm' and g['collective'] == 'allreduce'][0]")
	rows=$(json_get "$t/fit.json" "[g['switch_rows'] for g in d['groups'] if g['transport'] == 'shm' and g['collective'] == 'allreduce'][0]")
	wf=$(json_get "$t/fit.json" "[g['wait_frac'] for g in d['groups'] if g['transport'] == 'shm' and g['collective'] == 'allreduce'][0]")
	awk -v s="$sw" -v r="$rows" -v f="$wf" 'BEGIN { exit !(s > 0 && s < 100 && r > 0 && f >= 0) }' ||
		fail "switch_us $sw, wait_frac $wf on $rows rows: want a positive cost from oversubscribed rows"
	"$cm" check --format csv --fit "$t/fit.json" "$ref" >"$t/with" || fail "check with switch_us"
	json_get "$t/fit.json" "json.dumps(dict(d, groups=[dict(g, switch_us=0) for g in d['groups']]))" >"$t/zero.json"
	"$cm" check --format csv --fit "$t/zero.json" "$ref" >"$t/without" || fail "check with switch_us 0"
	# "algo nranks bytes model time" of the allreduce ring rows of a check CSV
	pick() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "ring" && $c["collective"] == "allreduce" {
			print $c["nranks"], $c["bytes"], $c["time_us_model"] }' "$1"; }
	paste -d' ' <(pick "$t/with") <(pick "$t/without") | awk '
		$1 == 2 && $3 != $6 { print "2 ranks priced with switch_us: " $0; bad = 1 }
		$1 > 2 && !($3 > $6) { print "oversubscribed row not dearer: " $0; bad = 1 }
		{ n++ } END { exit bad || n == 0 }' || fail "switch_us changes the wrong rows"
	json_get "$t/fit.json" "json.dumps(dict(d, groups=[dict(g, switch_us=-1) for g in d['groups']]))" >"$t/neg.json"
	expect 2 "switch_us must be a number in" "$cm" check --fit "$t/neg.json" "$ref"
	;;
predict)
	# one line per (collective, n, size, algorithm), -a the algorithms
	expect 0 "" "$cm" predict -n 8,64 -b 1M -e 1G --stepfactor 1024 -a ps,ring --format csv
	[ "$(wc -l <"$t/out")" = 9 ] || fail "want a header and 8 rows"
	grep -q '^allreduce,64,1073741824,1G,ring,[^,]*,yes,' "$t/out" || fail "ring should win at 64 ranks, 1 GiB"
	# -f is the size step, as allreduce_perf's; --factor its older name
	expect 0 "" "$cm" predict -n 8 -b 1M -e 1G -f 32 -a ring --format csv
	[ "$(cut -d, -f3 "$t/out" | tr '\n' ' ')" = "bytes 1048576 33554432 1073741824 " ] ||
		fail "-f 32: sizes $(cut -d, -f3 "$t/out" | tr '\n' ' ')"
	expect 0 "" "$cm" predict -n 8 -b 1M -e 1G --factor 32 -a ring --format csv
	[ "$(wc -l <"$t/out")" = 4 ] || fail "--factor 32: want a header and 3 rows"
	expect 2 "stepfactor" "$cm" predict -n 8 -f csv
	# the default list: every plan algorithm of the collective, from the registry
	expect 0 "" "$cm" predict -n 8 -b 1M -e 1M --format csv
	for a in ps ring oneshot twoshot rd rabenseifner dbtree hier; do
		grep -q "^allreduce,8,1048576,1M,$a," "$t/out" || fail "default list: no $a"
	done
	# a library's rows: the plan of its schedule (Open MPI's choice, unsliced, two-sided)
	expect 0 "" "$cm" predict -n 8 -b 1M -e 1M -a mpi,mpi.rabenseifner,rabenseifner --two-sided --format csv
	awk -F, 'NR > 1 { t[$5] = $6 } END { exit !(t["mpi"] == t["mpi.rabenseifner"] && t["mpi"] > 0) }' \
		"$t/out" || fail "mpi at 8 ranks, 1 MiB is Open MPI's Rabenseifner: $(cat "$t/out")"
	expect 2 "no algorithm of allreduce that the model prices" "$cm" predict -a nosuch
	# fit and check: -f was their --format; the message says so
	expect 2 "the output format is --format" "$cm" check -f csv "$t"
	expect 2 "the output format is --format" "$cm" fit -fjson "$t"
	one=$("$cm" predict -n 64 -b 1G -e 1G -a ring --format csv 2>/dev/null | awk -F, 'NR == 2 { print $6 }')
	two=$("$cm" predict -n 64 -b 1G -e 1G -a ring --format csv --two-sided 2>/dev/null | awk -F, 'NR == 2 { print $6 }')
	awk -v a="$one" -v b="$two" 'BEGIN { exit !(b > a) }' || fail "--two-sided ring $two us, one-sided $one us"
	expect 0 "ps is no slower up to" "$cm" predict --crossover -n 4096
	expect 0 "rd is no slower up to" "$cm" predict --crossover -a rd,rabenseifner -n 64
	expect 2 "crossover compares two algorithms" "$cm" predict --crossover -a ring -n 64
	expect 0 "skipped" "$cm" predict --topo vm-2core -n 2,4 -b 1M -e 1M
	expect 2 "no network: 4 ranks do not fit" "$cm" predict --topo vm-2core -n 4 -b 1M -e 1M
	"$cm" presets dgx-h100 >"$t/dgx.json" || fail "presets NAME"
	"$cm" predict -n 16,256 -a ps,ring --format csv >"$t/p1" 2>/dev/null
	"$cm" predict -n 16,256 -a ps,ring --format csv --topo "$t/dgx.json" >"$t/p2" 2>/dev/null
	cmp -s "$t/p1" "$t/p2" || fail "a preset written as a file predicts differently"
	expect 0 "dgx-h100" "$cm" presets
	expect 2 "no preset" "$cm" presets nosuch
	;;
predict_skipped)
	# a point predict cannot price is skipped with its reason; when every point
	# is, nothing was predicted: exit 2 with the reasons, no (empty) table
	expect 2 "nothing predicted: all 2 point(s) skipped" "$cm" predict --coll reduce_scatter -n 4096 -b 8 -e 16
	[ ! -s "$t/out" ] || fail "an empty table printed"
	grep -q "8 bytes hold no element per rank" "$t/err" || fail "no first reason"
	grep -q "the last for: .*16 bytes" "$t/err" || fail "no last reason"
	# Open MPI's choice at 256 ranks and 1 KiB is nonoverlapping: no plan runs it
	expect 2 "nothing predicted: all 1 point(s) skipped" "$cm" predict -a mpi -n 256 -b 1K -e 1K
	grep -q "mpi.nonoverlapping, whose schedule no plan runs" "$t/err" || fail "no reason for mpi"
	# some points priced: exit 0, the skipped ones counted
	expect 0 "1 point(s) skipped" "$cm" predict --coll all_gather -n 2,4096 -b 8 -e 8 --format csv
	[ "$(wc -l <"$t/out")" -gt 1 ] || fail "the priced points are missing"
	;;
predict_cells)
	# a rank count listed twice would print its rows twice: refused
	expect 2 "'2,2' lists 2 ranks twice" "$cm" predict -n 2,2 -b 1M -e 1M
	expect 2 "lists 8 ranks twice" "$cm" predict -n 8,2,8 -b 1M -e 1M
	# a size 4 B short of 1 MiB prints as 1023.996K in every format (not 1.02e+03K)
	for fmt in csv table markdown; do
		expect 0 "1023.996K" "$cm" predict -n 2 -b 1048572 -e 1048572 --format $fmt
		grep -q "e+0" "$t/out" && fail "--format $fmt: a size written with an exponent"
	done
	;;
topo_errors)
	expect 2 "not a preset" "$cm" predict --topo "$t/none.json"
	echo '[' >"$t/x.json"
	expect 2 "not valid JSON" "$cm" predict --topo "$t/x.json"
	mk() { printf '{"schema": "collbench-topo-1", "ranks_per_host": 8, "intra": {"bw_GBps": 450, "alpha_us": 2}, "gamma_GBps": null%s}\n' "$1" >"$t/x.json"; }
	mk ', "colour": 1'
	expect 2 "colour: unknown key" "$cm" predict --topo "$t/x.json"
	mk ', "net": {"bw_GBps": -5, "alpha_us": 1}'
	expect 2 "net.bw_GBps: -5 is out of range" "$cm" predict --topo "$t/x.json"
	mk ', "net": {"bw_GBps": 5, "alpha_us": 1, "per": "switch"}'
	expect 2 "net.per" "$cm" predict --topo "$t/x.json"
	# rates so small or large that times overflow: refused, never an inf
	printf '{"schema": "collbench-topo-1", "ranks_per_host": 8, "intra": {"bw_GBps": 1e-300, "alpha_us": 2}, "gamma_GBps": null}\n' >"$t/x.json"
	expect 2 "intra.bw_GBps: 1e-300 is out of range" "$cm" predict --topo "$t/x.json" -n 8 -b 1M -e 1M
	grep -qi inf "$t/out" && fail "inf printed"
	mk ', "copy_GBps": 1e300'
	expect 2 "copy_GBps: 1e+300 is out of range" "$cm" predict --topo "$t/x.json"
	printf '{"schema": "collbench-topo-1", "ranks_per_host": 8, "intra": {"bw_GBps": 450, "alpha_us": 1e300}, "gamma_GBps": null}\n' >"$t/x.json"
	expect 2 "alpha_us: 1e+300 is out of range" "$cm" predict --topo "$t/x.json"
	mk ', "slice_bytes": 0'
	expect 2 "slice_bytes" "$cm" predict --topo "$t/x.json"
	printf '{"schema": "collbench-topo-1", "intra": {"bw_GBps": 1, "alpha_us": 0}, "gamma_GBps": 1}\n' >"$t/x.json"
	expect 2 "ranks_per_host: missing" "$cm" predict --topo "$t/x.json"
	mk ''
	expect 0 "" "$cm" predict --topo "$t/x.json" -n 8 -b 1M -e 1M
	;;
choice)
	# check --choice: timed as the model says, its choice is the fastest at every size (11
	# points, ps and ring; copy is no allreduce); with the ring 3x slower at 1 MiB (ps then
	# measured fastest there, outside the ring's band) that point disagrees, the others not
	synth "$t/run"
	expect 0 "at 11 of 11 points (100%)" "$cm" check "$t/run" --choice
	grep -q "with a CPU per rank (the target): 11 point(s), regret 1.000x" "$t/out" ||
		fail "no regret of 1 where the model's choice is the fastest"
	grep -q "latency-bound" "$t/out" && grep -q "bandwidth-bound" "$t/out" || fail "no regimes"
	synth "$t/slow" ring 1048576 3
	"$cm" check "$t/slow" --fit <("$cm" fit "$t/run" --format json 2>/dev/null) --choice --format csv \
		>"$t/choice.csv" 2>"$t/err" || { cat "$t/err" >&2; fail "check --choice failed"; }
	[ "$(grep -c "^host," "$t/choice.csv")" = 11 ] || fail "not 11 points: $(cat "$t/choice.csv")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ want = $c["bytes"] == 1048576 ? "no" : "yes"
		  if (($c["regret"] > 1) != (want == "no")) { print "regret " $c["regret"] " at " $c["bytes"]; bad = 1 }
		  if ($c["agree"] != want) { print "agree " $c["agree"] " at " $c["bytes"]; bad = 1 }
		  if ($c["bytes"] == 1048576 && ($c["fastest"] != "ps" || $c["model_choice"] != "ring")) {
			print "1 MiB: fastest " $c["fastest"] ", model " $c["model_choice"]; bad = 1 } }
		END { exit bad }' "$t/choice.csv" || fail "check --choice: the points (above)"
	expect 0 "at 10 of 11 points (91%)" "$cm" check "$t/slow" --fit <("$cm" fit "$t/run" --format json 2>/dev/null) --choice
	# one algorithm only: nothing to choose
	grep -v ',ps,' "$t/run/summary.csv" >"$t/one.csv"
	expect 2 "no point with two or more modelled algorithms" "$cm" check "$t/one.csv" --choice --no-gamma
	;;
tradeoff)
	# check's rounds_model (the plan's rounds of messages) and txrx_max_bytes (measured), and
	# model.sh's model_tradeoff from them: on the reference run at 8 ranks and 1 MiB the
	# allreduce ring's 2(n-1) = 14 rounds (one slice: 128 KiB chunks) and the summary's bytes
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	ref=$CB_TESTS_DIR/../results/reference
	"$cm" check "$ref" --format csv >"$t/check.csv" 2>/dev/null || fail "check failed"
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "ring" && $c["nranks"] == 8 && $c["bytes"] == 1048576 &&
		$c["collective"] == "allreduce" { print $c["rounds_model"], $c["txrx_max_bytes"] }' "$t/check.csv")
	want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "ring" && $c["nranks"] == 8 && $c["bytes"] == 1048576 &&
		$c["collective"] == "allreduce" { print 14, $c["txrx_max_bytes"] }' "$ref/summary.csv")
	[ -n "$got" ] && [ "$got" = "$want" ] || fail "ring, 8 ranks, 1 MiB: rounds and bytes '$got', want '$want'"
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/model.sh" --ranks 2:64 "$ref" "$t/figs" >"$t/list" 2>"$t/err" ||
		{ cat "$t/err" >&2; fail "model.sh failed"; }
	for a in ps ring; do
		grep -q ">$a, [0-9.]* us<" "$t/figs/model_tradeoff.svg" || fail "model_tradeoff: no $a point"
	done
	grep -q "8 ranks, 1 MiB" "$t/figs/model_tradeoff.svg" || fail "model_tradeoff: not 8 ranks, 1 MiB"
	;;
script)
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	synth "$t/run"
	mkdir "$t/figs" && echo keep >"$t/figs/busbw_np2.png"
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/model.sh" --ranks 2:64 "$t/run" "$t/figs" >"$t/list" 2>"$t/err" ||
		{ cat "$t/err" >&2; fail "model.sh failed"; }
	for f in model_busbw_np2 model_choice model_time_vs_n model_host_load model_crossover; do
		[ -s "$t/figs/$f.png" ] && [ -s "$t/figs/$f.svg" ] || fail "no $f.png/.svg"
		grep -q "$f.svg" "$t/list" || fail "$f.svg not listed on stdout"
	done
	for f in model_fit.json model_check.csv model_predict.csv model_crossover.csv model_figures.txt; do
		[ -s "$t/figs/$f" ] || fail "no $f"
	done
	[ "$(cat "$t/figs/busbw_np2.png")" = keep ] || fail "another tool's figure was touched"
	expect 2 "already holds model_" env CB_BIN="$bin" "$CB_TESTS_DIR/../scripts/model.sh" --ranks 2:64 "$t/run" "$t/figs"
	expect 0 "" env CB_BIN="$bin" "$CB_TESTS_DIR/../scripts/model.sh" --overwrite --ranks 2:64 "$t/run" "$t/figs"
	expect 2 "does not exist" env CB_BIN="$bin" "$CB_TESTS_DIR/../scripts/model.sh" "$t/none"
	# bad --topo / --ranks / --fit: refused before anything is written
	ms=$CB_TESTS_DIR/../scripts/model.sh
	expect 2 "not a preset" env CB_BIN="$bin" "$ms" --topo nosuch "$t/run" "$t/figs2"
	[ -e "$t/figs2" ] && fail "a refused --topo made the output folder"
	expect 2 "ranks" env CB_BIN="$bin" "$ms" --ranks abc "$t/run" "$t/figs2"
	[ -e "$t/figs2" ] && fail "a refused --ranks made the output folder"
	mkdir "$t/figs3"
	expect 2 "ranks" env CB_BIN="$bin" "$ms" --ranks 0 "$t/run" "$t/figs3"
	echo '{' >"$t/bad.json"
	expect 2 "not valid JSON" env CB_BIN="$bin" "$ms" --fit "$t/bad.json" "$t/run" "$t/figs3"
	compgen -G "$t/figs3/*" >/dev/null && fail "a refused run left files: $(ls "$t/figs3")"
	# a failure after the files were started (gnuplot) removes them: a rerun is not refused
	mkdir "$t/fakebin" && printf '#!/bin/sh\nexit 1\n' >"$t/fakebin/gnuplot" && chmod +x "$t/fakebin/gnuplot"
	expect 2 "gnuplot failed" env PATH="$t/fakebin:$PATH" CB_BIN="$bin" "$ms" --ranks 2:64 "$t/run" "$t/figs3"
	compgen -G "$t/figs3/*" >/dev/null && fail "a failed run left files: $(ls "$t/figs3")"
	expect 2 "gnuplot failed" env PATH="$t/fakebin:$PATH" CB_BIN="$bin" "$ms" --ranks 2:64 "$t/run" "$t/figs4"
	[ -e "$t/figs4" ] && fail "a failed run left the folder it made"
	expect 0 "" env CB_BIN="$bin" "$ms" --ranks 2:64 "$t/run" "$t/figs3"
	# a run and an output folder whose names are not UTF-8: the files are there,
	# the titles say \xe9
	cp -r "$t/run" "$t/caf"$'\xe9'
	expect 0 "" env CB_BIN="$bin" "$ms" --ranks 2:64 "$t/caf"$'\xe9' "$t/out"$'\xe9'
	[ -s "$t/out"$'\xe9'/model_busbw_np2.svg ] || fail "no figure under a non-UTF-8 name"
	grep -q 'fit of caf\\xe9<' "$t/out"$'\xe9'/model_busbw_np2.svg || fail "the subtitle does not name caf\\xe9"
	;;
script_in_run)
	# scripts/bench.sh's step: the fit and check beside the run, the figures
	# beside plot.sh's; a run the fit refuses gets the reason and no file
	command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
	ms=$CB_TESTS_DIR/../scripts/model.sh
	synth "$t/run"
	mkdir "$t/figs" && echo keep >"$t/figs/busbw_np2.png"
	expect 0 "" env CB_BIN="$bin" "$ms" --in-run --ranks 2:64 "$t/run" "$t/figs"
	for f in model_fit.json model_fit.txt model_check.txt; do
		[ -s "$t/run/$f" ] || fail "no $f beside the run"
	done
	[ -e "$t/figs/model_fit.json" ] && fail "the fit was written beside the figures too"
	[ -s "$t/figs/model_busbw_np2.png" ] || fail "no model figure"
	tail -n 1 "$t/run/model_check.txt" | grep "rows modelled, 0 far off" >/dev/null ||
		fail "model_check.txt does not end with the check's summary"
	grep -qE '^ *host +shm +ps +2 +67108864 ' "$t/run/model_check.txt" || fail "no row in model_check.txt"
	json_get "$t/run/model_fit.json" "d['groups'][0]['transport']" | grep shm >/dev/null || fail "model_fit.json"
	[ "$(cat "$t/figs/busbw_np2.png")" = keep ] || fail "another tool's figure was touched"
	expect 2 "already holds model_" env CB_BIN="$bin" "$ms" --in-run --ranks 2:64 "$t/run" "$t/figs2"
	[ -e "$t/figs2" ] && fail "a refused run made its output folder"
	awk -F, 'NR == 1 || $5 == 1048576' "$t/run/summary.csv" >"$t/one.csv"
	mkdir "$t/one" && mv "$t/one.csv" "$t/one/summary.csv"
	expect 2 "one message size" env CB_BIN="$bin" "$ms" --in-run --ranks 2:64 "$t/one" "$t/figs3"
	grep -q "refused $t/one" "$t/err" || fail "model.sh does not say the fit refused the run"
	[ -e "$t/figs3" ] && fail "a refused fit made the output folder"
	compgen -G "$t/one/model_*" >/dev/null && fail "a refused fit left files beside the run"
	# --in-run files are renamed into place: never over a link
	synth "$t/linked" && echo target >"$t/target" && ln -s "$t/target" "$t/linked/model_fit.txt"
	expect 2 "not a regular file" env CB_BIN="$bin" "$ms" --in-run --ranks 2:64 --overwrite "$t/linked" "$t/figs5"
	[ -L "$t/linked/model_fit.txt" ] && [ "$(cat "$t/target")" = target ] || fail "the link was replaced"
	;;
coll_predict)
	# predict --coll prices the collective's plans round by round; n = 3 on
	# alpha 1 us, 10 GB/s, gamma 4 GB/s (one-sided: a reduce that reads its
	# peer's bytes runs at min(10, 4) = 4 GB/s), 256 KiB slices:
	printf '{"schema": "collbench-topo-1", "name": "t3", "ranks_per_host": 4, "intra": {"bw_GBps": 10, "alpha_us": 1}, "gamma_GBps": 4, "slice_bytes": 262144}\n' >"$t/t3.json"
	pt() { # COLL BYTES ALGO: the predicted time_us
		"$cm" predict --topo "$t/t3.json" --coll "$1" -n 3 -b "$2" -e "$2" --format csv 2>/dev/null |
			awk -F, -v a="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$c["algo"] == a { print $c["time_us"] }'
	}
	near() { # GOT WANT WHAT
		awk -v g="$1" -v w="$2" 'BEGIN { exit !(g != "" && g / w > 0.9999 && g / w < 1.0001) }' ||
			fail "$3: $1 us, want $2 us"
	}
	# reduce_scatter ring, 3 MB: 2 steps of a 1 MB block in 4 slices (3 of 262144 B,
	# one of 213568 B), every rank reducing its left's slice: 8 (1 us) + 2 MB / 4 GB/s
	near "$(pt reduce_scatter 3000000 ring)" 508 "reduce_scatter ring"
	# broadcast, 1 MB: binomial: the root gives rank 1 the buffer, then rank 2 (1 us +
	# 100 us each), the root's own copy (100 us, no message); ps: both pull at once
	# from the root (1 + 200 us), then its copy; chain: 4 slices down 2 links, 5 rounds
	# (4 of a 262144 B slice), the last with the root's copy: 5 + 4 x 26.2144 + 100
	near "$(pt broadcast 1000000 binomial)" 302 "broadcast binomial"
	near "$(pt broadcast 1000000 ps)" 301 "broadcast ps"
	near "$(pt broadcast 1000000 chain)" 209.8576 "broadcast chain"
	# allreduce's rows come in the same table
	"$cm" predict --topo "$t/t3.json" -n 3 -b 1M -e 1M --format csv 2>/dev/null | sed -n 1p |
		grep '^collective,nranks,bytes,size,algo,time_us,fastest,' >/dev/null || fail "predict's output changed"
	expect 2 "--coll" "$cm" predict --coll gather
	expect 0 "ps is no slower up to" "$cm" predict --topo "$t/t3.json" --coll broadcast -a ps,chain -n 3 --crossover
	# a split collective's size not a multiple of n elements: rounded down, as the runs
	[ "$("$cm" predict --topo "$t/t3.json" --coll all_gather -n 3 -b 16 -e 16 --format csv 2>/dev/null |
		awk -F, 'NR == 2 { print $3 }')" = 12 ] || fail "all_gather of 16 B at 3 ranks: not 12 B"
	;;
coll_fit)
	# a run of allreduce (ps, ring, copy: alpha 1 us) and reduce_scatter (its three
	# plans, timed by the model with alpha 3 us, the same 10 GB/s and gamma): each
	# collective is its own fit group (copy's rows, the machine's copy rate, join both)
	synth "$t/a"
	mkdir -p "$t/run"
	printf '{"schema": "collbench-topo-1", "name": "t5", "ranks_per_host": 2, "intra": {"bw_GBps": 10, "alpha_us": 3}, "gamma_GBps": 4, "slice_bytes": 262144}\n' >"$t/t5.json"
	"$cm" predict --topo "$t/t5.json" --coll reduce_scatter -n 2 -b 64 -e 64M -f 4 --format csv \
		>"$t/rs.csv" 2>/dev/null || fail "predict --coll reduce_scatter"
	{
		echo "$header,transport,nhosts,collective"
		awk -F, -v OFS=, 'NR > 1 { $1 = "collbench-summary-3"
			print $0, ($3 == "copy" ? "local" : "shm"), 1, "allreduce" }' "$t/a/summary.csv"
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } {
			us = $c["time_us"]; b = $c["bytes"]; bw = b / us / 1e3
			printf "collbench-summary-3,host,%s,2,%d,%d,float,sum,0,20,%.9g,%.9g,%.9g,%.9g,%.6g,%.6g,0,,,,ok,5,1,,,,,0,,,shm,1,reduce_scatter\n",
				$c["algo"], b, b / 4, us, us, us, us, bw, bw / 2 }' "$t/rs.csv"
	} >"$t/run/summary.csv"
	cp "$t/a/np2.meta.json" "$t/run/"
	expect 0 "" "$cm" fit --tiers 1 "$t/run" -o "$t/fit.json"
	grep -q "allreduce only so far" "$t/out" "$t/err" && fail "a 'left out' note for priced collectives"
	for kv in "allreduce 1" "reduce_scatter 3"; do
		set -- $kv
		v=$(json_get "$t/fit.json" "[g for g in d['groups'] if g['collective'] == '$1' and g['transport'] == 'shm'][0]['alpha_us']") ||
			fail "no shm group of $1 in the fit"
		awk -v v="$v" -v w="$2" 'BEGIN { exit !(v / w > 0.97 && v / w < 1.03) }' ||
			fail "$1: alpha $v us, want $2 (the collectives' rows kept apart)"
	done
	# check prices each row from its collective's plan on its collective's fit
	expect 0 "" "$cm" check --fit "$t/fit.json" --format csv "$t/run"
	grep -q "allreduce only so far" "$t/out" "$t/err" && fail "check: a 'left out' note"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["collective"] == "reduce_scatter" { n++; if ($c["time_us_model"] == "" ||
			($c["error_pct"] + 0 > 3 || $c["error_pct"] + 0 < -3)) bad++ }
		END { exit !(n == 33 && !bad) }' "$t/out" || { cat "$t/out" >&2; fail "reduce_scatter rows not priced within 3%"; }
	# a library row of reduce_scatter: the catalogue names no plan of its schedule:
	# not priced, and says so
	sed -n '$p' "$t/run/summary.csv" | sed 's/,host,[a-z]*,/,host,mpi,/; s/,shm,1,/,mpi,1,/' >>"$t/run/summary.csv"
	sed -i '$s/,mpi,1,reduce_scatter$/,library,1,reduce_scatter/' "$t/run/summary.csv"
	expect 0 "no plan of the same schedule: not priced" "$cm" check --fit "$t/fit.json" "$t/run"
	# fit: a group of library rows of reduce_scatter alone is refused for that reason,
	# naming the collective, not as a tier without rows
	expect 0 "" "$cm" fit --tiers 1 "$t/run" -o "$t/fit2.json"
	grep -q "host/mpi reduce_scatter: refused: the model prices none of its 1 row(s) (.*not priced" \
		"$t/err" || { cat "$t/err" >&2; fail "the library group's refusal does not say why"; }
	grep -q "holds no rows" "$t/err" && fail "a refusal for a tier without rows"
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "PASS: $case"
