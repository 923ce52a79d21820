#!/usr/bin/env bash
# collbench-history end to end: the committed results folders, idempotent and
# concurrent ingests, a process killed inside its transaction, change points
# and the gate on synthetic histories, machines, launcher metadata, usage
# errors, the plot; docs/history.md's example on the committed folders (this machine's
# series without --machine); sweep.sh and regress.sh --history (a failed ingest keeps
# the run folder); dev/history-demo.sh at a tiny size.
#   history.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
hist="$bin/collbench-history"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C
db="$t/h.sqlite"

fail() {
	echo "FAIL ($case): $*" >&2
	exit 1
}

# expect STATUS CMD...: runs CMD (stdout to $t/out, stderr to $t/err), checks its status.
expect() {
	local want=$1 rc
	shift
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$t/out" "$t/err" >&2; fail "'$*' exited $rc, expected $want"; }
}

has() { grep -q -- "$1" "$2" || { cat "$2" >&2; fail "no '$1' in $2"; }; }

header=$(cb_summary1_header)

# mkrun DIR I RING64 [LABEL] [COMMIT] [CPU] [MEM_GIB]: run folder number I
# (start time 2026-01-01 00:00 UTC + I hours) of ps and ring at 1M and 64M on
# 2 ranks; ring 64M's busbw is scaled by RING64; every busbw has 2% noise
# (seed I). MKRUN_ENV: the sidecar's "environment" (JSON), if set.
mkrun() {
	local dir=$1 i=$2 f=$3 label=${4:-vm} commit=${5:-c0} cpu=${6:-Test CPU} mem=${7:-24}
	mkdir -p "$dir"
	{
		echo "$header"
		awk -v i="$i" -v f="$f" 'BEGIN { srand(i)
			n = split("ps 1048576 1.0 ps 67108864 1.1 ring 1048576 2.0 ring 67108864 4.0", a, " ")
			for (k = 1; k <= n; k += 3) {
				z = 0; for (j = 0; j < 12; j++) z += rand(); z -= 6
				b = a[k + 2] * (1 + 0.02 * z) * (a[k] == "ring" && a[k + 1] > 1048576 ? f : 1)
				t = a[k + 1] / b / 1e3; lo = t * 0.99; hi = t * 1.01
				printf "collbench-summary-1,host,%s,2,%d,%d,float,sum,0,20,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,0,,,,ok,5,3,%.6g,%.6g,%.6g,%.6g,0,%.6g,%.6g\n",
					a[k], a[k + 1], a[k + 1] / 4, t, t, lo, hi, b, b, lo, hi, b / 1.01, b / 0.99, lo, hi
			} }'
	} >"$dir/summary.csv"
	cat >"$dir/np2.meta.json" <<EOF
{"schema": "collbench-meta-1", "backend": "host", "device": "", "gpu_model": "",
 "version": "0.1.0", "git_commit": "$commit", "start_utc": "$(date -u -d "@$((1767225600 + 3600 * i))" +%Y-%m-%dT%H:%M:%SZ)",
 "host": {"cpu_model": "$cpu", "cpus_online": 2, "hostname": "t", "mem_bytes": 25276063744},
 "machine": {"label": "$label", "label_from": "CB_MACHINE", "cpu_model": "$cpu", "cpus": 2,
             "mem_gib": $mem, "gpu_model": ""},
 "mpi": {"nranks": 2, "ranks_per_node": 2, "nnodes": 1, "library": "Open MPI v4.1.4, package: Debian"},
 ${MKRUN_ENV:+\"environment\": $MKRUN_ENV,}
 "status": "complete", "tool": "allreduce_perf"}
EOF
}

# mkrun_coll DIR I RS64 [COMMIT]: run folder number I (mkrun's metadata) of
# collbench-summary-3 rows: ring at 1M and 64M on 2 ranks for allreduce and
# for reduce_scatter, the same algorithm and sizes; reduce_scatter 64M's
# busbw is scaled by RS64; every busbw has 2% noise (seed I).
mkrun_coll() {
	local dir=$1 i=$2 f=$3 commit=${4:-c0}
	mkrun "$dir" "$i" 1 vm "$commit"
	{
		echo "schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,busbw_GBps,status,transport,nhosts,collective"
		awk -v i="$i" -v f="$f" 'BEGIN { srand(i)
			n = split("allreduce 1048576 2.0 allreduce 67108864 4.0 reduce_scatter 1048576 1.0 reduce_scatter 67108864 2.0", a, " ")
			for (k = 1; k <= n; k += 3) {
				z = 0; for (j = 0; j < 12; j++) z += rand(); z -= 6
				b = a[k + 2] * (1 + 0.02 * z) * (a[k] == "reduce_scatter" && a[k + 1] > 1048576 ? f : 1)
				printf "collbench-summary-3,host,ring,2,%d,%d,float,sum,0,20,%.6g,%.6g,%.6g,ok,shm,1,%s\n",
					a[k + 1], a[k + 1] / 4, a[k + 1] / b / 1e3, b, b, a[k]
			} }'
	} >"$dir/summary.csv"
}

# set_start DIR TEXT: the start time of run folder DIR's launch is TEXT.
set_start() { sed -i "s/\"start_utc\": \"[^\"]*\"/\"start_utc\": \"$2\"/" "$1/np2.meta.json"; }

# runs_count [DB]: the number of runs in DB (default $db).
runs_count() { "$hist" runs --db "${1:-$db}" | tail -n +2 | wc -l; }

# fake_bin DIR: DIR holds this build's tools, but its collbench-history fails
# every ingest (the real one checks the database first): a late failure.
fake_bin() {
	mkdir -p "$1"
	for f in allreduce_perf collbench-compare collbench-results; do ln -s "$bin/$f" "$1/$f"; done
	printf '%s\n' '#!/usr/bin/env bash' \
		'[ "$1" != ingest ] || { echo "collbench-history ingest: injected failure" >&2; exit 2; }' \
		"exec \"$bin/collbench-history\" \"\$@\"" >"$1/collbench-history"
	chmod +x "$1/collbench-history"
}

