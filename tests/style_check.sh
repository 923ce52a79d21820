#!/usr/bin/env bash
# The shape rules of collbench's C code (DESIGN.md section 5; issue 9):
#   - no C file (.c .h .cu .cuh) over 400 lines;
#   - no function over 60 lines (from its opening "{" to its closing "}",
#     both alone at the start of a line, as the code is laid out);
#   - collectives/ never includes a header of bench/;
#   - bench/'s include arrows point down only: common/ includes nothing of
#     bench/ above it, results/ nothing of perf/, compare/, history/ or model/,
#     and perf/, compare/, history/ and model/ nothing of one another;
#   - no include circle among the project's headers.
# Prints one line per breach and exits 1, or exits 0.
#   style_check.sh [SOURCE_DIR]
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
bad=0
breach() { echo "style_check: $*"; bad=1; }

mapfile -t files < <(find bench collectives tests -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)

# file and function length
for f in "${files[@]}"; do
	n=$(wc -l <"$f")
	[ "$n" -le 400 ] || breach "$f: $n lines (at most 400)"
done
while IFS= read -r line; do breach "$line"; done < <(awk '
	FNR == 1 { start = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
	/^\{[ \t]*$/ { start = FNR }
	/^\}[ \t]*$/ && start {
		if (FNR - start + 1 > 60)
			printf "%s:%d: function %s is %d lines (at most 60)\n", FILENAME, start, name,
			       FNR - start + 1
		start = 0
	}' "${files[@]}")

# the folder a header lives in ("" when it is not the project's)
declare -A where
for f in "${files[@]}"; do
	case $f in *.h | *.cuh) where[$(basename "$f")]=$(dirname "$f") ;; esac
done

# layering: which folders a folder must not include from
forbidden() {
	case $1 in
	collectives) echo "bench/common bench/results bench/perf bench/compare bench/history bench/model" ;;
	bench/common) echo "bench/results bench/perf bench/compare bench/history bench/model" ;;
	bench/results) echo "bench/perf bench/compare bench/history bench/model" ;;
	bench/perf) echo "bench/compare bench/history bench/model" ;;
	bench/compare) echo "bench/perf bench/history bench/model" ;;
	bench/history) echo "bench/perf bench/compare bench/model" ;;
	bench/model) echo "bench/perf bench/compare bench/history" ;;
	esac
}
edges=()
for f in "${files[@]}"; do
	dir=$(dirname "$f")
	while IFS= read -r inc; do
		to=${where[$inc]:-}
		[ -n "$to" ] || continue
		for no in $(forbidden "$dir"); do
			[ "$to" != "$no" ] || breach "$f includes $to/$inc: $dir must not include from $no"
		done
		case $f in *.h | *.cuh) edges+=("$(basename "$f") $inc") ;; esac
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

# include circles: a header that reaches itself through the headers it includes
if [ ${#edges[@]} -gt 0 ]; then
	while IFS= read -r line; do breach "$line"; done < <(printf '%s\n' "${edges[@]}" | awk '
		{ out[$1] = out[$1] " " $2 }
		function visit(h, path,   n, k, next_h) {
			if (h in onpath) { printf "include circle: %s -> %s\n", path, h; found = 1; return }
			if (h in done) return
			onpath[h] = 1
			n = split(out[h], next_h, " ")
			for (k = 1; k <= n && !found; k++)
				visit(next_h[k], path (path == "" ? "" : " -> ") h)
			delete onpath[h]
			done[h] = 1
		}
		END { for (h in out) if (!found) visit(h, "") }')
fi
exit $bad
