# library.awk: collbench-model check --library --format csv (a run's library_choice.csv) in
# the form model_choice.awk reads, for the figure library_choice: "fastest" is the forced
# algorithm the default mpi row ran by its traffic and time (nearest_in_time), "model_choice"
# what Open MPI 4.1's decision table names, "agree" whether that is a traffic match.
# Variables: prog (name in messages), file (the path, for messages).

BEGIN { FS = "\n" }
NR == 1 {
	if (!model_csv_header($0, "backend nranks bytes dtype op in_place nearest_in_time ompi41_table agree", "check --library's table")) { bad = 1; exit 1 }
	print "backend,nranks,bytes,dtype,op,in_place,fastest,model_choice,agree,note"
	next
}
{
	csv_split($0, f)
	printf "%s,%s,%s,%s,%s,%s,mpi.%s,mpi.%s,%s,\n", f[c["backend"]], f[c["nranks"]], f[c["bytes"]],
	       f[c["dtype"]], f[c["op"]], f[c["in_place"]], f[c["nearest_in_time"]],
	       f[c["ompi41_table"]], f[c["agree"]]
}
END { if (bad) exit 1 }