# tiny sweep options: 2 ranks, ring, 1K..4K, few iterations
tiny=(--ranks 2 --algo ring --minbytes 1K --maxbytes 4K --iters 3 --warmup_iters 1)

committed_folders() {
	local d
	for d in "$root"/results/reference* "$root"/results/baseline/*/; do
		[ -f "$d/summary.csv" ] && echo "${d%/}"
	done
}

case $case in
committed)
	mapfile -t folders < <(committed_folders)
	((${#folders[@]} >= 2)) || fail "expected the committed folders, found ${#folders[@]}"
	expect 0 "$hist" ingest --db "$db" "${folders[@]}"
	[ "$(grep -c '^added run' "$t/out")" = "${#folders[@]}" ] || fail "not every folder added"
	[ "$(runs_count)" = "${#folders[@]}" ] || fail "runs: $(runs_count)"
	expect 0 "$hist" check --db "$db"
	has consistent "$t/out"
	# both runs of the reference VM since its CPU model reads "... @ 2.80GHz"
	# (reference-family, reference) measured the allreduce ring np2 64M: one
	# series of two points (the two-host reference is another machine, and so
	# is the VM as it read before: name the VM by its identity)
	expect 0 "$hist" trend --db "$db" -a ring -n 2 -b 64M --coll allreduce \
		--machine 'vm (Intel(R) Xeon(R) Processor @ 2.80GHz, 2 CPUs)' --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 2 ] || fail "ring np2 64M: expected 2 points"
	has "^host,ring,2,67108864,float,sum,0,shm,allreduce,busbw,median," "$t/out"
	;;
idempotent)
	mapfile -t folders < <(committed_folders)
	expect 0 "$hist" ingest --db "$db" "${folders[@]}"
	before=$(sha256sum <"$db")
	expect 0 "$hist" ingest --db "$db" "${folders[@]}"
	[ "$(grep -c '^already there' "$t/out")" = "${#folders[@]}" ] || fail "re-ingest added"
	[ "$(sha256sum <"$db")" = "$before" ] || fail "the database file changed on re-ingest"
	# the same files elsewhere are the same run; so are other bytes of the
	# same run (cases "copies")
	cp -r "${folders[0]}" "$t/copy"
	expect 0 "$hist" ingest --db "$db" "$t/copy"
	has "^already there" "$t/out"
	echo >>"$t/copy/meta.json"
	expect 0 "$hist" ingest --db "$db" "$t/copy"
	has "^already there" "$t/out"
	;;
copies)
	# a run is known by what it is (machine, start time, commands, rows), not
	# by its bytes: a checkout's CRLF, JSON laid out another way, CSV fields
	# quoted or numbers spelled otherwise are the same run
	mkrun "$t/a" 1 1
	expect 0 "$hist" ingest --db "$db" "$t/a"
	cp -r "$t/a" "$t/crlf" && sed -i 's/$/\r/' "$t/crlf"/*
	tr -d '\n' <"$t/a/np2.meta.json" | sed 's/": /":/g; s/, "/,"/g' >"$t/json.meta"
	cp -r "$t/a" "$t/json" && mv "$t/json.meta" "$t/json/np2.meta.json"
	cp -r "$t/a" "$t/csv"
	awk -F, -v OFS=, 'NR > 1 { $2 = "\"" $2 "\""; $11 = sprintf("%.10f", $11) } { print }' \
		"$t/a/summary.csv" >"$t/csv/summary.csv"
	! cmp -s "$t/a/summary.csv" "$t/csv/summary.csv" || fail "the CSV copy is the same bytes"
	for c in crlf json csv; do
		expect 0 "$hist" ingest --db "$db" "$t/$c"
		has "^already there: run 1: .*/$c " "$t/out"
	done
	[ "$(runs_count)" = 1 ] || fail "copies of one run: $(runs_count) runs"
	# what makes another run: a value, the start time, the command line
	cp -r "$t/a" "$t/value"
	awk -F, -v OFS=, 'NR == 2 { $11 = $11 * 1.5; $12 = $12 * 1.5 } { print }' "$t/a/summary.csv" \
		>"$t/value/summary.csv"
	cp -r "$t/a" "$t/later" && set_start "$t/later" "2026-01-01T05:00:00Z"
	cp -r "$t/a" "$t/cmd"
	sed -i 's/"tool": "allreduce_perf"/"tool": "allreduce_perf", "command_line": "allreduce_perf -b 8"/' "$t/cmd/np2.meta.json"
	for c in value later cmd; do
		expect 0 "$hist" ingest --db "$db" "$t/$c"
		has "^added run .*/$c " "$t/out"
	done
	[ "$(runs_count)" = 4 ] || fail "expected 4 runs, got $(runs_count)"
	expect 0 "$hist" check --db "$db"
	has "consistent" "$t/out"
	;;
concurrent)
	for i in $(seq 1 40); do mkrun "$t/r$i" "$i" 1; done
	a=() b=()
	for i in $(seq 1 30); do a+=("$t/r$i"); done
	for i in $(seq 40 -1 11); do b+=("$t/r$i"); done
	"$hist" ingest --db "$db" "${a[@]}" >"$t/a.out" 2>"$t/a.err" &
	pa=$!
	"$hist" ingest --db "$db" "${b[@]}" >"$t/b.out" 2>"$t/b.err" &
	pb=$!
	wait "$pa" || { cat "$t/a.err" >&2; fail "ingest A failed"; }
	wait "$pb" || { cat "$t/b.err" >&2; fail "ingest B failed"; }
	[ "$(runs_count)" = 40 ] || fail "expected 40 runs, got $(runs_count)"
	[ "$(cat "$t/a.out" "$t/b.out" | grep -c '^added run')" = 40 ] || fail "not 40 additions"
	[ "$(cat "$t/a.out" "$t/b.out" | grep -c '^already there')" = 20 ] || fail "not 20 already there"
	expect 0 "$hist" check --db "$db"
	;;
