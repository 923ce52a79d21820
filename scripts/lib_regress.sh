# shellcheck shell=bash
# lib_regress.sh: sourced by regress.sh: its overlay plots (baseline dashed,
# current solid, regressions, failed and vanished rows circled), from
# collbench-compare --format csv.
# Reads regress.sh's variables: root, tmp, plots, plotdir (set here when
# empty), run_id, run_dir, base_dir, tolerance. Messages: lib.sh's cb_note.

# overlay_plots CSV: one figure per rank count from collbench-compare --format csv
# shellcheck disable=SC2154 # regress.sh's variables (above)
overlay_plots() {
	local csv=$1 n
	command -v gnuplot >/dev/null || { cb_note "warning: gnuplot not installed: no overlay plot"; return 0; }
	# the plot folder: --plots was claimed at the start; else a new one (atomic)
	[ -n "$plotdir" ] || plotdir=$(cb_new_dir "$plots" "$run_id") || return 2
	printf 'baseline %s\nrun %s\n' "$base_dir" "$run_dir" >"$plotdir/regress.txt" ||
		{ cb_note "cannot write $plotdir/regress.txt"; return 2; }
	# per rank count N: N.<i>.base.dat / N.<i>.cur.dat for the i-th algorithm,
	# N.reg.dat for regressions; N.info: algos, x and y ranges (first
	# backend/dtype/op/in_place combination only, named in the subtitle)
	awk -F, -v dir="$tmp" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			# a bandwidth figure on a log size axis: no 0-byte rows, no rows judged on time
			if ($c["metric"] == "time" || $c["bytes"] + 0 <= 0) next
			combo = $c["backend"] " " $c["dtype"] " " $c["op"] " " ($c["in_place"] ? "in-place" : "out-of-place")
			if (first == "") first = combo
			if (combo != first) next
			n = $c["nranks"]; a = $c["algo"]; b = $c["bytes"] + 0
			if (!((n, a) in idx)) { idx[n, a] = ++na[n]; algos[n] = algos[n] " " a }
			p = dir "/" n "." idx[n, a]
			if ($c["baseline"] != "") { print b "\t" $c["baseline"] > (p ".base.dat"); see(n, b, $c["baseline"]) }
			if ($c["current"] != "") { print b "\t" $c["current"] > (p ".cur.dat"); see(n, b, $c["current"]) }
			if ($c["verdict"] == "regression" || $c["verdict"] == "failed" || $c["verdict"] == "vanished")
				print b "\t" ($c["current"] != "" ? $c["current"] : $c["baseline"]) > (dir "/" n ".reg.dat")
		}
		function see(n, b, v) {
			if (!(n in xmin) || b < xmin[n]) xmin[n] = b
			if (!(n in xmax) || b > xmax[n]) xmax[n] = b
			if (v > 0 && (!(n in ymin) || v < ymin[n])) ymin[n] = v
			if (!(n in ymax) || v > ymax[n]) ymax[n] = v
		}
		END {
			for (n in na) {
				# an algorithm without data on one side gets an empty file
				for (i = 1; i <= na[n]; i++) { printf "" >> (dir "/" n "." i ".base.dat"); printf "" >> (dir "/" n "." i ".cur.dat") }
				print substr(algos[n], 2) "\t" xmin[n] "\t" xmax[n] "\t" ymin[n] + 0 "\t" ymax[n] + 0 "\t" first > (dir "/" n ".info")
			}
		}' "$csv"
	for info in "$tmp"/*.info; do
		[ -e "$info" ] || continue
		n=$(basename "$info" .info)
		IFS=$'\t' read -r algos xmin xmax ymin ymax combo <"$info"
		local reg=""
		[ ! -s "$tmp/$n.reg.dat" ] || reg=$tmp/$n.reg.dat
		cb_gnuplot "$root/scripts/plot" regress "$plotdir/regress_np$n" "prefix=$(cb_gp_path "$tmp/$n");
			algos='$algos'; regfile=$(cb_gp_path "$reg");
			xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax; nranks=$n;
			ttl='collbench regression check: $n ranks, baseline dashed, current solid';
			sub=$(cb_gp_str "$combo; baseline $(basename "$base_dir"), tolerance $tolerance%");
			runid=$(cb_gp_str "$run_id")" || { cb_note "warning: no overlay plot for $n ranks (above)"; continue; }
		cb_note "plot: $plotdir/regress_np$n.png (.svg)"
	done
}
