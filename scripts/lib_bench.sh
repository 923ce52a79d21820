# shellcheck shell=bash
# lib_bench.sh: sourced by bench.sh (after lib.sh): what its summary says
# besides where the files went, so that a new user can tell a good run from
# a bad one: the plan files' algorithm names (their rows' algo), the load the
# run shared the CPUs with, what the model's "far off" count means and why
# the scale-out figures are of a DGX H100. Each prints on stdout, its
# warnings prefixed with $PROG. sweep.sh sources it too, for cb_bench_load.

# the share of the CPUs other work may use before a run is called contended:
# regress.sh's threshold (docs/regression.md)
CB_BENCH_LOAD_LIMIT=10

# cb_bench_plan_names ARGS...: for each --plan FILE (or --plan=FILE) among
# ARGS (bench.sh's, those after -- included), the line "plan file NAME: its
# rows are named ALGO (the name -a, --algo and collbench-compare --algo
# take; a plan for N ranks: --ranks N)": a plan file's rows are named by its
# JSON "name", not by its file name (ring3.json holds ring3_file); they run
# beside -a's algorithms, which need not name them. A file
# that cannot be read or has no name is left to allreduce_perf, which says
# why; returns 0.
cb_bench_plan_names() {
	local a next=0 f name ranks
	for a in "$@"; do
		f=""
		if [ $next = 1 ]; then
			f=$a
		else
			case $a in --plan=*) f=${a#--plan=} ;; esac
		fi
		next=0
		[ "$a" != --plan ] || next=1
		[ -n "$f" ] && [ -f "$f" ] || continue
		# NAME <TAB> RANKS, from the JSON (perl's own JSON::PP)
		name=$(perl -MJSON::PP -e '
			local $/; open(my $h, "<", $ARGV[0]) or exit 1;
			my $j = eval { JSON::PP->new->decode(<$h>) } or exit 1;
			exit 1 unless ref $j eq "HASH" && defined $j->{name} && !ref $j->{name};
			print $j->{name}, "\t", (defined $j->{ranks} && !ref $j->{ranks} ? $j->{ranks} : "")' \
			"$f" 2>/dev/null) || continue
		ranks=${name#*$'\t'} name=$(cb_text "${name%%$'\t'*}")
		[ -n "$name" ] || continue
		case $ranks in '' | *[!0-9]*) ranks="" ;; *) ranks="; a plan for $ranks ranks: --ranks $ranks" ;; esac
		printf 'plan file %s: its rows are named %s (the name -a, --algo and collbench-compare --algo take%s)\n' \
			"$(cb_text "$(basename -- "$f")")" "$name" "$ranks"

	done
}

# cb_bench_load RUN_DIR: a warning, with the figure, when other work used
# more than CB_BENCH_LOAD_LIMIT percent of the CPUs while the run ran (its
# meta.json's other_cpu_percent, which sweep.sh records); else the figure
# alone. Nothing for a run without it (srun, an older sweep.sh).
cb_bench_load() {
	local share
	share=$(sed -n 's/^  "other_cpu_percent": \([0-9][0-9]*\),\{0,1\}$/\1/p' "$1/meta.json" 2>/dev/null |
		head -n 1)
	[ -n "$share" ] || return 0
	if [ "$share" -gt "$CB_BENCH_LOAD_LIMIT" ]; then
		printf '%s\n' "load:    WARNING: other work used $share% of the $(nproc) CPUs while the run ran" \
			"         (meta.json's other_cpu_percent; above $CB_BENCH_LOAD_LIMIT% a run is contended): its times" \
			"         measure that contention too (one busy process beside 2 ranks here halves every" \
			"         bandwidth), and more model rows are far off. Run again on a quiet machine for" \
			"         numbers to keep or compare."
	else
		echo "load:    other work used $share% of the CPUs while the run ran (quiet enough)"
	fi
}

# cb_bench_model_notes: what the model line's figures mean: "far off" and
# the scale-out figures' topology (scripts/model.sh's default, --topo
# dgx-h100), which are predictions, not this machine's measurements.
cb_bench_model_notes() {
	cat <<'EOF'
         "far off": rows the model misses by more than 25% and outside their repeat band
         (collbench-model check, docs/model.md). Not a failure: nothing here gates on it.
         Expect many on a small or shared machine: in results/reference (the reference
         2-CPU VM's run of 5 collectives, --repeat 3; not a bench.sh run), 221 of its 528 rows
         with a CPU per rank and most oversubscribed rows (more ranks than CPUs: time
         slicing) were far off; other work on the CPUs adds more. Few, on a quiet machine
         with a CPU per rank, means the fit describes it.
         model_time_vs_n, model_host_load, model_crossover: the model's predictions for a
         DGX H100 cluster (scripts/model.sh's default topology, --topo dgx-h100), to show
         how ps and the ring scale to thousands of ranks; they are not measurements of
         this machine (collbench-model predict --topo for another).
EOF
}