crash)
	for i in 1 2 3; do mkrun "$t/r$i" "$i" 1; done
	expect 0 "$hist" ingest --db "$db" "$t/r1" "$t/r2"
	CB_HISTORY_TEST_PAUSE_MS=30000 "$hist" ingest --db "$db" "$t/r3" >"$t/k.out" 2>"$t/k.err" &
	pid=$!
	for _ in $(seq 100); do grep -q pausing "$t/k.err" && break; sleep 0.1; done
	grep -q pausing "$t/k.err" || { kill -9 "$pid"; fail "the ingest never reached its pause"; }
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ -e "$db-journal" ] || fail "expected a hot journal left by the killed process"
	expect 0 "$hist" check --db "$db"
	has consistent "$t/out"
	[ "$(runs_count)" = 2 ] || fail "the killed ingest left part of a run: $(runs_count) runs"
	expect 0 "$hist" ingest --db "$db" "$t/r3"
	has "^added run" "$t/out"
	[ "$(runs_count)" = 3 ] || fail "re-ingest after the crash"
	expect 0 "$hist" check --db "$db"
	;;
detect_gate)
	for i in $(seq 1 30); do mkrun "$t/r$i" "$i" 1; done
	expect 0 "$hist" ingest --db "$db" "$t"/r*
	expect 0 "$hist" detect --db "$db"
	has "^0 change points in 4 series" "$t/out"
	expect 0 "$hist" gate --db "$db"
	# ring 64M 20% slower from run 31 on, with a new commit
	for i in $(seq 31 40); do mkrun "$t/s$i" "$i" 0.8 vm c1; done
	expect 0 "$hist" ingest --db "$db" "$t"/s*
	expect 0 "$hist" detect --db "$db" --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 1 ] || fail "expected one change point"
	has "^host,ring,2,67108864,float,sum,0,shm,allreduce,busbw,2026-01-02T07:00:00Z,31,\"s31\",regression,-\(1[5-9]\|2[0-5]\)\." "$t/out"
	has "commit c0 -> c1" "$t/out"
	expect 1 "$hist" gate --db "$db"
	has "^REGRESSION ring np2 64M float sum: busbw -\(1[5-9]\|2[0-5]\)\." "$t/out"
	has "since run 31 " "$t/out"
	expect 1 "$hist" gate --db "$db" --metric time
	expect 0 "$hist" gate --db "$db" --recent 5
	expect 0 "$hist" gate --db "$db" -a ps
	expect 1 "$hist" gate --db "$db" --format markdown
	has "^### collbench-history gate: REGRESSION" "$t/out"
	# fixed again: the last change is an improvement
	for i in $(seq 41 55); do mkrun "$t/u$i" "$i" 1 vm c2; done
	expect 0 "$hist" ingest --db "$db" "$t"/u*
	expect 0 "$hist" gate --db "$db"
	expect 0 "$hist" detect --db "$db" -a ring -b 64M
	has "improvement" "$t/out"
	has "^2 change points in 1 series" "$t/out"
	;;
collectives)
	# rows of two collectives, the same algorithm and sizes: four series, a
	# slowdown of reduce_scatter's ring 64M is that series' change point
	# only, and the gate names it alone
	for i in $(seq 1 30); do mkrun_coll "$t/r$i" "$i" 1; done
	for i in $(seq 31 40); do mkrun_coll "$t/s$i" "$i" 0.8 c1; done
	expect 0 "$hist" ingest --db "$db" "$t"/r* "$t"/s*
	[ "$(grep -c '^added run' "$t/out")" = 40 ] || fail "not every run added"
	expect 0 "$hist" trend --db "$db" -a ring -b 64M --format csv
	[ "$(grep -c '^host,ring,2,67108864,float,sum,0,shm,allreduce,busbw,' "$t/out")" = 40 ] ||
		fail "expected 40 allreduce points"
	[ "$(grep -c '^host,ring,2,67108864,float,sum,0,shm,reduce_scatter,busbw,' "$t/out")" = 40 ] ||
		fail "expected 40 reduce_scatter points"
	expect 0 "$hist" detect --db "$db"
	has "^1 change point in 4 series" "$t/out"
	has "^reduce_scatter ring np2 64M float sum  *busbw .* regression" "$t/out"
	expect 0 "$hist" detect --db "$db" --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 1 ] || fail "expected one change point"
	has "^host,ring,2,67108864,float,sum,0,shm,reduce_scatter,busbw,2026-01-02T07:00:00Z,31,\"s31\",regression,-\(1[5-9]\|2[0-5]\)\." "$t/out"
	expect 1 "$hist" gate --db "$db"
	has "^REGRESSION reduce_scatter ring np2 64M float sum: busbw -\(1[5-9]\|2[0-5]\)\." "$t/out"
	[ "$(grep -c '^REGRESSION' "$t/out")" = 1 ] || fail "the gate names more than reduce_scatter's series"
	expect 0 "$hist" gate --db "$db" --coll allreduce
	expect 1 "$hist" gate --db "$db" --coll reduce_scatter -b 64M
	expect 2 "$hist" trend --db "$db" --coll all_gather
	has "no series on machine .* matches the selection" "$t/err"
	;;
