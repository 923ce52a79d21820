#!/usr/bin/env bash
# The figures as a person reads them, and as files: every figure kind of plot.sh, model.sh
# and regress.sh drawn from the committed runs (no sweep) and read back from its SVG (title
# and every text inside the canvas, no two texts on each other, a plot area at least half
# the canvas wide: svg_check.awk, with the plot area gnuplot reports through
# CB_PLOT_GEOMETRY); and figures written whole or not at all when the disk fills.
#   figures.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CB_BIN=$bin LC_ALL=C CB_RESULTS=$t/results CB_PLOTS=$t/plots
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot"; exit 77; }
show() { cat "$t/out" "$t/err" >&2; }

# check_figures DIR: every .svg in DIR passes svg_check.awk, with its plot area where
# cb_gnuplot reported one ($t/geo). zero_step_np* are two panels side by side: each panel is
# under half the canvas by design, so only their texts are checked.
check_figures() {
	local f name geo bad=0
	for f in "$1"/*.svg; do
		name=$(basename "$f" .svg)
		geo=$(grep -m 1 "^$name " "$t/geo" 2>/dev/null) || geo=""
		case $name in zero_step_np*) geo="" ;; esac
		awk -v geo="$geo" -f "$src/tests/scripts/svg_check.awk" "$f" >&2 || bad=1
	done
	[ $bad = 0 ] || fail "figures in $1 that a person cannot read (above)"
}

# fake_gnuplot MODE: a gnuplot on PATH ($t/fake) that writes its figures as a full disk
# leaves them: MODE half (half a PNG without its IEND chunk, an empty SVG, exit 0, as
# gnuplot 5.4 does on ENOSPC) or second (the real gnuplot for the first figure, then half)
fake_gnuplot() {
	local real
	real=$(command -v gnuplot)
	mkdir -p "$t/fake"
	cat >"$t/fake/gnuplot" <<EOF
#!/usr/bin/env bash
# the output base: outbase='...' in the first -e
ob=\$(printf '%s\n' "\$2" | sed -n "s/.*outbase='\\([^']*\\)'.*/\\1/p")
if [ "$1" = second ] && [ ! -e "$t/fake/first" ]; then
	: >"$t/fake/first"
	exec "$real" "\$@"
fi
head -c 24576 "$src/plots/reference/busbw_np4.png" >"\$ob.png" 2>/dev/null ||
	printf '\x89PNG\r\n\x1a\n partial' >"\$ob.png"
: >"\$ob.svg"
exit 0
EOF
	chmod +x "$t/fake/gnuplot"
}

# no_partial DIR: DIR holds no figure or list under a final name, and no temporary file
no_partial() {
	local left
	left=$(cd "$1" 2>/dev/null && ls -A) || return 0
	[ -z "$left" ] || { ls -la "$1" >&2; fail "$2: left in $1: $left"; }
}

case $case in
readable_plot_kinds)
	# plot.sh's figures of Open MPI's forced algorithms (long names, library_choice) and of
	# the three collectives (zero_step)
	for r in reference-library reference; do
		CB_PLOT_GEOMETRY=$t/geo "$src/scripts/plot.sh" "$src/results/$r" "$t/$r" >"$t/out" 2>"$t/err" ||
			{ show; fail "plot.sh $r: exit $?"; }
		check_figures "$t/$r"
	done
	[ -s "$t/reference-library/library_choice.svg" ] && [ -s "$t/reference/zero_step_np2.svg" ] ||
		fail "no library_choice or zero_step figure"
	;;
