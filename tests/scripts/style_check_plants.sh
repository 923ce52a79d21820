#!/usr/bin/env bash
# tests/scripts/style_check.sh on planted defects. Each case makes a small
# tree (collectives/core and bench/format, their object files compiled with
# CC into a build folder laid out as CMake lays it out,
# <half>/CMakeFiles/<target>.dir/<path under the half>.o), plants one defect, and
# expects the check to exit 1 with a line that names it; the clean tree must
# pass with nothing to say, and a 501-line file must only warn.
#   style_check_plants.sh [CC]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc=${1:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# collectives/core: cb_a (its internal header cb_a_internal.h, used by cb_a_more.c)
# and cb_z; bench/format: cb_r, which calls cb_a. A line of 160 characters, a
# function of 60 lines.
clean_tree() {
	local r=$1
	mkdir -p "$r/collectives/core" "$r/bench/format"
	cat >"$r/collectives/core/cb_a.h" <<'EOF'
#ifndef CB_A_H
#define CB_A_H
int cb_a(int x);
#endif
EOF
	cat >"$r/collectives/core/cb_a_internal.h" <<'EOF'
/* cb_a_internal: private to cb_a*.c */
#ifndef CB_A_INTERNAL_H
#define CB_A_INTERNAL_H
#define CB_A_STEP 2
enum cb_a_kind { CB_A_ONE, CB_A_TWO };
struct cb_a_state {
	int n;
};
int cb_a_twice(int x);
#endif
EOF
	cat >"$r/collectives/core/cb_a.c" <<'EOF'
#include "cb_a.h"
#include "cb_a_internal.h"
int cb_a(int x)
{
	return cb_a_twice(x) + CB_A_STEP;
}
EOF
	printf '/* %0154d */\n' 0 >>"$r/collectives/core/cb_a.c" # 160 characters: the most a line may have
	cat >"$r/collectives/core/cb_a_more.c" <<'EOF'
#include "cb_a_internal.h"
int cb_a_twice(int x)
{
	return 2 * x;
}
EOF
	cat >"$r/collectives/core/cb_z.h" <<'EOF'
#ifndef CB_Z_H
#define CB_Z_H
int cb_z(int x);
#endif
EOF
	cat >"$r/collectives/core/cb_z.c" <<'EOF'
#include "cb_z.h"
int cb_z(int x)
{
	return x - 1;
}
EOF
	cat >"$r/bench/format/cb_r.h" <<'EOF'
#ifndef CB_R_H
#define CB_R_H
#include "cb_a.h"
int cb_r(int x);
#endif
EOF
	cat >"$r/bench/format/cb_r.c" <<'EOF'
#include "cb_r.h"
int cb_r(int x)
{
	return cb_a(x) + 1;
}
EOF
	{ # 60 lines from "{" to "}": the most a function may have
		printf 'int cb_r_sixty(int x)\n{\n'
		for i in $(seq 57); do printf '\tx += %d;\n' "$i"; done
		printf '\treturn x;\n}\n'
	} >>"$r/bench/format/cb_r.c"
}