failed_rows)
	# a row that failed in the newest run fails the gate, as collbench-compare
	# fails a failed current row (exit 1), whatever the change points say
	for i in $(seq 1 10); do mkrun "$t/r$i" "$i" 1; done
	mkrun "$t/r11" 11 1
	sed -i '/,ring,2,67108864,/s/,ok,/,error:MPI_ERR_TRUNCATE in MPI_Wait,/' "$t/r11/summary.csv"
	expect 0 "$hist" ingest --db "$db" "$t"/r? "$t/r10"
	expect 0 "$hist" gate --db "$db"
	expect 0 "$hist" ingest --db "$db" "$t/r11"
	expect 1 "$bin/collbench-compare" "$t/r10" "$t/r11"
	expect 1 "$hist" gate --db "$db"
	has "^FAILED ring np2 64M float sum: the row failed in the newest run (11): error:MPI_ERR_TRUNCATE in MPI_Wait$" "$t/out"
	has "^0 of 4 series measured by the newest run (11) follow a change point that is a regression, 1 failed in it" "$t/out"
	expect 1 "$hist" gate --db "$db" --format markdown
	has "^### collbench-history gate: REGRESSION" "$t/out"
	has "^- failed: ring np2 64M float sum" "$t/out"
	expect 0 "$hist" gate --db "$db" -a ps
	# a wrong result, and a key whose only row is a failed one (a first run of
	# it): failures too; trend and detect leave the pointless series out
	mkrun "$t/r12" 12 1
	sed -i '/,ps,2,1048576,/s/,ok,/,error:3 wrong elements,/; /,ring,2,1048576,/s/,ring,2,1048576,[0-9]*,/,ring,2,2097152,524288,/; /,ring,2,2097152,/s/,ok,/,error:out of memory,/' "$t/r12/summary.csv"
	expect 0 "$hist" ingest --db "$db" "$t/r12"
	expect 1 "$hist" gate --db "$db"
	has "^FAILED ps np2 1M float sum: .*error:3 wrong elements$" "$t/out"
	has "^FAILED ring np2 2M float sum: .*error:out of memory$" "$t/out"
	has ", 2 failed in it" "$t/out"
	expect 0 "$hist" trend --db "$db" --format csv
	grep -q "^host,ring,2,2097152," "$t/out" && fail "a series without an ok point in the trend"
	expect 0 "$hist" detect --db "$db"
	has "in 4 series" "$t/out"
	;;
clocks)
	# start times: parsed and normalised to UTC, what is not a time refused
	mkrun "$t/a" 1 1
	set_start "$t/a" "not-a-time"
	expect 2 "$hist" ingest --db "$db" "$t/a"
	has "a/np2.meta.json: \"start_utc\": 'not-a-time' is not a time" "$t/err"
	set_start "$t/a" "2026-01-01 10:00:00"
	expect 2 "$hist" ingest --db "$db" "$t/a"
	has "'2026-01-01 10:00:00' is no time zone (a local time of an unknown zone)" "$t/err"
	sed -i 's/"start_utc": "[^"]*"/"start_utc": 20260101/' "$t/a/np2.meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/a"
	has "a/np2.meta.json: \"start_utc\": not a time (not a string)" "$t/err"
	[ ! -e "$db" ] || [ "$(runs_count)" = 0 ] || fail "a run without a time was ingested"
	mkrun "$t/a" 1 1
	set_start "$t/a" "2026-01-01 10:00:00+02:00"
	expect 0 "$hist" ingest --db "$db" "$t/a"
	has "^added run 1: .*/a (vm, 2026-01-01T08:00:00Z, 4 rows)" "$t/out"
	# one ingest adds its runs in time order, whatever order they are given in
	for i in 2 3 4; do mkrun "$t/b$i" "$((10 + i))" 1; done
	expect 0 "$hist" ingest --db "$db" "$t/b4" "$t/b2" "$t/b3"
	[ "$(grep -o 'b[0-9] ' "$t/out" | tr -d '\n')" = "b2 b3 b4 " ] || fail "not in time order: $(cat "$t/out")"
	[ ! -s "$t/err" ] || { cat "$t/err" >&2; fail "warnings for runs in order"; }
	# a clock years ahead: the run is warned about, and the slower runs after
	# it are the newest (by date they sorted before it, and the gate passed)
	for i in $(seq 5 12); do mkrun "$t/r$i" "$((10 + i))" 1; done
	expect 0 "$hist" ingest --db "$db" "$t"/r?? "$t"/r[5-9]
	mkrun "$t/ahead" 23 1
	set_start "$t/ahead" "2099-06-01T00:00:00Z"
	expect 0 "$hist" ingest --db "$db" "$t/ahead"
	has "ahead: dated 2099-06-01T00:00:00Z, .* days ahead of this machine's clock" "$t/err"
	for i in $(seq 24 29); do mkrun "$t/s$i" "$i" 0.5; done
	expect 0 "$hist" ingest --db "$db" "$t"/s*
	has "s24: dated 2026-01-02T00:00:00Z, before run 13 of its machine (dated 2099-06-01T00:00:00Z), which was ingested earlier: placed after it" "$t/err"
	expect 1 "$hist" gate --db "$db"
	has "^REGRESSION ring np2 64M float sum: busbw -50" "$t/out"
	# a clock behind: slower runs dated years back are still the newest
	rm -f "$db"
	for i in $(seq 1 10); do mkrun "$t/n$i" "$i" 1; done
	expect 0 "$hist" ingest --db "$db" "$t"/n*
	for i in $(seq 11 16); do mkrun "$t/p$i" "$i" 0.5; set_start "$t/p$i" "2001-01-01T00:${i}:00Z"; done
	expect 0 "$hist" ingest --db "$db" "$t"/p*
	has "p11: dated 2001-01-01T00:11:00Z, before run 10 of its machine" "$t/err"
	expect 1 "$hist" gate --db "$db"
	has "^REGRESSION ring np2 64M float sum: busbw -50" "$t/out"
	expect 0 "$hist" detect --db "$db" -a ring -b 64M --format csv
	has ",2001-01-01T00:11:00Z,11,\"p11\",regression," "$t/out"
	;;
no_median)
	# older runs without the median columns, then runs with them (medians 25%
	# below the means, the same means): a series is read like with like, on
	# the mean, so nothing changed; never the older means against the medians
	for i in $(seq 1 12); do
		mkrun "$t/r$i" "$i" 1
		if [ "$i" -le 6 ]; then
			cut -d, -f1-11,13-28 "$t/r$i/summary.csv" >"$t/s" && mv "$t/s" "$t/r$i/summary.csv"
		else
			awk -F, -v OFS=, 'NR > 1 { $12 *= 0.75; $29 *= 0.75; $30 *= 0.75 } { print }' \
				"$t/r$i/summary.csv" >"$t/s" && mv "$t/s" "$t/r$i/summary.csv"
		fi
	done
	expect 0 "$hist" ingest --db "$db" "$t"/r?  "$t"/r1?
	expect 0 "$hist" detect --db "$db"
	has "^0 change points in 4 series" "$t/out"
	has "24 point(s) lack the median columns (older files): their series read on the mean" "$t/err"
	expect 0 "$hist" gate --db "$db"
	expect 0 "$hist" trend --db "$db" -a ring -b 64M --format csv
	[ "$(tail -n +2 "$t/out" | cut -d, -f11 | sort -u)" = mean ] || fail "the series is not read on the mean"
	;;
