# shellcheck shell=bash
# lib.sh: sourced by sweep.sh, regress.sh, plot.sh, model.sh, plot_history.sh,
# bench.sh, test.sh, the job scripts (slurm/) and the developer's scripts
# (dev/).
#  - in lib_opts.sh, sourced first: cb_die (the suite's exit codes) and each
#    script's options from one table (parsing, checks, usage);
#  - output folders that two runs never share: a default folder is created
#    with mkdir, which is atomic (the first run gets NAME, the next NAME-2, ...);
#    an explicit one is claimed by creating a file in it with O_EXCL, and one
#    that already holds files is refused unless the caller overwrites;
#  - text for JSON and for plot titles under the rule of bench/common/cb_text.h: a
#    byte that is not part of valid UTF-8 becomes the four characters \xHH;
#  - how much of the CPUs other work took while a command ran (regress.sh's
#    contention warning, test.sh's report);
#  - adding a run folder to the history database (sweep.sh and regress.sh
#    --history);
#  - whether a path made from names (labels, run ids, output folders) can
#    exist at all, checked before any work (cb_path_fits).
#  - in lib_launch.sh, sourced at the end: how ranks are launched (mpirun,
#    or srun inside a Slurm allocation), on which hosts, the default run id,
#    and Open MPI's monitoring flags.
# Functions print their errors on stderr prefixed with $PROG and return 2.

# shellcheck source=scripts/lib_opts.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_opts.sh"

# cb_text STRING: STRING with each byte outside a valid UTF-8 sequence as \xHH
# (lower-case hex), everything else unchanged. (perl is in every Debian.)
cb_text() {
	perl -e '
		my $s = $ARGV[0];
		$s =~ s/([\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})|(.)/defined $1 ? $1 : sprintf("\\x%02x", ord $2)/gse;
		print $s' -- "$1"
}

# cb_gp_str STRING: a gnuplot single-quoted string of cb_text STRING (a quote
# is written twice).
cb_gp_str() {
	local s
	s=$(cb_text "$1")
	printf "'%s'" "${s//\'/\'\'}"
}

# cb_gp_path PATH: a gnuplot single-quoted string of PATH's own bytes (a quote
# written twice), for file names gnuplot opens (set output, data files, load):
# not cb_text's \xHH form, which names another file (a folder /tmp/caf\xe9
# that does not exist, "No such file or directory"); gnuplot passes the bytes
# of a single-quoted string to fopen untouched. Titles take cb_gp_str. Returns
# 2 (said) for a path with a line break, which a gnuplot command cannot hold.
cb_gp_path() {
	case $1 in *$'\n'* | *$'\r'*)
		echo "${PROG:-collbench}: $(cb_text "$1"): a path with a line break cannot be given to gnuplot" >&2
		return 2 ;;
	esac
	printf "'%s'" "${1//\'/\'\'}"
}

