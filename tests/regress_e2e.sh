#!/usr/bin/env bash
# scripts/regress.sh end to end against the committed baseline
# (results/baseline/host-2core). Asserts only what holds on any machine at any
# speed: exit statuses, the summary line, the files written, a doctored row
# being named. How fast this machine is belongs in reports, not in tests.
#   regress_e2e.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/lib.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
base=$src/results/baseline/host-2core
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CB_BIN=$bin LC_ALL=C
summary_re='^[0-9]+ regressions?( \([0-9]+ failed\))?, [0-9]+ improvements?, [0-9]+ same, [0-9]+ missing(, [0-9]+ skipped)?$'

[ -s "$base/summary.csv" ] && [ -s "$base/regress.conf" ] || fail "no committed baseline at $base"

# regress ARGS...: runs regress.sh, stdout in $t/out, stderr in $t/err; sets rc.
regress() {
	"$src/scripts/regress.sh" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}
show() { cat "$t/out" "$t/err" >&2; }

case $case in
same)
	# the baseline against itself (as a finished run): no regression, plots
	regress --baseline "$base" --run "$base" --plots "$t/plots"
	[ $rc = 0 ] || { show; fail "exit $rc, expected 0"; }
	tail -n 1 "$t/out" | grep -Eq "^0 regressions, 0 improvements, [1-9][0-9]* same, 0 missing$" ||
		{ show; fail "unexpected summary line"; }
	[ -s "$t/plots/regress_np2.png" ] && [ -s "$t/plots/regress_np2.svg" ] || fail "no overlay plot"
	;;
lowered_row)
	# a copy of the baseline with one row's busbw 20% lower: exit 1, row named
	cp -r "$base" "$t/run"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["algo"] == "ring" && $c["nranks"] == 2 && $c["bytes"] == 67108864 {
			$c["busbw_GBps"] = sprintf("%.6g", $c["busbw_GBps"] * 0.8); hit = 1 }
		{ print } END { exit !hit }' "$base/summary.csv" >"$t/run/summary.csv" ||
		fail "the baseline has no ring 2-rank 64 MiB row"
	regress --baseline "$base" --run "$t/run" --plots "$t/plots"
	[ $rc = 1 ] || { show; fail "exit $rc, expected 1"; }
	grep -Eq "^  regression +ring np2 64M float sum " "$t/out" || { show; fail "row not named"; }
	tail -n 1 "$t/out" | grep -Eq "^1 regression, 0 improvements, [0-9]+ same, 0 missing$" ||
		{ show; fail "unexpected summary line"; }
	[ -s "$t/plots/regress_np2.png" ] || fail "no overlay plot"
	# markdown for CI summaries
	regress --baseline "$base" --run "$t/run" --plots "$t/plots" --format markdown
	[ $rc = 1 ] && grep -q "^| \*\*regression\*\* | ring np2 64M float sum |" "$t/out" ||
		{ show; fail "markdown: exit $rc or row not named"; }
	;;
update)
	# --update-baseline from a finished run records its sweep settings
	regress --baseline "$t/bl" --run "$base" --update-baseline
	[ $rc = 0 ] || { show; fail "exit $rc, expected 0"; }
	grep -q "REPLACED" "$t/err" || fail "the update was not announced"
	grep -q "^ranks=2$" "$t/bl/regress.conf" && grep -q "^sweep=-b " "$t/bl/regress.conf" ||
		{ cat "$t/bl/regress.conf" >&2; fail "regress.conf lacks the sweep settings"; }
	cmp -s "$base/summary.csv" "$t/bl/summary.csv" || fail "summary.csv not copied"
	regress --baseline "$t/bl" --run "$base" --plots "$t/plots"
	[ $rc = 0 ] || { show; fail "against the new baseline: exit $rc"; }
	;;
errors)
	regress --baseline "$t/none" --run "$base"
	[ $rc = 2 ] && grep -q "no baseline at" "$t/err" || { show; fail "missing baseline: exit $rc"; }
	regress --run "$t/none" --baseline "$base"
	[ $rc = 2 ] && grep -q "not a run folder" "$t/err" || { show; fail "missing run: exit $rc"; }
	regress --nope
	[ $rc = 2 ] || fail "unknown option: exit $rc"
	;;
sweep)
	# a real sweep with the baseline's settings; any speed passes, but the
	# verdict must be 0 or 1 with its summary line, and the files must exist
	regress --baseline "$base" -B host -o "$t/run" --plots "$t/plots"
	{ [ $rc = 0 ] || [ $rc = 1 ]; } || { show; fail "exit $rc, expected 0 or 1"; }
	tail -n 1 "$t/out" | grep -Eq "$summary_re" || { show; fail "no summary line last"; }
	tail -n 1 "$t/out" | grep -Eq " 0 missing" || { show; fail "rows missing against the baseline"; }
	[ -s "$t/run/summary.csv" ] && [ -s "$t/run/np2.meta.json" ] || fail "no run folder"
	[ -s "$t/plots/regress_np2.png" ] || fail "no overlay plot"
	cat "$t/out"
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "regress_e2e.sh $case: ok"