no_spread)
	# zero variance is no certainty: two runs with the same values (seed 1),
	# then one whose ring 64M is 0.03% lower, is no change point, nor a
	# regression for the gate; a real step on such runs still is
	for i in 1 2 3; do
		mkrun "$t/r$i" 1 "$([ "$i" = 3 ] && echo 0.9997 || echo 1)"
		sed -i "s/\"start_utc\": \"[^\"]*\"/\"start_utc\": \"2026-11-0${i}T10:00:00Z\"/" "$t/r$i/np2.meta.json"
	done
	expect 0 "$hist" ingest --db "$db" "$t/r1" "$t/r2" "$t/r3"
	expect 0 "$hist" detect --db "$db"
	has "^0 change points in 4 series" "$t/out"
	expect 0 "$hist" gate --db "$db"
	has "^0 of 4 series" "$t/out"
	expect 0 "$hist" gate --db "$db" --noise-floor 0
	expect 2 "$hist" gate --db "$db" --noise-floor -1
	for i in 4 5 6 7 8 9; do
		mkrun "$t/r$i" 1 "$([ "$i" -ge 7 ] && echo 0.7 || echo 1)"
		sed -i "s/\"start_utc\": \"[^\"]*\"/\"start_utc\": \"2026-11-0${i}T10:00:00Z\"/" "$t/r$i/np2.meta.json"
	done
	expect 0 "$hist" ingest --db "$db" "$t"/r[4-9]
	expect 1 "$hist" gate --db "$db"
	has "^REGRESSION ring np2 64M float sum: busbw -30.0%" "$t/out"
	;;
libconf)
	# runs under another library configuration (Open MPI's forced algorithm)
	# are series of their own: 20 ordinary runs, then 10 with ring 64M 40%
	# slower under coll_tuned settings, are no regression of the first 20
	for i in $(seq 1 20); do mkrun "$t/r$i" "$i" 1; done
	conf='{"OMPI_MCA_coll_tuned_use_dynamic_rules": "1", "OMPI_MCA_coll_tuned_allreduce_algorithm": "1", "MALLOC_MMAP_MAX_": "0"}'
	for i in $(seq 21 30); do MKRUN_ENV=$conf mkrun "$t/s$i" "$i" 0.6; done
	expect 0 "$hist" ingest --db "$db" "$t"/r* "$t"/s*
	expect 0 "$hist" detect --db "$db"
	has "^0 change points in 8 series" "$t/out"
	expect 0 "$hist" gate --db "$db"
	expect 0 "$hist" trend --db "$db" -a ring -b 64M --format csv
	has "library_config$" "$t/out"
	[ "$(grep -c ',""$' "$t/out")" = 20 ] || fail "expected 20 points without a library configuration"
	[ "$(grep -c ',"OMPI_MCA_coll_tuned_allreduce_algorithm=1"$' "$t/out")" = 10 ] ||
		{ cat "$t/out" >&2; fail "expected 10 points under the forced algorithm, named"; }
	expect 0 "$hist" trend --db "$db" -a ring -b 64M
	has "ring np2 64M float sum \[OMPI_MCA_coll_tuned_allreduce_algorithm=1" "$t/out"
	# the same runs as one series would be a regression: the separation is what
	# keeps the gate quiet
	for i in $(seq 31 40); do mkrun "$t/u$i" "$i" 0.6; done
	expect 0 "$hist" ingest --db "$db" "$t"/u*
	expect 1 "$hist" gate --db "$db"
	# one run whose launches had two configurations: refused, naming the variable
	mkrun "$t/two" 41 1
	sed 's/"nranks": 2,/"nranks": 4,/; s/"status"/"environment": {"NCCL_PROTO": "LL"}, "status"/' \
		"$t/two/np2.meta.json" >"$t/two/np4.meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/two"
	has "two library configurations (NCCL_PROTO '' and 'LL')" "$t/err"
	;;
plans)
	# a plan file edited under its name (--plan: the sidecar records its
	# digest) starts series of its own, as a library configuration does: 20
	# runs of plan pair2, then 10 with pair2 64M 40% slower under another
	# digest, are no regression; ps keeps one series throughout
	mkplan() { # DIR I F DIGEST
		mkrun "$1" "$2" "$3"
		sed -i 's/,ring,/,pair2,/' "$1/summary.csv"
		sed -i 's/"status": "complete"/"plan_file": {"name": "pair2", "path": "p.json", "digest": "'"$4"'", "ranks": 2}, &/' \
			"$1/np2.meta.json"
	}
	for i in $(seq 1 20); do mkplan "$t/r$i" "$i" 1 14d5ff8a37019067; done
	for i in $(seq 21 30); do mkplan "$t/s$i" "$i" 0.6 9b0e1c35a2d4f788; done
	expect 0 "$hist" ingest --db "$db" "$t"/r* "$t"/s*
	expect 0 "$hist" detect --db "$db"
	has "^0 change points in 6 series" "$t/out"
	expect 0 "$hist" gate --db "$db"
	expect 0 "$hist" trend --db "$db" -a pair2 -b 64M
	has "pair2 np2 64M float sum \[plan 9b0e1c35a2d4f788\]" "$t/out"
	has "pair2 np2 64M float sum \[plan 14d5ff8a37019067\]" "$t/out"
	# under one digest the same runs are a regression: the digest is what
	# keeps the gate quiet
	for i in $(seq 31 40); do mkplan "$t/u$i" "$i" 0.6 14d5ff8a37019067; done
	expect 0 "$hist" ingest --db "$db" "$t"/u*
	expect 1 "$hist" gate --db "$db"
	# one run whose launches name one plan with two digests: refused
	mkplan "$t/two" 41 1 14d5ff8a37019067
	sed 's/"nranks": 2,/"nranks": 4,/; s/14d5ff8a37019067/9b0e1c35a2d4f788/' \
		"$t/two/np2.meta.json" >"$t/two/np4.meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/two"
	has "two plans named 'pair2'" "$t/err"
	;;