# cb_gnuplot DIR NAME OUTBASE ARGS: draws DIR/NAME.gp, with gpdir=DIR and the
# -e assignments ARGS, into OUTBASE.png and .svg, whole or not at all: gnuplot
# writes both under temporary names in OUTBASE's folder (outbase= that
# temporary base), each is checked complete (cb_figure_complete) and only then
# renamed to its final name; on any failure the temporary files are removed and
# a figure already at the final name is left as it was. Returns 1 (said as an
# error) when gnuplot fails or wrote either file empty, cut short or not at
# all (gnuplot does not always fail on a write error: a full disk). With
# CB_PLOT_GEOMETRY set (a file), appends to it one line per figure: OUTBASE's
# name, then gnuplot's GPVAL_TERM_XMIN XMAX YMIN YMAX XSIZE YSIZE of the SVG
# (the plot area and the canvas, in the terminal's units; the figures' test).
cb_gnuplot() {
	local dir=$1 name=$2 outbase=$3 args=$4 gd ob tb geo=() ext
	local tmpb
	tmpb=$(dirname -- "$outbase")/.$(basename -- "$outbase").tmp$$
	gd=$(cb_gp_path "$dir") && ob=$(cb_gp_path "$tmpb") || return 1
	if [[ -n "${CB_PLOT_GEOMETRY:-}" ]]; then
		tb=$(cb_gp_path "$CB_PLOT_GEOMETRY") || return 1
		geo=(-e "set print $tb append; print sprintf('%s %d %d %d %d %d %d', '$(basename -- "$outbase")',
			GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE,
			GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE); set print")
	fi
	if ! gnuplot -e "gpdir=$gd; outbase=$ob; $args" "$dir/$name.gp" "${geo[@]}"; then
		echo "${PROG:-collbench}: error: gnuplot failed on $name.gp (output $outbase)" >&2
		rm -f -- "$tmpb.png" "$tmpb.svg"
		return 1
	fi
	for ext in png svg; do
		cb_figure_complete "$tmpb.$ext" && continue
		echo "${PROG:-collbench}: error: gnuplot wrote no complete $outbase.$ext (a full disk?):" 			"nothing written under that name" >&2
		rm -f -- "$tmpb.png" "$tmpb.svg"
		return 1
	done
	if ! mv -f -- "$tmpb.png" "$outbase.png" || ! mv -f -- "$tmpb.svg" "$outbase.svg"; then
		echo "${PROG:-collbench}: error: cannot rename the figure to $outbase.png/.svg" >&2
		rm -f -- "$tmpb.png" "$tmpb.svg" "$outbase.png"
		return 1
	fi
}

# cb_figure_complete FILE: whether FILE, a figure gnuplot wrote, is whole:
# not empty; a .png ends with its IEND chunk (the PNG specification: the
# last 12 bytes are length 0, "IEND" and its CRC ae 42 60 82); an .svg ends
# with its closing </svg> tag (trailing white space allowed).
cb_figure_complete() {
	[ -s "$1" ] || return 1
	case $1 in
	*.png) [ "$(tail -c 12 -- "$1" | od -An -tx1 | tr -d ' \n')" = 0000000049454e44ae426082 ] ;;
	*.svg) tail -c 64 -- "$1" | tr -d ' \t\r\n' | grep '</svg>$' >/dev/null ;;
	*) return 0 ;;
	esac
}

# cb_write_whole FILE CMD...: runs CMD with its stdout into FILE, whole or not
# at all (a temporary file in FILE's folder, renamed when CMD and the write
# succeeded). Returns 1 (FILE untouched) otherwise.
cb_write_whole() {
	local f=$1 tmpf
	shift
	tmpf=$(dirname -- "$f")/.$(basename -- "$f").tmp$$
	if "$@" >"$tmpf" && mv -f -- "$tmpf" "$f"; then
		return 0
	fi
	rm -f -- "$tmpf"
	return 1
}

