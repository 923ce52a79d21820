# shellcheck shell=bash
# lib_sweep_opts.sh: sweep.sh's option table (lib_opts.sh's form), sourced by
# sweep.sh (its parser, checks and usage), regress.sh (which passes sweep
# options on and reads them from a baseline's regress.conf) and
# slurm/sweep.sbatch (which reads the rank counts, backend and run folder
# from them). A letter means what it means to allreduce_perf (-b -e -f -B -w
# -c), except -a and -R: sweep.sh's own short names of --algo and --repeat,
# which allreduce_perf spells long only (its -a and -R are nccl-tests'
# --average and --local_register); the values allreduce_perf takes are checked by allreduce_perf's
# own table (kind pass: sweep.sh runs allreduce_perf --check-args before
# anything else). The deprecated -n, -i and -o of sweep.sh 0.1 meant other
# things than allreduce_perf's -n, -i and -o. Reads root (the checkout: the
# default history database) and CB_RESULTS.

# cb_sweep_opts: declares sweep.sh's table (cb_opts_new and one cb_opt a line)
# shellcheck disable=SC2016 # help text that names $CB_MACHINE
cb_sweep_opts() {
	cb_opts_new none "usage: scripts/sweep.sh [options] [-- allreduce_perf options]"
	cb_opts_text head <<-'EOF'
		A letter means what it means to allreduce_perf (nccl-tests' letters), but
		-a and -R: sweep.sh's short names of --algo and --repeat, passed on as
		those; every option has a long name (--name VALUE or --name=VALUE).
	EOF
	#      long           letter value kind     variable    default
	cb_opt ranks          - LIST   ints:1:64 nps            "2 4 8" \
		'rank counts, spaces or commas ("2 4 8", 2,4,8)'
	cb_opt minbytes       b SIZE   pass     minb           8     "smallest message per rank"
	cb_opt maxbytes       e SIZE   pass     maxb           64M   "largest message per rank"
	cb_opt stepfactor     f N      pass     factor         2     "size step factor"
	cb_opt algo           a LIST   pass     algos          ''    "algorithms (default: all on the backend)"
	cb_opt coll           - LIST   text     colls          allreduce \
		"collectives, a launch of each per rank count: allreduce," \
		"reduce_scatter, ... (allreduce_perf --help lists them; -a names" \
		"algorithms of each)"
	cb_opt backend        B NAME   pass     backend        host  "backend: host or cuda"
	cb_opt repeat         R K      pass     repeat         1     "timed repeats per row (noise)"
	cb_opt iters          - N      pass     iters          20    "timed iterations per row"
	cb_opt warmup_iters   w N      pass     warmup         5     "warm-up iterations per row"
	cb_opt check          c '0|1'  pass     check          1     "check results"
	cb_opt inplace        - '0|1|both' pass inplace    0 \
		"in-place mode: 0 out of place, 1 in place, both (each row" \
		"out of place then in place: twice the time; allreduce_perf's default)"
	cb_opt out            - DIR    path     outdir         '' \
		"run folder (default: results/<host>-<UTC timestamp>, with" \
		"-2, -3, ... when taken); an existing one must be empty"
	cb_opt overwrite      - -      flag     overwrite      0 \
		"use an --out folder that holds an earlier run: its run files" \
		"(np*.*, summary.csv, ranks.csv, meta.json, mpi_traffic*, library_choice.*) are" \
		"removed first"
	cb_opt machine        - LABEL  text     CB_MACHINE     - \
		"name this machine in the metadata (sets CB_MACHINE; default:" \
		'$CB_MACHINE, else the host name); baselines are matched on it'
	cb_opt default-malloc - -      flag     default_malloc 0 \
		"keep glibc's default allocator settings (see below)"
	cb_opt history        - '[DB]' path     history        "${CB_RESULTS:-$root/results}/history.sqlite" \
		"at the end, add the run to the history database DB" \
		"(collbench-history ingest; default: results/history.sqlite)"
	cb_opt hosts          - LIST   text     hosts          '' \
		"run across hosts (outside Slurm): name[:slots],... as mpirun's" \
		"--host takes it; each rank count spread evenly over them"
	cb_opt hostfile       - FILE   text     hostfile       '' \
		'the same from a hostfile: "name slots=N" (Open MPI) or' \
		'"name:N" (MPICH) lines, # comments; CRLF line ends are fine'
	cb_opt mpi-traffic    - -      flag     mpi_traffic    0 \
		"measure the mpi rows' tx/rx with Open MPI's monitoring" \
		"(2 more launches per rank count and size; see below)"
	cb_opt_old n ranks "rank counts; to allreduce_perf -n is the iteration count"
	cb_opt_old i iters "iterations; to allreduce_perf -i is the size step"
	cb_opt_old o out "run folder; to allreduce_perf -o is the reduction op"
	cb_opts_unknown_hint cb_sweep_perf_hint
}

# cb_sweep_perf_hint W: when the unknown option W (-X, --name, --name=V) is
# one of allreduce_perf's (its --help lists it; CB_BIN's, else the checkout's
# build), where it goes: "--plan is allreduce_perf's: give it after --, e.g.
# scripts/sweep.sh ... -- --plan FILE"; else nothing
cb_sweep_perf_hint() {
	local w=${1%%=*} perf=${CB_BIN:-$root/build/bin}/allreduce_perf use
	case $w in --[a-z]*[a-z0-9] | -[A-Za-z]) ;; *) return 0 ;; esac
	case $w in *[!A-Za-z0-9-]*) return 0 ;; esac
	[ -x "$perf" ] || return 0
	# its lines: "  -X, --name ARG  text" or "      --name ARG  text"
	use=$("$perf" --help 2>/dev/null | awk -v w="$w" '/^  +-/ {
		i = ($1 == w "," || $1 == w) ? 1 : ($1 ~ /^-.,$/ && $2 == w) ? 2 : 0
		if (!i) next
		a = (i == 1 && $1 ~ /,$/) ? $3 : $(i + 1)
		print w (a ~ /^[A-Z][A-Z|]*$/ ? " " a : ""); exit }')
	[ -n "$use" ] || return 0
	echo "$w is allreduce_perf's: give it after --, e.g. scripts/sweep.sh ... -- $use"
}

# cb_sweep_long WORD: sweep.sh's long name for WORD by its table (-b:
# --minbytes; the deprecated -n, -i, -o: --ranks, --iters, --out), else WORD.
# The table is read in a subshell: the caller's own table stays.
cb_sweep_long() { (cb_sweep_opts && cb_opts_long "$1"); }

# cb_sweep_deprecated WORD: when WORD is one of sweep.sh's deprecated
# letters, its note on stderr ("PROG: note: -n (...) is deprecated: use
# --ranks")
cb_sweep_deprecated() { (cb_sweep_opts && cb_opts_old_note "$1"); }