machines)
	for i in 1 2 3; do mkrun "$t/a$i" "$i" 1 boxA; mkrun "$t/b$i" "$((i + 3))" 1 boxB; done
	mkrun "$t/c1" 7 1 boxA c0 "Other CPU"
	expect 0 "$hist" ingest --db "$db" "$t"/a* "$t"/b*
	expect 2 "$hist" trend --db "$db"
	has "several machines" "$t/err"
	expect 0 "$hist" trend --db "$db" --machine boxB -a ring -b 64M --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 3 ] || fail "boxB: expected its 3 runs only"
	# same label, other CPU: another machine, another series
	expect 0 "$hist" ingest --db "$db" "$t/c1"
	expect 2 "$hist" trend --db "$db" --machine boxA
	has "belongs to several machines" "$t/err"
	expect 0 "$hist" trend --db "$db" --machine "boxA (Other CPU, 2 CPUs)" -a ring -b 64M --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 1 ] || fail "new machine: a new series of 1 point"
	# a full identity as older versions wrote it (with memory) names it too
	expect 0 "$hist" trend --db "$db" --machine "boxA (Other CPU, 2 CPUs, 24 GiB)" -a ring -b 64M --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 1 ] || fail "an old-form identity: not the machine"
	# memory is no part of the identity: boxB's memory rounded to 23 GiB (a
	# kernel update reserving more) continues boxB's series
	mkrun "$t/b7" 8 1 boxB c0 "Test CPU" 23
	expect 0 "$hist" ingest --db "$db" "$t/b7"
	expect 0 "$hist" trend --db "$db" --machine boxB -a ring -b 64M --format csv
	[ "$(tail -n +2 "$t/out" | wc -l)" = 4 ] || fail "boxB at 23 GiB: not boxB's series"
	# one run on two machines, and a CSV without a sidecar: refused
	mkrun "$t/two" 8 1 boxA
	sed 's/"nranks": 2/"nranks": 4/; s/"label": "boxA"/"label": "boxB"/' "$t/two/np2.meta.json" >"$t/two/np4.meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/two"
	has "two machines" "$t/err"
	cp "$t/a1/summary.csv" "$t/lone.csv"
	expect 2 "$hist" ingest --db "$db" "$t/lone.csv"
	has "no metadata sidecar" "$t/err"
	;;
