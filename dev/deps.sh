# shellcheck shell=bash
# deps.sh: sourced by bench.sh and test.sh. cb_install_deps installs what
# collbench needs on Debian/Ubuntu with apt-get when run as root (or with
# passwordless sudo), else lists what to install and fails.
CB_DEB_PACKAGES="cmake make gcc pkg-config libopenmpi-dev openmpi-bin libjansson-dev libcsv-dev libcmocka-dev gnuplot-nox libsqlite3-dev libssl-dev"
# test.sh only: ShellCheck for the scripts' lint test (tests/scripts/lint.sh);
# with --full also clang's libFuzzer for the reader's fuzz test
# (tests/fuzz/fuzz.sh) and Slurm and munge for the job scripts' tests
# (tests/beds/slurm/slurm.sh: the test starts daemons of its own; where the
# packages start the system's, they are left alone)
# shellcheck disable=SC2034 # used by test.sh, which sources this file
CB_DEB_TEST_PACKAGES="shellcheck" CB_DEB_FULL_PACKAGES="clang-14 libclang-rt-14-dev slurm-wlm munge"

cb_missing_packages() {
	local p missing=""
	for p in $CB_DEB_PACKAGES "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null ||
			missing="$missing $p"
	done
	echo "$missing"
}

# cb_apt_step LOG WHAT CMD...: runs CMD with its output appended to LOG and one
# line on stderr for the step ("collbench: WHAT ... ok"); when CMD fails, the
# line says so and the log's last lines and its path follow. Returns CMD's
# status.
cb_apt_step() {
	local log=$1 what=$2 rc=0
	shift 2
	printf '== %s\n' "$*" >>"$log"
	"$@" >>"$log" 2>&1 </dev/null || rc=$?
	if [ "$rc" = 0 ]; then
		echo "collbench: $what ... ok" >&2
		return 0
	fi
	echo "collbench: $what ... failed (exit $rc); the last lines of $log:" >&2
	tail -n 25 "$log" | sed 's/^/  | /' >&2
	return "$rc"
}

# cb_install_deps [PACKAGES]: installs what is missing of CB_DEB_PACKAGES and
# PACKAGES. apt-get's output goes to a log file (its path said first, kept
# after), one line per step on stderr. Returns 0 when nothing is missing or
# the install worked, else non-zero (said).
cb_install_deps() {
	local missing sudo="" log
	if ! command -v dpkg-query >/dev/null; then
		echo "collbench: not a Debian system; install: CMake >= 3.25, a C11 compiler, Open MPI," \
			"jansson, libcsv, cmocka, gnuplot, SQLite 3, OpenSSL libcrypto (CUDA and NCCL optional)" >&2
		return 0
	fi
	missing=$(cb_missing_packages "$@")
	[ -n "$missing" ] || return 0
	if [ "$(id -u)" != 0 ]; then
		if sudo -n true 2>/dev/null; then
			sudo="sudo -n"
		else
			echo "collbench: missing packages:$missing" >&2
			echo "collbench: install them with: sudo apt-get install -y$missing" >&2
			return 1
		fi
	fi
	log=$(mktemp "${TMPDIR:-/tmp}/collbench-apt.XXXXXX") ||
		{ echo "collbench: cannot create a log file for apt-get in ${TMPDIR:-/tmp}" >&2; return 1; }
	echo "collbench: installing$missing (apt-get's output: $log)" >&2
	# shellcheck disable=SC2086 # sudo: a command or nothing; missing: a list
	cb_apt_step "$log" "apt-get update" $sudo apt-get update || return
	# shellcheck disable=SC2086
	cb_apt_step "$log" "apt-get install$missing" $sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends $missing || return
	missing=$(cb_missing_packages "$@")
	[ -z "$missing" ] || { echo "collbench: still missing after apt-get:$missing (see $log)" >&2; return 1; }
}
