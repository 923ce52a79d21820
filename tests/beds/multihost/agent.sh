#!/bin/sh
# Open MPI launch agent of the two-host test bed
# (tests/beds/multihost/README.md): mpirun calls it as `agent.sh [options] HOST COMMAND...` where it would call
# ssh. It runs COMMAND on this machine in a new UTS namespace whose host name
# is HOST, so each "host" gets its own Open MPI daemon and Open MPI sees
# separate hosts: MPI_COMM_TYPE_SHARED splits per host, shared memory inside a
# host, TCP between hosts. Needs root (or CAP_SYS_ADMIN) for unshare --uts.
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
# ssh joins the remote command into one string for the remote shell: do the same
exec unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' agent.sh "$host" "$@"