# Every .c of <half>/<folder> into build/<half>/CMakeFiles/cb_<folder>.dir/<folder>/.
compile_tree() {
	local r=$1 c rel half obj
	while IFS= read -r c; do
		rel=${c#"$r"/}
		half=${rel%%/*}
		rel=${rel#*/}
		obj=$r/build/$half/CMakeFiles/cb_${rel%%/*}.dir/$rel.o
		mkdir -p "${obj%/*}"
		"$cc" -c -I"$r/collectives/core" -I"$r/bench/format" -o "$obj" "$c" || return 1
	done < <(find "$r/collectives" "$r/bench" -name '*.c' | sort)
}

# plant_<case> ROOT: the defect
plant_clean() { :; }
plant_call_circle() {
	printf '#include "cb_z.h"\nint cb_z_back(int x)\n{\n\treturn x;\n}\n' >>"$1/collectives/core/cb_a.c"
	printf 'int cb_z_back(int x);\nint cb_z_more(int x)\n{\n\treturn cb_z_back(x);\n}\n' >>"$1/collectives/core/cb_z.c"
	# cb_a.c -> cb_z.c (cb_z) closes it: cb_z.c -> cb_a.c (cb_z_back)
	printf 'int cb_a_calls_z(int x)\n{\n\treturn cb_z(x);\n}\n' >>"$1/collectives/core/cb_a.c"
}
plant_long_file() {
	for i in $(seq 795); do echo "/* line $i */"; done >>"$1/collectives/core/cb_z.c" # 5 + 795 + 1
	echo "/* the 801st line */" >>"$1/collectives/core/cb_z.c"
}
plant_warn_501() {
	for i in $(seq 496); do echo "/* line $i */"; done >>"$1/collectives/core/cb_z.c" # 5 + 496
}
plant_long_line() {
	printf '/* %0155d */\n' 0 >>"$1/collectives/core/cb_z.c" # 3 + 155 + 3 = 161 characters
}
plant_long_function() {
	{
		printf 'int cb_z_long(int x)\n{\n'
		for i in $(seq 58); do printf '\tx += %d;\n' "$i"; done
		printf '\treturn x;\n}\n'
	} >>"$1/collectives/core/cb_z.c" # 61 lines from "{" to "}"
}
plant_internal_header() {
	sed -i '1i #include "cb_a_internal.h"' "$1/collectives/core/cb_z.c"
}
plant_internal_name() {
	sed -i 's/^#define CB_A_STEP 2$/#define CB_A_STEP 2\nstruct ev {\n\tint n;\n};/' "$1/collectives/core/cb_a_internal.h"
}
plant_layer_up() {
	sed -i '1i #include "cb_r.h"' "$1/collectives/core/cb_z.c"
}
plant_include_circle() {
	sed -i 's/^#define CB_A_H$/#define CB_A_H\n#include "cb_z.h"/' "$1/collectives/core/cb_a.h"
	sed -i 's/^#define CB_Z_H$/#define CB_Z_H\n#include "cb_a.h"/' "$1/collectives/core/cb_z.h"
}

# case, exit status expected, a fixed string the output must hold ("" for
# none: the output must then be empty); the output is one line: the planted
# defect is the only thing the check finds
check_case() {
	local name=$1 want_rc=$2 want=$3 r=$tmp/$1 out rc
	clean_tree "$r"
	"plant_$name" "$r"
	compile_tree "$r" || { echo "FAIL $name: does not compile"; failed=1; return; }
	out=$("$here/style_check.sh" "$r" "$r/build" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc; output:"
		echo "$out"
		failed=1
	elif [ -z "$want" ] && [ -n "$out" ]; then
		echo "FAIL $name: expected no output, got:"
		echo "$out"
		failed=1
	elif [ -n "$want" ] && { ! grep -qF -- "$want" <<<"$out" || [ "$(wc -l <<<"$out")" -ne 1 ]; }; then
		echo "FAIL $name: output is not the one line '$want...':"
		echo "$out"
		failed=1
	else
		echo "ok $name: exit $rc${want:+, \"$want\"}"
	fi
}

check_case clean 0 ""
check_case call_circle 1 "call circle: collectives/core/cb_a.c -> collectives/core/cb_z.c (cb_z) -> collectives/core/cb_a.c (cb_z_back)"
check_case long_file 1 "collectives/core/cb_z.c: 801 lines (at most 800)"
check_case warn_501 0 "warning: collectives/core/cb_z.c: 501 lines"
check_case long_line 1 "collectives/core/cb_z.c:6: 161 characters (at most 160)"
check_case long_function 1 "function cb_z_long is 61 lines (at most 60)"
check_case internal_header 1 "collectives/core/cb_z.c includes collectives/core/cb_a_internal.h: an internal header of module cb_a"
check_case internal_name 1 "collectives/core/cb_a_internal.h:5: internal header declares ev, not prefixed cb_a"
check_case layer_up 1 "collectives/core/cb_z.c includes bench/format/cb_r.h: an arrow up or across (core includes only from core"
check_case include_circle 1 "include circle: cb_"
exit $failed