readme)
	# docs/history.md's example on a fresh clone: the committed results folders
	# (one of them a folder of run folders, another of a second machine), then
	# this machine's sweep; with several machines and no --machine, this one
	export CB_BIN=$bin CB_RESULTS=$t/results CB_MACHINE=readme-box
	cb_launch_env
	mkdir "$t/results"
	cp -r "$root"/results/reference* "$root"/results/baseline "$t/results/"
	"$root/scripts/sweep.sh" "${tiny[@]}" --history >"$t/out" 2>"$t/err" || { cat "$t/err" >&2; fail "sweep --history"; }
	cd "$t" || fail "cd $t"
	# a folder of run folders given explicitly is refused, naming its runs
	expect 2 "$hist" ingest results/baseline/
	has "results/baseline/: not a run folder (no summary.csv in it); it holds run folders: name them, e.g. results/baseline/\*/" "$t/err"
	expect 0 "$hist" ingest results/*/summary.csv
	has "^added run .*reference/summary.csv (vm, " "$t/out"
	has "already there: .*(readme-box, " "$t/out"
	expect 0 "$hist" detect --min-bytes 1K
	has "^# machine: readme-box (" "$t/out"
	expect 0 "$hist" gate --min-bytes 1K
	expect 0 "$hist" trend -a ring -n 2 -b 4K --format csv
	has "^host,ring,2,4096,float,sum,0,shm,allreduce,busbw,median," "$t/out"
	if command -v gnuplot >/dev/null; then
		expect 0 "$root/scripts/plot_history.sh" -a ring -n 2 -b 4K -o "$t/p/trend"
		has "machine: readme-box (" "$t/p/trend.svg"
	fi
	# another machine here: not in the history, so the machines are listed
	expect 2 env CB_MACHINE=elsewhere "$hist" trend -a ring
	has "several machines, and this one ('elsewhere (.*') is not among them: name one machine with --machine" "$t/err"
	has "'cbnode1 (" "$t/err"
	;;
cli)
	expect 2 "$hist"
	expect 2 "$hist" frobnicate
	has "unknown verb" "$t/err"
	expect 0 "$hist" --help
	has "usage: collbench-history ingest" "$t/out"
	expect 0 "$hist" gate --help
	has "recent N" "$t/out"
	expect 2 "$hist" trend --db "$db"
	has "no history there" "$t/err"
	[ ! -e "$db" ] || fail "a reading verb created the database"
	expect 2 "$hist" ingest --db "$db"
	expect 2 "$hist" ingest --db "$db" "$t/nonexistent"
	expect 2 "$hist" trend --db "$db" --metric speed
	expect 2 "$hist" trend --db "$db" --pvalue 2
	expect 2 "$hist" trend --db "$db" extra-operand
	mkrun "$t/r1" 1 1
	expect 0 "$hist" ingest --db "$db" --label main "$t/r1"
	mkrun "$t/r2" 2 1
	sed -i 's/"status": "complete"/"status": "incomplete"/' "$t/r2/np2.meta.json"
	expect 0 "$hist" ingest --db "$db" "$t/r2"
	has "did not finish" "$t/err"
	expect 2 "$hist" gate --db "$db" --format csv
	expect 2 "$hist" trend --db "$db" -a nccl
	has "no series" "$t/err"
	expect 0 "$hist" trend --db "$db" --format markdown
	has "^| ring np2 64M float sum | busbw | 1 |" "$t/out"
	# a header-only summary has nothing to ingest; a run folder's meta.json that
	# is not JSON is refused, not skipped; neither adds a run
	n=$(runs_count)
	mkrun "$t/r3" 3 1 && echo "$header" >"$t/r3/summary.csv"
	expect 2 "$hist" ingest --db "$db" "$t/r3"
	has "r3/summary.csv: no rows (a header only): nothing to ingest" "$t/err"
	mkrun "$t/r4" 4 1 && echo '{"schema": "collbench-run-1", "run_id": ' >"$t/r4/meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/r4"
	has "r4/meta.json: not valid JSON" "$t/err"
	echo '[1]' >"$t/r4/meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/r4"
	has "r4/meta.json: not a JSON object" "$t/err"
	# a future version is refused, as a launch sidecar's is
	echo '{"schema": "collbench-run-9", "run_id": "r4"}' >"$t/r4/meta.json"
	expect 2 "$hist" ingest --db "$db" "$t/r4"
	has 'r4/meta.json: not a run metadata file: "schema" is not "collbench-run-1"' "$t/err"
	# a measured row of 64 MiB in 0 us is impossible: refused, never a -100% change
	mkrun "$t/r5" 5 1
	awk -F, -v OFS=, '$3 == "ring" && $5 == 67108864 { $11 = 0 } { print }' "$t/r5/summary.csv" >"$t/s" &&
		mv "$t/s" "$t/r5/summary.csv"
	expect 2 "$hist" ingest --db "$db" "$t/r5"
	has "r5/summary.csv: line 5: column time_us: 0 us for 67108864 bytes: a measured time is above 0" "$t/err"
	[ "$(runs_count)" = "$n" ] || fail "a refused run was ingested"
	echo "not a database at all, but some text of a reasonable length .........." >"$t/text"
	expect 2 "$hist" trend --db "$t/text"
	"$hist" trend --db "$db" >/dev/full 2>"$t/err"
	[ $? = 2 ] || fail "a full stdout must give exit 2"
	has "cannot write stdout" "$t/err"
	;;
plot)
	command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 77; }
	for i in $(seq 1 20); do mkrun "$t/r$i" "$i" 1; done
	for i in $(seq 21 30); do mkrun "$t/r$i" "$i" 0.8 vm c1; done
	expect 0 "$hist" ingest --db "$db" "$t"/r*
	expect 0 env CB_BIN="$bin" "$root/scripts/plot_history.sh" --db "$db" -o "$t/p/trend" -b 64M
	{ [ -s "$t/p/trend.png" ] && [ -s "$t/p/trend.svg" ]; } || fail "no figure"
	has "change: regression" "$t/p/trend.svg"
	has "ring np2 64M float sum" "$t/p/trend.svg"
	# bandwidth from 0; each series in its algorithm's colour of common.gp (as plot.sh's)
	[ "$(grep -o '<text>[^<]*</text>' "$t/p/trend.svg" | head -n 1)" = "<text>0</text>" ] ||
		fail "the y axis does not start at 0"
	svg_rgb() { # ALGO: common.gp's colour of ALGO as the SVG writes it
		local h
		h=$(sed -n "s/.*a eq \"$1\" ? \"#\([0-9A-Fa-f]\{6\}\)\".*/\1/p" "$root/scripts/plot/common.gp")
		[ ${#h} = 6 ] || fail "no colour of $1 in common.gp"
		printf 'rgb(%3d, %3d, %3d)' "0x${h:0:2}" "0x${h:2:2}" "0x${h:4:2}"
	}
	expect 0 env CB_BIN="$bin" "$root/scripts/plot_history.sh" --db "$db" -o "$t/p/ps" -a ps -b 64M
	has "stroke='$(svg_rgb ps)'" "$t/p/ps.svg"
	grep -q "stroke='$(svg_rgb ring)'" "$t/p/ps.svg" && fail "the ps series is drawn in the ring's colour"
	expect 2 env CB_BIN="$bin" "$root/scripts/plot_history.sh" --db "$db" -o "$t/p/none" -a nccl
	# an OUTBASE of bytes that are not UTF-8 is a file name like any other
	expect 0 env CB_BIN="$bin" "$root/scripts/plot_history.sh" --db "$db" -o "$t/caf"$'\xe9'"/tr'end" -b 64M
	{ [ -s "$t/caf"$'\xe9'"/tr'end.png" ] && [ -s "$t/caf"$'\xe9'"/tr'end.svg" ]; } || fail "no figure under a non-UTF-8 name"
	# an empty OUTBASE or a folder would write hidden .png/.svg files
	mkdir "$t/cwd"
	for o in "" "$t/p/" "$t/p/."; do
		(cd "$t/cwd" && expect 2 env CB_BIN="$bin" "$root/scripts/plot_history.sh" --db "$db" -o "$o" -b 64M)
		has "OUTBASE must name the files" "$t/err"
	done
	[ -z "$(ls -A "$t/cwd")" ] && [ ! -e "$t/p/.png" ] || fail "hidden files written"
	;;
launcher)
	# launcher and job id: the sidecar's "launcher" object, else meta.json's
	# "launcher" string and "job_id" (string or number); absent: empty
	mkrun "$t/a" 1 1
	sed -i 's/"tool": "allreduce_perf"/"tool": "allreduce_perf", "launcher": {"name": "srun", "job_id": "4242", "step_id": "0"}/' "$t/a/np2.meta.json"
	mkrun "$t/b" 2 1
	echo '{"schema": "collbench-run-1", "run_id": "b", "launcher": "mpirun", "job_id": 77}' >"$t/b/meta.json"
	mkrun "$t/c" 3 1
	expect 0 "$hist" ingest --db "$db" "$t/a" "$t/b" "$t/c"
	expect 0 "$hist" runs --db "$db"
	has "^id	time_utc	machine	name	git_commit	rows	label	launcher	job_id$" "$t/out"
	has "^1	.*	srun	4242$" "$t/out"
	has "^2	.*	b	.*	mpirun	77$" "$t/out"
	has "^3	.*		$" "$t/out"
	;;
