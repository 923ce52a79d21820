#!/usr/bin/env bash
# The two-host test bed: several "hosts" on this one machine for Open MPI
# (tests/beds/multihost/README.md).
#   bed.sh check      exit 0 when the bed can work here (root, unshare --uts,
#                     host names resolvable), else 77 with the reason on stdout
#   bed.sh setup      adds the bed's host names to /etc/hosts (idempotent)
#   bed.sh teardown   removes them again
# setup and teardown exit 77 (ctest's "skipped") when not root.
# The names cbnode1..cbnode4 resolve to 127.0.1.1..127.0.1.4: loopback
# addresses that are not this host's own, so mpirun starts a daemon for each
# through the agent instead of treating the name as itself.
set -euo pipefail
begin='# collbench multihost test bed: begin'
end='# collbench multihost test bed: end'
hosts_file=${CB_BED_HOSTS_FILE:-/etc/hosts}

names_resolve() {
	local n
	for n in cbnode1 cbnode2 cbnode3 cbnode4; do
		getent hosts "$n" | grep "^127\.0\.1\.${n#cbnode}[[:space:]]" >/dev/null || return 1
	done
}

case ${1:-} in
check)
	if [ "$(id -u)" != 0 ]; then
		echo "skipped: the multihost bed needs root (unshare --uts, /etc/hosts)"
		exit 77
	fi
	if ! command -v unshare >/dev/null || ! unshare --uts true 2>/dev/null; then
		echo "skipped: UTS namespaces are not permitted here (unshare --uts failed)"
		exit 77
	fi
	if ! names_resolve; then
		echo "skipped: cbnode1..cbnode4 do not resolve (run tests/beds/multihost/bed.sh setup)"
		exit 77
	fi
	;;
setup)
	# 77 (ctest: skipped) where the bed cannot be set up; its tests then skip too
	[ "$(id -u)" = 0 ] || { echo "skipped: setting up the bed needs root (it edits $hosts_file)"; exit 77; }
	names_resolve && exit 0
	# one writer at a time; the block is appended whole
	exec 9>>"$hosts_file"
	flock 9
	if ! grep -qF "$begin" "$hosts_file"; then
		printf '%s\n127.0.1.1 cbnode1\n127.0.1.2 cbnode2\n127.0.1.3 cbnode3\n127.0.1.4 cbnode4\n%s\n' \
			"$begin" "$end" >&9
	fi
	;;
teardown)
	[ "$(id -u)" = 0 ] || { echo "skipped: not root, nothing was set up"; exit 77; }
	grep -qF "$begin" "$hosts_file" || exit 0
	tmp=$(mktemp)
	awk -v b="$begin" -v e="$end" '$0 == b { skip = 1 } !skip { print } $0 == e { skip = 0 }' \
		"$hosts_file" >"$tmp"
	# /etc/hosts may be a bind mount (containers): rewrite it in place
	cat "$tmp" >"$hosts_file"
	rm -f "$tmp"
	;;
*)
	echo "bed.sh: usage: bed.sh check|setup|teardown" >&2
	exit 2
	;;
esac