# cb_path_fits WHAT PATH [INSIDE]: whether PATH (a folder or file this run
# will make), and INSIDE in it (the longest name the caller makes there, if
# any; it may hold /), can exist: every component at most NAME_MAX bytes of
# the file system that would hold it (getconf NAME_MAX of its nearest
# existing folder; 255 where getconf cannot say) and the whole, made
# absolute, shorter than PATH_MAX (4096 where getconf cannot say). A name
# longer than that fails only where something is written there, after the
# work (a sweep, then cp), and not with the exit status of bad input: this
# is asked before. Returns 2 (said, naming WHAT: where the name came from)
# if not.
cb_path_fits() {
	local LC_ALL=C what=$1 path=$2 inside=${3:-} full dir max pmax rest c
	case $path in /*) full=$path ;; *) full=$PWD/$path ;; esac
	[ -z "$inside" ] || full=$full/$inside
	dir=$(dirname -- "$full")
	while [ ! -d "$dir" ]; do dir=$(dirname -- "$dir"); done
	max=$(getconf NAME_MAX "$dir" 2>/dev/null) || max=255
	pmax=$(getconf PATH_MAX "$dir" 2>/dev/null) || pmax=4096
	rest=$full
	while [ -n "$rest" ]; do
		c=${rest%%/*}
		rest=${rest#"$c"}
		rest=${rest#/}
		[ "${#c}" -le "$max" ] && continue
		echo "${PROG:-collbench}: $what: the file name '$(cb_text "${c:0:48}")...' would be ${#c}" \
			"bytes long; this file system allows $max (NAME_MAX in $dir): give a shorter one" \
			"(nothing was run)" >&2
		return 2
	done
	[ "${#full}" -lt "$pmax" ] && return 0
	echo "${PROG:-collbench}: $what: the path '$(cb_text "${full:0:48}")...' would be ${#full} bytes" \
		"long; this system allows $((pmax - 1)) (PATH_MAX): give a shorter one (nothing was run)" >&2
	return 2
}

# cb_new_dir PARENT NAME: creates PARENT/NAME, else PARENT/NAME-2, -3, ...
# (the first that mkdir creates: never a folder another run holds) and prints
# its path. Returns 2 (said) when none can be created, or when the name,
# with the largest suffix it may get, cannot exist (cb_path_fits).
cb_new_dir() {
	local parent=$1 name=$2 dir i=1
	cb_path_fits "a new folder in $(cb_text "$parent")" "$parent/$name-1000" || return 2
	mkdir -p -- "$parent" || { echo "$PROG: cannot create $parent" >&2; return 2; }
	dir=$parent/$name
	until mkdir -- "$dir" 2>/dev/null; do
		if [ ! -e "$dir" ] || [ $i -ge 1000 ]; then
			echo "$PROG: cannot create a folder in $parent (tried $dir)" >&2
			return 2
		fi
		i=$((i + 1))
		dir=$parent/$name-$i
	done
	printf '%s\n' "$dir"
}

# cb_claim_dir DIR CLAIM OVERWRITE [PATTERN...]: makes DIR this run's output
# folder: creates it (and its parents) or takes an existing empty one, then
# creates DIR/CLAIM exclusively (O_EXCL: of two runs that found DIR empty, one
# gets it). A DIR that holds files is refused unless OVERWRITE is 1; then the
# files matching PATTERNs (globs, the caller's own output names) are removed
# first, other files are left. Returns 2 (said) on refusal, and for a DIR
# whose name cannot exist (cb_path_fits), before anything is made.
cb_claim_dir() {
	local dir=$1 claim=$2 overwrite=$3 p
	shift 3
	cb_path_fits "the output folder" "$dir" "$claim" || return 2
	mkdir -p -- "$dir" 2>/dev/null || { echo "$PROG: cannot create the folder $dir" >&2; return 2; }
	if [ -n "$(ls -A -- "$dir")" ]; then
		if [ "$overwrite" != 1 ]; then
			echo "$PROG: $dir already holds files (another run's?): give a new folder, or" \
				"--overwrite to replace this tool's files there" >&2
			return 2
		fi
		for p in "$claim" "$@"; do
			# shellcheck disable=SC2086 # p is a glob of the caller's file names
			(cd -- "$dir" && rm -f -- $p) || return 2
		done
	fi
	if ! (set -C && : >"$dir/$claim") 2>/dev/null; then
		echo "$PROG: $dir was taken by another run at the same time: give another folder" >&2
		return 2
	fi
}

# cb_missing_levels DIR: how many of DIR's last components do not exist
# (0: DIR exists), that is how many folders making DIR creates; for
# cb_unclaim_dir.
cb_missing_levels() {
	local d=$1 n=0
	while [[ $d == */ && $d != / ]]; do d=${d%/}; done
	while [ -n "$d" ] && [ ! -e "$d" ] && [ ! -L "$d" ]; do
		n=$((n + 1))
		[[ $d == */* ]] || break
		d=${d%/*}
	done
	echo "$n"
}

# cb_unclaim_dir DIR CLAIM LEVELS: undoes cb_claim_dir when the run could not
# start: removes DIR/CLAIM, then DIR and the folders above it that making it
# created (LEVELS, cb_missing_levels before), each only while it is empty.
cb_unclaim_dir() {
	local d=$1 n=$3
	rm -f -- "$d/$2"
	while [ "$n" -gt 0 ] && rmdir -- "$d" 2>/dev/null; do
		n=$((n - 1))
		d=$(dirname -- "$d")
	done
}

# cb_write FILE CMD...: runs CMD (a command or a function) with its stdout
# into FILE (truncated). Returns 0, or 1 with cb_write_why set to "cannot
# write FILE: REASON" (REASON: what the failed write said, e.g. "No space
# left on device"; the shell's own "write error" message is not printed).
cb_write() {
	local f=$1 err
	shift
	cb_write_why=""
	if err=$({ "$@" >"$f"; } 2>&1); then
		[ -z "$err" ] || printf '%s\n' "$err" >&2 # what CMD said besides
		return 0
	fi
	err=${err##*$'\n'} err=${err##*: }
	# shellcheck disable=SC2034 # the caller reads it
	cb_write_why="cannot write $(cb_text "$f"): ${err:-write error}"
	return 1
}

# cb_busy_seconds: the CPU seconds the whole machine has spent busy (user,
# nice, system, irq, softirq, and steal: time the hypervisor gave to other
# guests), from /proc/stat; 0 where there is none.
cb_busy_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' \
		/proc/stat 2>/dev/null || echo 0
}

# cb_children_cpu FILE: sets cb_cpu to the CPU seconds (user + system) of this
# shell's finished children. Call it in this shell, never in a pipe or $(...):
# a subshell has no children of its own. FILE: a scratch file. Returns 1
# (cb_cpu 0) when FILE cannot be written.
cb_children_cpu() {
	times >"$1" 2>/dev/null || { cb_cpu=0; return 1; }
	# shellcheck disable=SC2034 # the caller reads it
	cb_cpu=$(tail -n 1 "$1" |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } print t }')
}

# cb_other_share BUSY0 BUSY1 OWN0 OWN1 WALL: the percent (0-100, rounded) of
# the CPUs (nproc) that other work used during WALL seconds: the machine's
# busy seconds (cb_busy_seconds) minus our own (cb_children_cpu), over WALL x
# CPUs.
cb_other_share() {
	awk -v c="$(nproc)" -v b0="$1" -v b1="$2" -v o0="$3" -v o1="$4" -v wall="$5" 'BEGIN {
		share = wall > 0 ? ((b1 - b0) - (o1 - o0)) / (wall * c) : 0
		printf "%.0f\n", (share > 0 ? 100 * share : 0) }'
}

# cb_history_usable BIN DB: before a run, whether its ingest into the history
# DB can work: collbench-history built, DB's folder there (created if not),
# and DB, when it exists, a collbench history this build can read. Returns 2
# (said) if not.
cb_history_usable() {
	local bin=$1 db=$2
	# SQLite keeps DB-journal (and DB-wal) beside it
	cb_path_fits "--history" "$db-journal" || return 2
	[ -x "$bin/collbench-history" ] ||
		{ echo "$PROG: --history: $bin/collbench-history not built (cmake --build build)" >&2; return 2; }
	mkdir -p -- "$(dirname -- "$db")" 2>/dev/null ||
		{ echo "$PROG: --history: cannot create the folder of $db" >&2; return 2; }
	if [ -e "$db" ] && ! "$bin/collbench-history" runs --db "$db" >/dev/null; then
		echo "$PROG: --history: $db cannot be used as the history (above)" >&2
		return 2
	fi
}

# cb_history_ingest BIN DB RUN_DIR: adds the run folder to the history DB
# (collbench-history ingest: one transaction, a run already there changes
# nothing). On failure the run folder stays as it is, and the message says
# how to add it later; returns 3.
cb_history_ingest() {
	local bin=$1 db=$2 dir=$3
	if "$bin/collbench-history" ingest --db "$db" "$dir" >&2; then
		echo "$PROG: history: $dir is in $db" >&2
		return 0
	fi
	echo "$PROG: error: adding the run to the history $db failed (above). The run folder $dir" \
		"is kept as it is; add it later with: $bin/collbench-history ingest --db $db $dir" >&2
	return 3
}

# cb_default_backend BIN: cuda when nvidia-smi shows a GPU and BIN/allreduce_perf
# has the cuda backend built, else host
cb_default_backend() {
	if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
		"$1/allreduce_perf" --help 2>/dev/null | grep 'backends built: .*cuda' >/dev/null; then
		echo cuda
	else
		echo host
	fi
}

# ---- stopping: a signal to sweep.sh or regress.sh ---------------------------
# What they run for long (a launch, a child sweep) runs as a process group of
# its own (cb_group), which a terminal's Ctrl-C does not reach: the script
# traps INT, TERM, HUP, and USR1 and USR2, the warning signals a scheduler
# sends before a time limit (sbatch --signal=B:USR1@N), whose default action
# would end the script alone and leave its launch running (cb_stop_on); it
# keeps the first in cb_stopped and sends SIGTERM to the running group (mpirun
# passes it on to the ranks, a child sweep.sh to its launch), waits for the
# group to end, then winds down itself (its run marked stopped) and exits
# 128 + the signal's number.
cb_stopped="" cb_group_pid=""
cb_stop() {
	[ -n "$cb_stopped" ] || cb_stopped=$1
	[ -z "$cb_group_pid" ] || kill -TERM -- "-$cb_group_pid" 2>/dev/null || true
}
cb_stop_on() {
	local s
	for s in INT TERM HUP USR1 USR2; do
		# shellcheck disable=SC2064 # s now
		trap "cb_stop $s" "$s"
	done
}
# cb_signum NAME: the number of signal NAME (HUP, INT, TERM, USR1, USR2)
cb_signum() {
	kill -l "$1"
}

# cb_forward CMD...: runs CMD in the background and waits for it, passing on
# the stop signals that reach this shell: TERM, HUP, USR1 and USR2 as
# themselves, INT as TERM (a background child of a script ignores INT). For
# the job scripts (slurm/*.sbatch): sbatch --signal=B:USR1@N and scancel
# --batch signal the batch shell alone, and bash runs a trap only after its
# foreground child has ended, so without this the sweep would never hear it.
# Returns CMD's status (128 + N when a signal N ended it).
cb_forward() {
	local pid rc s
	"$@" &
	pid=$!
	for s in TERM HUP USR1 USR2; do
		# shellcheck disable=SC2064 # pid and s now
		trap "kill -$s $pid 2>/dev/null || true" "$s"
	done
	# shellcheck disable=SC2064
	trap "kill -TERM $pid 2>/dev/null || true" INT
	while :; do
		rc=0
		wait "$pid" || rc=$?
		kill -0 "$pid" 2>/dev/null || break # else: a trapped signal ended the wait
	done
	trap - INT TERM HUP USR1 USR2
	return $rc
}

# cb_group CMD...: runs CMD (a command or a function; stdin /dev/null) as a
# process group of its own and waits until every process of the group has
# ended (after a stop, SIGKILL to what is left 60 s later). Returns CMD's
# status (greater than 128 when it was stopped).
cb_group() {
	local rc=0 pg i
	set -m
	"$@" </dev/null &
	cb_group_pid=$! pg=$!
	set +m
	[ -z "$cb_stopped" ] || kill -TERM -- "-$pg" 2>/dev/null || true
	while :; do
		rc=0
		wait "$pg" || rc=$?
		kill -0 "$pg" 2>/dev/null || break # else: a trapped signal ended the wait
	done
	for ((i = 0; i < 600; i++)); do
		pgrep -g "$pg" >/dev/null 2>&1 || break
		sleep 0.1
	done
	! pgrep -g "$pg" >/dev/null 2>&1 || kill -KILL -- "-$pg" 2>/dev/null || true
	cb_group_pid=""
	return $rc
}

# ---- launching ranks, hosts, Open MPI's monitoring: lib_launch.sh ----------
# shellcheck source=scripts/lib_launch.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_launch.sh"
