#!/bin/sh
# Open MPI launch agent of the two-host test bed
# (tests/beds/multihost/README.md): mpirun calls it as `agent.sh [options] HOST COMMAND...` where it would call
# ssh. It runs COMMAND on this machine in a new UTS namespace whose host name
# is HOST, so each "host" gets its own Open MPI daemon and Open MPI sees
# separate hosts: MPI_COMM_TYPE_SHARED splits per host, shared memory inside a
# host, TCP between hosts. Needs root (or CAP_SYS_ADMIN) for unshare --uts.
# Each host gets CPUs of its own as far as the machine has them: host cbnodeK
# runs on CPU (K - 1) mod the CPUs online (taskset), as separate machines
# would. mpirun must not bind (--bind-to none): each daemon takes the whole
# machine for its own, so binding puts every host's first rank on core 0,
# whatever taskset allowed (the two ranks of a 1+1 launch then share one CPU).
while [ $# -gt 0 ]; do
	case $1 in
	-*) shift ;; # ssh-style options (-x, -o X) mean nothing here
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "agent.sh: usage: agent.sh [options] HOST COMMAND..." >&2
	exit 2
fi
host=$1
shift
pin=
case $host in
*[0-9]) k=$(printf '%s\n' "$host" | sed 's/.*[^0-9]//') &&
	pin="taskset -c $(((k - 1) % $(nproc --all)))" ;;
esac
# ssh joins the remote command into one string for the remote shell: do the same
# shellcheck disable=SC2086 # pin: the command's words
exec $pin unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' agent.sh "$host" "$@"