readable_long_name)
	# a plan file's 31-character name (the longest a plan may have) in every figure's key:
	# the key's box inside the canvas in the PNGs too (cairo's PNG text is wider than the
	# SVG's)
	mkdir -p "$t/ln"
	cp -r "$src/results/reference-time" "$t/ln/run"
	sed -i 's/,ring,/,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,/' "$t/ln/run/summary.csv" "$t/ln/run/"np*.csv
	CB_PLOT_GEOMETRY=$t/geo "$src/scripts/plot.sh" "$t/ln/run" "$t/ln/plots" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh: exit $?"; }
	check_figures "$t/ln/plots"
	for f in "$t/ln/plots"/*.png; do
		python3 "$src/tests/scripts/png_edge.py" "$f" >&2 || fail "$(basename "$f"): cut at the edge"
	done
	;;
readable_plot)
	# plot.sh's figures of a run with many series (10 algorithms at 3 rank counts); the
	# statistic on the axes is the median, as frontier's
	r=reference-family
	CB_PLOT_GEOMETRY=$t/geo "$src/scripts/plot.sh" "$src/results/$r" "$t/$r" >"$t/out" 2>"$t/err" ||
		{ show; fail "plot.sh $r: exit $?"; }
	check_figures "$t/$r"
	for k in busbw_np2 frontier_np2 time_vs_ranks traffic_per_rank imbalance_vs_ranks \
		busy_wait_per_rank stragglers iterations; do
		[ -s "$t/reference-family/$k.svg" ] || fail "no $k figure"
	done
	grep -q "of the median time" "$t/reference-family/busbw_np2.svg" &&
		grep -q "µs, median" "$t/reference-family/time_vs_ranks.svg" ||
		fail "busbw or time_vs_ranks does not say its statistic (the median)"
	grep -q "busy (allreduce median [0-9.]* ms)" "$t/reference-family/busy_wait_per_rank.svg" ||
		fail "busy_wait_per_rank's key does not give the median time, named"
	# iterations: 60 timed iterations have no p99 of their own: their largest is "max of 60"
	grep -q ">max of [0-9]*<" "$t/reference-family/iterations.svg" &&
		! grep -q ">p99<" "$t/reference-family/iterations.svg" ||
		fail "iterations calls the largest of a few iterations p99"
	;;
readable_model_regress)
	# model.sh's figures (20 series in model_busbw) and regress.sh's overlay (20 series: a
	# baseline and a current line per algorithm)
	CB_PLOT_GEOMETRY=$t/geo "$src/scripts/model.sh" "$src/results/reference-family" "$t/model" \
		>"$t/out" 2>"$t/err" || { show; fail "model.sh: exit $?"; }
	check_figures "$t/model"
	[ -s "$t/model/model_choice.svg" ] && [ -s "$t/model/model_tradeoff.svg" ] || fail "no model_choice"
	CB_PLOT_GEOMETRY=$t/geo "$src/scripts/regress.sh" --baseline "$src/results/reference-family" \
		--run "$src/results/reference-family" --plots "$t/regress" >"$t/out" 2>"$t/err" ||
		{ show; fail "regress.sh: exit $?"; }
	[ -s "$t/regress/regress_np2.svg" ] || { show; fail "no regress_np2"; }
	check_figures "$t/regress"
	;;
straggler_labels)
	# straggler.awk labels one point per size (the largest ratio), none below 1.05: ratios
	# below 1 are no straggler
	printf 'backend\talgo\tnranks\tbytes\tstraggler_ratio\tstraggler_rank\tstraggler_share\n' >"$t/in.tsv"
	for b in 1024 2048 4096; do
		printf 'host\tps\t4\t%s\t2.5\t0\t1\nhost\tring\t4\t%s\t1.2\t3\t0.5\nhost\trd\t4\t%s\t0.6\t2\t0.4\n' \
			"$b" "$b" "$b" >>"$t/in.tsv"
	done
	mkdir "$t/dat"
	awk -f "$src/scripts/plot/lib.awk" -f "$src/scripts/plot/straggler.awk" -v dir="$t/dat" "$t/in.tsv" \
		>"$t/out" || { show; fail "straggler.awk: exit $?"; }
	[ "$(cut -f3 "$t"/dat/strag.*.dat | grep -c .)" = 3 ] ||
		{ cat "$t"/dat/strag.*.dat >&2; fail "not one label per size"; }
	! awk -F'\t' '$3 != "" && $2 < 1.05' "$t"/dat/strag.*.dat | grep . >/dev/null ||
		fail "a ratio below 1.05 is labelled a straggler"
	# copy (memcpy, never drawn) with a huge ratio: the y range and the labels come from the
	# drawn lines only (a copy row of 81.9 flattened every line to the bottom of 0..100)
	printf 'host\tcopy\t4\t%s\t81.9\t1\t1\n' 1024 2048 4096 >>"$t/in.tsv"
	rm -f "$t"/dat/*
	awk -f "$src/scripts/plot/lib.awk" -f "$src/scripts/plot/straggler.awk" -v dir="$t/dat" "$t/in.tsv" \
		>"$t/out" || { show; fail "straggler.awk with copy rows: exit $?"; }
	ymax=$(awk -F'\037' '$1 == "plot" { print $6 }' "$t/out")
	[ "$ymax" = 2.5 ] || { show; fail "the y range reaches $ymax (copy's ratio), not 2.5 (the drawn lines')"; }
	[ "$(cut -f3 "$t"/dat/strag.*.dat | grep -c '^r0 ')" = 3 ] ||
		{ cat "$t"/dat/strag.*.dat >&2; fail "a size's label went to copy, which is not drawn"; }
	;;
full_disk_fake)
	# gnuplot that leaves half a PNG and an empty SVG and exits 0 (a full disk): plot.sh
	# exits 1 and leaves nothing under a final name (no figure, no figures.txt, no
	# temporary file); the same when the first figure was whole; regress.sh's overlay too
	fake_gnuplot half
	PATH=$t/fake:$PATH "$src/scripts/plot.sh" "$src/results/reference-time" "$t/p1" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 1 ] && grep -q "no complete .*busbw_np2.png" "$t/err" || { show; fail "plot.sh: exit $rc"; }
	no_partial "$t/p1" "a disk full from the first figure"
	fake_gnuplot second
	PATH=$t/fake:$PATH "$src/scripts/plot.sh" "$src/results/reference-time" "$t/p2" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 1 ] || { show; fail "plot.sh, the disk full after one figure: exit $rc"; }
	no_partial "$t/p2" "a disk full after the first figure"
	rm -f "$t/fake/first"
	fake_gnuplot half
	PATH=$t/fake:$PATH "$src/scripts/regress.sh" --baseline "$src/results/reference-time" \
		--run "$src/results/reference-time" --plots "$t/r" >"$t/out" 2>"$t/err"
	[ ! -e "$t/r/regress_np2.png" ] && [ ! -e "$t/r/regress_np2.svg" ] ||
		{ show; ls -la "$t/r" >&2; fail "regress.sh left a partial overlay"; }
	for f in "$t"/r/.*tmp*; do [ ! -e "$f" ] || fail "regress.sh left a temporary figure $f"; done
	;;
full_disk)
	# the field failure itself: plot.sh into a private 64 KiB tmpfs with 40 KiB left
	# (root and unshare: a mount namespace of its own); exit 1, and no figure cut short
	# under its final name
	[ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
		unshare -m --propagation private true 2>/dev/null || { echo "SKIP: needs root and unshare -m"; exit 77; }
	mkdir "$t/full"
	unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=64k tmpfs "$1" || exit 77
		dd if=/dev/zero of="$1/fill" bs=1024 count=40 2>/dev/null
		"$2/scripts/plot.sh" "$2/results/reference-time" "$1/plots" >"$3/out" 2>"$3/err"
		echo $? >"$3/rc"
		ls -la "$1/plots" >"$3/ls" 2>&1
		for f in "$1"/plots/*.png; do [ -e "$f" ] || continue
			tail -c 12 "$f" | od -An -tx1 | tr -d " \n" | grep 0000000049454e44ae426082 >/dev/null || echo "$f" >>"$3/cut"
		done
		for f in "$1"/plots/*.svg "$1"/plots/figures.txt; do [ -e "$f" ] && [ ! -s "$f" ] && echo "$f" >>"$3/cut"; done
		umount "$1"' _ "$t/full" "$src" "$t"
	[ -s "$t/rc" ] || { echo "SKIP: could not mount a tmpfs"; exit 77; }
	[ "$(cat "$t/rc")" = 1 ] || { show; cat "$t/ls" >&2; fail "plot.sh on a full disk: exit $(cat "$t/rc")"; }
	[ ! -s "$t/cut" ] || { cat "$t/ls" "$t/cut" >&2; fail "figures cut short under their final names"; }
	! grep -q "tmp" "$t/ls" || { cat "$t/ls" >&2; fail "a temporary figure was left"; }
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "figures.sh $case: ok"