sweep)
	export CB_BIN=$bin CB_RESULTS=$t/results
	cb_launch_env
	sweep() { "$root/scripts/sweep.sh" "$@" >"$t/out" 2>"$t/err"; }
	sweep "${tiny[@]}" --out "$t/run1" --history "$db" || { cat "$t/err" >&2; fail "sweep --history DB"; }
	has "history: $t/run1 is in $db" "$t/err"
	[ "$(runs_count)" = 1 ] || fail "expected 1 run in $db"
	# the default database, --history followed by an option; --history=DB
	sweep --history "${tiny[@]}" || { cat "$t/err" >&2; fail "sweep --history"; }
	[ "$(runs_count "$t/results/history.sqlite")" = 1 ] || fail "no run in the default database"
	sweep "${tiny[@]}" --out "$t/run2" --history="$db" || { cat "$t/err" >&2; fail "--history=DB"; }
	[ "$(runs_count)" = 2 ] || fail "expected 2 runs in $db"
	expect 0 "$hist" check --db "$db"
	# --coll LIST --history: every collective's rows in the history, apart
	sweep "${tiny[@]}" --coll allreduce,reduce_scatter --out "$t/run5" --history "$t/coll.sqlite" ||
		{ cat "$t/err" >&2; fail "sweep --coll allreduce,reduce_scatter --history"; }
	expect 0 "$hist" trend --db "$t/coll.sqlite" -b 4K --format csv
	[ "$(grep -c '^host,ring,2,4096,float,sum,0,shm,reduce_scatter,' "$t/out")" = 1 ] &&
		[ "$(grep -c '^host,ring,2,4096,float,sum,0,shm,allreduce,' "$t/out")" = 1 ] ||
		fail "expected a point of each collective at 4K"
	# refused before anything runs: a file that is not a history, no tool
	echo "not a database, a text file of a reasonable length ..................." >"$t/text"
	expect 2 "$root/scripts/sweep.sh" "${tiny[@]}" --out "$t/run3" --history "$t/text"
	has "cannot be used as the history" "$t/err"
	[ ! -e "$t/run3" ] || fail "a refused --history still ran the sweep"
	mkdir "$t/nohist" && ln -s "$bin/allreduce_perf" "$bin/collbench-results" "$t/nohist/"
	expect 2 env CB_BIN="$t/nohist" "$root/scripts/sweep.sh" "${tiny[@]}" --out "$t/run3" --history "$db"
	has "collbench-history not built" "$t/err"
	# a late failure: exit 3, the run folder kept, the command to add it later
	fake_bin "$t/fake"
	expect 3 env CB_BIN="$t/fake" "$root/scripts/sweep.sh" "${tiny[@]}" --out "$t/run4" --history "$db"
	has "injected failure" "$t/err"
	has "The run folder $t/run4 is kept as it is; add it later with: .*collbench-history ingest --db $db $t/run4" "$t/err"
	{ [ -s "$t/run4/summary.csv" ] && grep -q '"status": "complete"' "$t/run4/meta.json"; } || fail "run4 not kept"
	expect 0 "$hist" ingest --db "$db" "$t/run4"
	[ "$(runs_count)" = 3 ] || fail "the kept run could not be added later"
	;;
regress)
	export CB_BIN=$bin CB_RESULTS=$t/results CB_PLOTS=$t/plots
	base=$root/results/baseline/host-2core
	regress() { "$root/scripts/regress.sh" --baseline "$base" --run "$base" "$@"; }
	expect 0 regress --history "$db" --plots "$t/p1"
	has "history: $base is in $db" "$t/err"
	[ "$(runs_count)" = 1 ] || fail "expected the run in $db"
	expect 0 regress --history --plots "$t/p2"
	[ "$(runs_count "$t/results/history.sqlite")" = 1 ] || fail "no run in the default database"
	# the same run again: already there, nothing changes
	expect 0 regress --history="$db" --plots "$t/p3"
	has "already there" "$t/err"
	[ "$(runs_count)" = 1 ] || fail "re-ingest added a run"
	# a failed ingest: exit 3 where the verdict is 0, the run folder untouched
	fake_bin "$t/fake"
	before=$(cd "$base" && find . -type f -exec sha256sum {} + | sort)
	expect 3 env CB_BIN="$t/fake" "$root/scripts/regress.sh" --baseline "$base" --run "$base" \
		--history "$t/other.sqlite" --plots "$t/p4"
	has "add it later with" "$t/err"
	[ "$(cd "$base" && find . -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "the run folder changed"
	;;
demo)
	export CB_BIN=$bin
	cb_launch_env
	expect 0 "$root/dev/history-demo.sh" --runs 3 --slow 1 --out "$t/demo" \
		--plot "$t/p/trend" --plot-args "-b 4K" -- "${tiny[@]}"
	[ "$(runs_count "$t/demo/history.sqlite")" = 3 ] || fail "expected 3 runs"
	expect 0 "$hist" runs --db "$t/demo/history.sqlite"
	[ "$(grep -c "	slowed-taskset-1cpu	" "$t/out")" = 1 ] || fail "expected 1 slowed run"
	[ "$(grep -c "	normal	" "$t/out")" = 2 ] || fail "expected 2 normal runs"
	{ [ -s "$t/p/trend.png" ] && [ -s "$t/p/trend.svg" ]; } || fail "no figure"
	has "ring np2 4K float sum" "$t/p/trend.svg"
	expect 2 "$root/dev/history-demo.sh" --runs 3 --slow 3 --out "$t/demo2"
	has "at least one normal run" "$t/err"
	;;
*)
	fail "unknown case"
	;;
esac
echo "ok: $case"
