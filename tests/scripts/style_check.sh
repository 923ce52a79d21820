#!/usr/bin/env bash
# The shape rules of collbench's C code (docs/architecture.md, "Rules of the code's shape"). This header
# is their text; docs/architecture.md points here.
#
# A module is a header and the file(s) named after it (cb_x.h, cb_x.c); split
# a file by responsibility, never to meet a line count. The check, on every
# .c .h .cu .cuh file under collectives/, bench/ and tests/:
#   1. files: over 500 lines a warning (a line on stdout, not a failure: look
#      for a responsibility to split off); over 800 lines fails;
#   2. functions: at most 60 lines, from the opening "{" to the closing "}"
#      (both alone at the start of a line, as the code is laid out);
#   3. lines: at most 160 characters (bytes); a longer table row is written
#      as a multi-line designated initialiser;
#   4. include arrows point down only, between the folders of the two halves:
#          collectives/: runtime -> catalog -> plans -> core
#          bench/:       harness -> (collectives' runtime) and format
#                        compare, history, model, results_tool -> format
#                        format -> common, (collectives' catalog, plans, core)
#                        common -> (collectives' core)
#      bench/ includes from collectives/, never the other way; runtime/ and
#      its folders (shm, host, cuda, mpi, nccl, exec) are one layer; a tool
#      of bench/ includes nothing of another tool. A folder of collectives/
#      or bench/ outside this table fails until it is given its place here;
#   5. no include circle among the project's headers;
#   6. no call circle between files: file A calls file B when A's object file
#      needs a symbol (a function or data) that B's object file defines (nm on
#      the objects of collectives/ and bench/ in the build folder: the build must be there).
#      Files of one module call down to one another, never in a loop;
#   7. an internal header (cb_x_int.h, cb_x_internal.h) is included only by
#      the files of its module (names starting "cb_x_" or "cb_x."), and every
#      name it declares (functions, types, enumerators, macros) starts with
#      cb_x, in any case (cb_cuda_internal.h: cb_cuda_state, CB_CUDA_SYNC_HOST).
# Prints one line per breach ("style_check: ...") and exits 1, else exits 0;
# warnings ("style_check: warning: ...") do not fail. Tested on planted
# defects by tests/scripts/style_check_plants.sh.
#   style_check.sh SOURCE_DIR BUILD_DIR
# Without BUILD_DIR rule 6 is not checked (a warning says so).
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${2:-}
if [ -n "$build" ]; then
	build=$(cd "$build" && pwd) || { echo "style_check: no build folder $2" >&2; exit 2; }
fi
cd "$root" || exit 2
export LC_ALL=C
bad=0
breach() { echo "style_check: $*"; bad=1; }

dirs=()
for d in collectives bench tests; do [ -d "$d" ] && dirs+=("$d"); done
mapfile -t files < <(find "${dirs[@]}" -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -not -path '*/fuzz/corpus/*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "style_check: no C files under $root/collectives, bench or tests" >&2; exit 2; }

# file, function and line length
while read -r n f; do
	if [ "$n" -gt 800 ]; then
		breach "$f: $n lines (at most 800)"
	elif [ "$n" -gt 500 ]; then
		echo "style_check: warning: $f: $n lines (over 500: is there a responsibility to split off?)"
	fi
done < <(awk 'FNR == 1 && NR > 1 { print n, f } { f = FILENAME; n = FNR } END { if (NR) print n, f }' \
	"${files[@]}")
while IFS= read -r line; do breach "$line"; done < <(awk '
	FNR == 1 { start = 0 }
	length($0) > 160 { printf "%s:%d: %d characters (at most 160)\n", FILENAME, FNR, length($0) }
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
	case $f in *.h | *.cuh) where[${f##*/}]=${f%/*} ;; esac
done

# layering: the layer of a folder of collectives/ or bench/, and the layers
# below it that it may include from (its own always)
layer() {
	case $1 in
	collectives/core | collectives/catalog | collectives/plans) echo "${1#collectives/}" ;;
	collectives/runtime | collectives/runtime/*) echo runtime ;;
	bench/common | bench/format | bench/harness) echo "${1#bench/}" ;;
	bench/compare | bench/history | bench/model | bench/results_tool) echo "${1}" ;;
	collectives | collectives/* | bench | bench/*) echo "?" ;;
	*) echo "" ;; # tests/: may include anything
	esac
}
below() {
	case $1 in
	core) echo "" ;;
	plans) echo "core" ;;
	catalog) echo "plans core" ;;
	runtime) echo "catalog plans core" ;;
	common) echo "core" ;;
	format) echo "common catalog plans core" ;;
	harness) echo "runtime format common catalog plans core" ;;
	bench/*) echo "format common catalog plans core" ;;
	esac
}
declare -A layer_of below_of
for f in "${files[@]}"; do
	d=${f%/*}
	[ -n "${layer_of[$d]+set}" ] || layer_of[$d]=$(layer "$d")
done
for l in "${layer_of[@]}"; do
	[ -n "$l" ] && [ "$l" != "?" ] && [ -z "${below_of[$l]+set}" ] && below_of[$l]=$(below "$l")
done
edges=()
while read -r f inc; do
	dir=${f%/*}
	from=${layer_of[$dir]}
	to=${where[$inc]:-}
	[ -n "$to" ] || continue
	case $f in *.h | *.cuh) edges+=("${f##*/} $inc") ;; esac
	[ -n "$from" ] && [ "$from" != "?" ] || continue
	tl=${layer_of[$to]}
	[ "$tl" != "$from" ] || continue
	case " ${below_of[$from]} " in
	*" $tl "*) ;;
	*)
		allowed="$from ${below_of[$from]}"
		breach "$f includes $to/$inc: an arrow up or across ($from includes only" \
			"from ${allowed% }, no other folder)"
		;;
	esac
