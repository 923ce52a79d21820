# shellcheck shell=bash
# deps.sh: sourced by bench.sh and test.sh. cb_install_deps installs what
# collbench needs on Debian/Ubuntu with apt-get when run as root (or with
# passwordless sudo), else lists what to install and fails.
CB_DEB_PACKAGES="cmake make gcc pkg-config libopenmpi-dev openmpi-bin libjansson-dev libcsv-dev libcmocka-dev gnuplot-nox"
# test.sh only: ShellCheck for the scripts' lint test (tests/lint.sh); with
# --full also clang's libFuzzer for the reader's fuzz test (tests/fuzz.sh)
# shellcheck disable=SC2034 # used by test.sh, which sources this file
CB_DEB_TEST_PACKAGES="shellcheck" CB_DEB_FULL_PACKAGES="clang-14 libclang-rt-14-dev"

cb_missing_packages() {
	local p missing=""
	for p in $CB_DEB_PACKAGES "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	echo "$missing"
}

cb_install_deps() {
	local missing sudo=""
	if ! command -v dpkg-query >/dev/null; then
		echo "collbench: not a Debian system; install: CMake >= 3.25, a C11 compiler, Open MPI," \
			"jansson, libcsv, cmocka, gnuplot (CUDA and NCCL optional)" >&2
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
	echo "collbench: installing$missing" >&2
	$sudo apt-get update -qq >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2
}
