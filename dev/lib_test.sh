# shellcheck shell=bash
# shellcheck disable=SC2154 # test.sh's jobs, ctest_jobs and tmp (below)
# lib_test.sh: sourced by scripts/test.sh: its steps (each timed and said on
# stderr: wall and CPU time, the load average, how much of the CPUs other
# work took meanwhile, so a slow run on a shared machine can be told apart),
# builds and ctest runs. Reads test.sh's jobs (build jobs), ctest_jobs and
# tmp (a scratch folder); uses lib.sh's cb_children_cpu, cb_busy_seconds and
# cb_other_share.

load() { cut -d' ' -f1-3 /proc/loadavg; }

# mark: sets mark to "wall own-CPU machine-busy" seconds now (in this shell:
# cb_children_cpu must not run in a subshell)
mark() {
	cb_children_cpu "$tmp/times"
	# shellcheck disable=SC2154 # cb_children_cpu (lib.sh) sets cb_cpu
	mark="$SECONDS $cb_cpu $(cb_busy_seconds)"
}

# since MARK: sets took to what happened since MARK: wall and CPU seconds, the
# share of the CPUs other work used, the load average now
since() {
	local t0 c0 b0 t1 c1 b1
	read -r t0 c0 b0 <<<"$1"
	mark
	read -r t1 c1 b1 <<<"$mark"
	took="$((t1 - t0)) s wall, $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.0f", b - a }') s CPU;"
	took+=" other work used $(cb_other_share "$b0" "$b1" "$c0" "$c1" "$((t1 - t0))")% of the $jobs CPUs"
	took+=" meanwhile; load average $(load)"
}

# step NAME COMMAND...: runs COMMAND, then says what it took; exits 1 (said)
# when it fails
step() {
	local name=$1 m0
	shift
	mark
	m0=$mark
	echo "== test.sh: $name (load average $(load))" >&2
	"$@" || cb_die 1 "$name FAILED after $((SECONDS - ${m0%% *})) s (see above)"
	since "$m0"
	echo "== test.sh: $name: $took" >&2
}

# build DIR CMAKE_OPTIONS...: configures (warnings as errors) and builds DIR
build() {
	local dir=$1
	shift
	cmake -S . -B "$dir" -DCB_WERROR=ON "$@" >/dev/null &&
		cmake --build "$dir" -j "$jobs" >/dev/null
}

# run_ctest DIR CTEST_OPTIONS...: the tests of the build in DIR
run_ctest() {
	local dir=$1
	shift
	(cd "$dir" && ctest --output-on-failure -j "$ctest_jobs" "$@")
}

# labels_re LABEL...: a ctest regular expression that matches those labels
labels_re() { local IFS='|'; echo "^($*)\$"; }