done < <(awk 'match($0, /^#include "[^"]*"/) { print FILENAME, substr($0, RSTART + 10, RLENGTH - 11) }' \
	"${files[@]}")
for dir in "${!layer_of[@]}"; do
	[ "${layer_of[$dir]}" != "?" ] || breach "$dir: a folder outside the layering table (add it to tests/scripts/style_check.sh)"
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

# internal headers: who includes them, and the names they declare
for h in "${files[@]}"; do
	case $h in *_int.h | *_internal.h) ;; *) continue ;; esac
	b=${h##*/}
	stem=${b%_int.h}
	[ "$stem" != "$b" ] || stem=${b%_internal.h}
	while IFS= read -r f; do
		case ${f##*/} in
		"${stem}_"* | "${stem}."*) ;;
		*) breach "$f includes $h: an internal header of module $stem (only ${stem}_*, ${stem}.* may)" ;;
		esac
	done < <(grep -l "^#include \"$b\"" "${files[@]}")
	while IFS= read -r line; do breach "$line"; done < <(awk -v stem="$stem" -v f="$h" '
		function name_ok(n) {
			n = tolower(n)
			return index(n, stem) == 1 && (length(n) == length(stem) ||
				substr(n, length(stem) + 1, 1) == "_")
		}
		function declares(n) {
			if (n != "" && !name_ok(n))
				printf "%s:%d: internal header declares %s, not prefixed %s\n", f, FNR, n, stem
		}
		function ident_before(s, p,   t) {  # the identifier that ends right before s[p]
			t = substr(s, 1, p - 1)
			sub(/[ \t]+$/, "", t)
			if (match(t, /[A-Za-z_][A-Za-z0-9_]*$/))
				return substr(t, RSTART, RLENGTH)
			return ""
		}
		function enumerators(s,   n, k, part, e) {
			n = split(s, part, ",")
			for (k = 1; k <= n; k++) {
				e = part[k]
				sub(/^[ \t{]+/, "", e)
				if (match(e, /^[A-Za-z_][A-Za-z0-9_]*/))
					declares(substr(e, RSTART, RLENGTH))
			}
		}
		{
			# the line without comments
			s = $0; l = ""
			while (s != "") {
				if (incom) {
					p = index(s, "*/")
					if (!p) { s = ""; break }
					s = substr(s, p + 2); incom = 0; continue
				}
				p = index(s, "/*"); q = index(s, "//")
				if (q && (!p || q < p)) { l = l substr(s, 1, q - 1); break }
				if (p) { l = l substr(s, 1, p - 1); s = substr(s, p + 2); incom = 1; continue }
				l = l s; s = ""
			}
			if (match(l, /^#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
				t = substr(l, RSTART, RLENGTH); sub(/.*[ \t]/, "", t); declares(t)
			} else if (depth == 0 && l ~ /^[A-Za-z_]/) {
				if (match(l, /^(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
					t = substr(l, RSTART, RLENGTH); sub(/[ \t]*\{$/, "", t)
					sub(/.*[ \t]/, "", t); declares(t)
					if (l ~ /^enum/) { inenum = 1; enumerators(substr(l, index(l, "{") + 1)) }
				} else if (l ~ /^typedef/) {
					if ((p = index(l, "(*")) > 0) {
						t = substr(l, p + 2); sub(/[^A-Za-z0-9_].*/, "", t); declares(t)
					} else if (l ~ /;[ \t]*$/) {
						declares(ident_before(l, index(l, ";")))
					} else
						intypedef = 1
				} else if ((p = index(l, "(")) > 0) {
					declares(ident_before(l, p))  # a function
				} else if (l ~ /;[ \t]*$/ && l !~ /^(struct|union|enum)[ \t]+[A-Za-z_0-9]+;/) {
					t = l; sub(/[ \t]*(\[[^]]*\])?[ \t]*(=.*)?;[ \t]*$/, "", t)
					declares(ident_before(t "", length(t) + 1))  # a variable
				}
			} else if (depth == 1 && inenum) {
				enumerators(l)
			}
			o = gsub(/\{/, "{", l); c = gsub(/\}/, "}", l)
			depth += o - c
			if (depth == 0 && c > 0) {
				if (intypedef && match(l, /\}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
					t = substr(l, RSTART + 1, RLENGTH - 2); gsub(/[ \t]/, "", t); declares(t)
				}
				inenum = 0; intypedef = 0
			}
		}' "$h")
done

# call circles between the files of collectives/ and bench/, from their object files
if [ -z "$build" ]; then
	echo "style_check: warning: no BUILD_DIR given: call circles not checked"
else
	symtab=$(mktemp)
	trap 'rm -f "$symtab"' EXIT
	nobj=0
	while IFS= read -r o; do
		rel=${o#"$build"/}
		d=${rel%%CMakeFiles/*}
		r=${rel#*CMakeFiles/*.dir/}
		src=$d${r%.o}
		case $src in collectives/* | bench/*) ;; *) continue ;; esac
		[ -f "$src" ] || continue # left by a file since removed or renamed
		nobj=$((nobj + 1))
		nm -P -g "$o" | awk -v s="$src" '{ print s, $2, $1 }' >>"$symtab"
	done < <(find "$build" -path '*/CMakeFiles/*.dir/*' -name '*.o' | sort)
	if [ "$nobj" -eq 0 ]; then
		breach "$build: no object files of collectives/ or bench/ (build first: the call-circle rule reads them)"
	fi
	while IFS= read -r line; do breach "$line"; done < <(awk '
		# defined: T D B R G S C (weak and common copies are no file of their own)
		$2 ~ /^[TDBRGSC]$/ { defs[$3] = defs[$3] " " $1; next }
		$2 == "U" { nu++; ufile[nu] = $1; usym[nu] = $3 }
		function strongconnect(v,   k, m, w, list, comp, cn) {
			idx[v] = low[v] = ++counter
			stack[++sp] = v; onstack[v] = 1
			m = split(succ[v], list, " ")
			for (k = 1; k <= m; k++) {
				w = list[k]
				if (!(w in idx)) {
					strongconnect(w)
					if (low[w] < low[v]) low[v] = low[w]
				} else if (onstack[w] && idx[w] < low[v])
					low[v] = idx[w]
			}
			if (low[v] == idx[v]) {
				cn = 0; ncomp++
				do {
					w = stack[sp--]; onstack[w] = 0
					comp_of[w] = ncomp; cn++
				} while (w != v)
				size[ncomp] = cn
			}
		}
		END {
			for (i = 1; i <= nu; i++) {
				if (!(usym[i] in defs)) continue
				m = split(defs[usym[i]], dl, " ")
				for (k = 1; k <= m; k++) {
					e = ufile[i] SUBSEP dl[k]
					if (dl[k] == ufile[i] || e in label) continue
					label[e] = usym[i]
					succ[ufile[i]] = succ[ufile[i]] " " dl[k]
					node[ufile[i]] = node[dl[k]] = 1
				}
			}
			for (v in node) if (!(v in idx)) strongconnect(v)
			# one circle per component: the shortest way from its first file
			# back to it, within the component
			for (v in node) {
				c = comp_of[v]
				if (size[c] < 2) continue
				if (!(c in first) || v < first[c]) first[c] = v
			}
			for (c in first) {
				s = first[c]
				split("", prev); split("", seen)
				qh = 1; qt = 0; q[++qt] = s; found = ""
				while (qh <= qt && found == "") {
					u = q[qh++]
					m = split(succ[u], list, " ")
					for (k = 1; k <= m; k++) {
						w = list[k]
						if (comp_of[w] != c) continue
						if (w == s) { found = u; break }
						if (!(w in seen)) { seen[w] = 1; prev[w] = u; q[++qt] = w }
					}
				}
				path = s " (" label[found SUBSEP s] ")"
				len = 1
				for (u = found; u != s; u = prev[u]) {
					path = u " (" label[prev[u] SUBSEP u] ") -> " path
					len++
				}
				more = ""
				if (size[c] > len) {
					n = 0
					for (v in node) if (comp_of[v] == c) member[++n] = v
					for (i = 2; i <= n; i++)  # in name order
						for (k = i; k > 1 && member[k - 1] > member[k]; k--) {
							t = member[k]; member[k] = member[k - 1]; member[k - 1] = t
						}
					for (i = 1; i <= n; i++) more = more " " member[i]
					more = sprintf("; %d files call one another in a loop:%s", size[c], more)
				}
				print "call circle: " s " -> " path more
			}
		}' "$symtab")
fi
exit $bad
