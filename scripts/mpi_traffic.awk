# mpi_traffic.awk: per-rank traffic of one allreduce from Open MPI's monitoring
# output (the pml "monitoring" component: --mca pml_monitoring_enable 2
# --mca pml_monitoring_enable_output 1), the one place that reads it.
#   awk -v np=N -v calls=C -f mpi_traffic.awk ZERO SIZED
# ZERO, SIZED: everything two launches printed (stdout and stderr: mpirun
# forwards the lines, which each rank prints at MPI_Finalize), the same
# program with the same settings, SIZED at S bytes and ZERO at 0 bytes. The
# lines read are the per-peer totals
#   E <from> <to> <bytes> bytes <count> msgs sent ...   (the program's point-to-point)
#   I <from> <to> <bytes> bytes <count> msgs sent ...   (messages inside collectives)
# with <from>/<to> ranks of MPI_COMM_WORLD; everything else is ignored. What
# moves in both launches (set-up, barriers, gathers of results) cancels:
# (SIZED - ZERO) / C is what C allreduce calls of S bytes moved.
# Prints one line per rank 0..N-1: "rank tx_bytes rx_bytes" (tx: bytes the
# rank sent to all peers, rx: bytes all peers sent to it, per call, rounded to
# a byte). Exit 1 with the reason on stderr when SIZED has no monitoring
# lines (monitoring absent), a difference is negative (the launches were not
# alike), or np/calls are not positive.
BEGIN {
	if (np + 0 < 1 || calls + 0 < 1) {
		print "mpi_traffic.awk: np and calls must be positive" > "/dev/stderr"
		bad = 1
		exit 1
	}
}
/^[EI][ \t]+[0-9]+[ \t]+[0-9]+[ \t]+[0-9]+ bytes/ {
	sign = FILENAME == ARGV[1] ? -1 : 1
	if (sign > 0)
		seen++
	sent[$2 + 0, $3 + 0] += sign * $4
}
END {
	if (bad)
		exit 1
	if (!seen) {
		print "mpi_traffic.awk: no monitoring lines in " ARGV[2] \
			" (Open MPI's pml monitoring not active?)" > "/dev/stderr"
		exit 1
	}
	for (k in sent) {
		split(k, p, SUBSEP)
		if (sent[k] < 0) {
			printf "mpi_traffic.awk: rank %d sent %d bytes fewer to rank %d at S than at 0 bytes\n", \
				p[1], -sent[k], p[2] > "/dev/stderr"
			exit 1
		}
		if (p[1] >= np || p[2] >= np) {
			printf "mpi_traffic.awk: rank %d or %d outside 0..%d\n", p[1], p[2], np - 1 > "/dev/stderr"
			exit 1
		}
		tx[p[1]] += sent[k]
		rx[p[2]] += sent[k]
	}
	for (r = 0; r < np; r++)
		printf "%d %.0f %.0f\n", r, tx[r] / calls, rx[r] / calls
}
