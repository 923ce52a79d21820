#!/usr/bin/env bash
# layout.sh: the layout of collectives/ and bench/ drawn from the code: each
# folder (a library of collectives/CMakeLists.txt or bench/CMakeLists.txt;
# collectives/runtime/'s provider folders are one layer and one box), its lines, and its
# include arrows (a file of folder A includes a header of folder B), the
# folders in floors (a folder stands above every folder it includes).
#   dev/layout.sh [--text | --plot OUT]   (default --text)
# --text prints the floors, top first, one folder a line with its arrows (no
# line counts: the text stays true while files grow; docs/architecture.md
# holds this output: tests/unit/test_readme.c checks it);
# --plot OUT draws the same with gnuplot into OUT.png and OUT.svg: a box per
# folder (its width by its lines), an arrow per include arrow but those into
# core, which every folder includes (the title says so).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:---text}

# the folder of a source file: collectives/X or bench/X (collectives/runtime
# with its provider folders)
folder_of() { awk -F/ '{ print $1 "/" $2 }'; }

mapfile -t files < <(find collectives bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
# "folder lines" and "from to" pairs, then floors, in one awk
{
	for f in "${files[@]}"; do
		d=$(folder_of <<<"$f")
		echo "F $d $(wc -l <"$f") $(basename "$f")"
	done
	for f in "${files[@]}"; do
		d=$(folder_of <<<"$f")
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do echo "I $d $h"; done
	done
} | awk -v mode="$mode" '
	$1 == "F" { lines[$2] += $3; where[$4] = $2; next }
	$1 == "I" { if (($3 in where) && where[$3] != $2) edge[$2, where[$3]] = 1 }
	function floor(d,   e, k, p, f) {
		if (d in fl) return fl[d]
		f = 0
		for (e in edge) { split(e, p, SUBSEP); if (p[1] == d && floor(p[2]) + 1 > f) f = floor(p[2]) + 1 }
		return fl[d] = f
	}
	END {
		for (d in lines) { floor(d); if (fl[d] > top) top = fl[d] }
		for (f = top; f >= 0; f--) {
			n = 0
			for (d in lines) if (fl[d] == f) names[++n] = d
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
			for (i = 1; i <= n; i++) {
				d = names[i]; to = ""
				for (e in edge) { split(e, p, SUBSEP); if (p[1] == d) to = to " " p[2] }
				m = split(to, tt, " "); to = ""
				for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (tt[b] < tt[a]) { t = tt[a]; tt[a] = tt[b]; tt[b] = t }
				for (a = 1; a <= m; a++) to = to (a > 1 ? ", " : "") tt[a]
				printf "%d\t%s\t%d\t%s\n", f, d, lines[d], to
			}
		}
	}' >"${TMPDIR:-/tmp}/layout.$$"
trap 'rm -f "${TMPDIR:-/tmp}/layout.$$"' EXIT

case $mode in
--text)
	awk -F'\t' '{ printf "floor %d  %-20s -> %s\n", $1, $2, $4 == "" ? "(nothing)" : $4 }' \
		"${TMPDIR:-/tmp}/layout.$$"
	;;
--plot)
	out=${2:?--plot OUT}
	command -v gnuplot >/dev/null || { echo "layout.sh: gnuplot not installed" >&2; exit 2; }
	awk -F'\t' -v out="$out" '
		{ f[NR] = $1; d[NR] = $2; l[NR] = $3; to[NR] = $4; n = NR; row[$1] = row[$1] + 1; if ($1 > top) top = $1 }
		END {
			for (i = 1; i <= n; i++) { w[i] = 2.0 + 0.5 * sqrt(l[i] / 1000.0); tot[f[i]] += w[i] + 0.4 }
			for (i = 1; i <= n; i++) {
				x0 = (i == 1 || f[i] != f[i - 1]) ? -tot[f[i]] / 2 : x1 + 0.4
				x1 = x0 + w[i]; y = f[i] * 2
				cx[d[i]] = (x0 + x1) / 2; cy[d[i]] = y
				printf "set object %d rect from %g,%g to %g,%g fc rgb \"#dde8f4\" fs solid border lc rgb \"#33557a\"\n", i, x0, y - 0.45, x1, y + 0.45
				printf "set label %d \"%s\\n%.1fk lines\" at %g,%g center font \",9\" noenhanced front\n", i, d[i], l[i] / 1000, (x0 + x1) / 2, y
			}
			a = 0
			for (i = 1; i <= n; i++) {
				m = split(to[i], tt, ", ")
				for (k = 1; k <= m; k++)
					if (tt[k] != "collectives/core") # the ground: every folder stands on it
						printf "set arrow %d from %g,%g to %g,%g lc rgb \"#777777\" lw 1 head size 0.12,20\n", ++a, cx[d[i]], cy[d[i]] - 0.45, cx[tt[k]], cy[tt[k]] + 0.45
			}
			printf "set xrange [%g:%g]; set yrange [-1:%g]\n", -10, 10, top * 2 + 1
		}' "${TMPDIR:-/tmp}/layout.$$" >"${TMPDIR:-/tmp}/layout.$$.gp"
	for term in "pngcairo size 1100,700" "svg size 1100,700"; do
		ext=png; [ "${term%% *}" = svg ] && ext=svg
		gnuplot -e "set terminal $term font ',10'; set output '$out.$ext'; unset border; unset tics; unset key;
			set title 'collectives/ and bench/: folders and their include arrows, drawn by dev/layout.sh from the code (every folder also includes collectives/core)';
			load '${TMPDIR:-/tmp}/layout.$$.gp'; plot NaN notitle"
	done
	rm -f "${TMPDIR:-/tmp}/layout.$$.gp"
	;;
*) echo "layout.sh: --text or --plot OUT" >&2; exit 2 ;;
esac
