#!/usr/bin/env bash
# sweep.sh: runs allreduce_perf for several rank counts into one run folder,
# results/<host>-<UTC timestamp>/, with summary.csv, ranks.csv and meta.json
# (plus each launch's own np<N>.* files and its metadata sidecar). Every run
# gets its own folder: the default one is created atomically (-2, -3, ... when
# another run took the name in the same second), an --out folder must be new or
# empty (or --overwrite), and it is claimed before anything is written.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CB_BIN:-$root/build/bin}
PROG=sweep.sh
. "$root/scripts/lib.sh"
nps="2 4 8"
minb=8 maxb=64M factor=2 algos="" backend=host repeat=1 iters=20 warmup=5 check=1
outdir="" extra=() overwrite=0
default_malloc=0

usage() {
	cat <<EOF
usage: scripts/sweep.sh [options] [-- allreduce_perf options]
A letter means what it means to allreduce_perf (nccl-tests' letters); every
option has a long name (--name VALUE or --name=VALUE).
      --ranks LIST        rank counts, spaces or commas ("2 4 8", 2,4,8) [$nps]
  -b, --minbytes SIZE     smallest message per rank      [$minb]
  -e, --maxbytes SIZE     largest message per rank       [$maxb]
  -f, --stepfactor N      size step factor               [$factor]
  -a, --algo LIST         algorithms (default: all on the backend)
  -B, --backend NAME      backend: host or cuda          [$backend]
  -R, --repeat K          timed repeats per row (noise)  [$repeat]
      --iters N           timed iterations per row       [$iters]
  -w, --warmup_iters N    warm-up iterations per row     [$warmup]
  -c, --check 0|1         check results                  [$check]
      --out DIR           run folder (default: results/<host>-<UTC timestamp>, with
                          -2, -3, ... when taken); an existing one must be empty
      --overwrite         use an --out folder that holds an earlier run: its run files
                          (np*.*, summary.csv, ranks.csv, meta.json) are removed first
      --machine LABEL     name this machine in the metadata (sets CB_MACHINE; default:
                          \$CB_MACHINE, else the host name); baselines are matched on it
      --default-malloc    keep glibc's default allocator settings (see below)
  -h, --help              this help
Deprecated, still accepted with a note on stderr: -n LIST (use --ranks), -i N
(use --iters), -o DIR (use --out); to allreduce_perf -n is the iteration
count, -i the size step and -o the reduction op.
Allocator: unless --default-malloc, ranks run with MALLOC_MMAP_MAX_=0 and a
large MALLOC_TRIM_THRESHOLD_, so that libraries that allocate per call
(MPI_Allreduce's temporaries) reuse heap memory instead of page-faulting a
fresh mmap on every call; recorded in meta.json. Environment: CB_BIN (binaries),
CB_MACHINE (the machine label), CB_RESULTS (root of the default folder: results/). Text that is not UTF-8 (paths, names) is written
to meta.json with each such byte as \xHH.
EOF
}

die() { echo "sweep.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	# --name=VALUE or --name VALUE; letters (old ones with a note) to long names
	opt=$1 inline=0 val=${2-} take=2
	case $opt in --*=*) val=${opt#*=} opt=${opt%%=*} inline=1 take=1 ;; esac
	case $opt in -n | -i | -o) cb_sweep_deprecated "$opt" ;; esac
	opt=$(cb_sweep_long "$opt")
	case $opt in
	--ranks | --minbytes | --maxbytes | --stepfactor | --algo | --backend | --repeat | --iters | \
		--warmup_iters | --check | --out | --machine)
		[ $inline = 1 ] || [ $# -ge 2 ] || die "$opt needs a value (see --help)" ;;
	--overwrite | --default-malloc | --help)
		[ $inline = 0 ] || die "$opt takes no value"
		take=1 ;;
	esac
	case $opt in
	--ranks) nps=${val//,/ } ;;
	--minbytes) minb=$val ;;
	--maxbytes) maxb=$val ;;
	--stepfactor) factor=$val ;;
	--algo) algos=$val ;;
	--backend) backend=$val ;;
	--repeat) repeat=$val ;;
	--iters) iters=$val ;;
	--warmup_iters) warmup=$val ;;
	--check) check=$val ;;
	--out) outdir=$val ;;
	--machine) export CB_MACHINE=$val ;;
	--overwrite) overwrite=1 ;;
	--default-malloc) default_malloc=1 ;;
	--help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift $take
done

[ -x "$bin/allreduce_perf" ] || die "$bin/allreduce_perf not built (run scripts/bench.sh or cmake)"
command -v mpirun >/dev/null || die "mpirun not found (apt-get install openmpi-bin)"
for np in $nps; do
	case $np in '' | *[!0-9]*) die "--ranks: '$np' is not a rank count" ;; esac
	[ "$((10#$np))" -ge 1 ] && [ "$((10#$np))" -le 64 ] || die "--ranks: $np is outside 1..64"
done
# canonical, ascending, each once (02 is 2)
nps=$(for np in $nps; do echo $((10#$np)); done | sort -nu | tr '\n' ' ')
[ -n "${nps// /}" ] || die "--ranks: no rank count given"

case ${CB_MACHINE-unset} in
unset) ;;
'' | *[!A-Za-z0-9_.-]*) die "--machine/CB_MACHINE: '${CB_MACHINE}' is not a label ([A-Za-z0-9_.-])" ;;
esac

host=$(hostname -s 2>/dev/null || hostname)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
machine=${CB_MACHINE:-$host}
# the run folder, claimed (meta.json created exclusively) before any launch
if [ -z "$outdir" ]; then
	outdir=$(cb_new_dir "${CB_RESULTS:-$root/results}" "$host-$stamp") || exit 2
fi
cb_claim_dir "$outdir" meta.json "$overwrite" 'np[0-9]*.*' summary.csv ranks.csv '*.tmp' || exit 2
outdir=$(cd "$outdir" && pwd)
run_id=$(basename "$outdir")
printf '{\n  "schema": "collbench-run-1",\n  "run_id": %s,\n  "status": "running"\n}\n' \
	"$(cb_json_str "$run_id")" >"$outdir/meta.json" ||
	{ echo "sweep.sh: cannot write $outdir/meta.json" >&2; exit 2; }

launcher=(mpirun)
as_root=false
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	as_root=true
fi
if [ "$default_malloc" = 0 ]; then
	export MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184
	launcher+=(-x MALLOC_MMAP_MAX_ -x MALLOC_TRIM_THRESHOLD_)
fi
[ -z "${CB_MACHINE:-}" ] || launcher+=(-x CB_MACHINE)
cpus=$(nproc)
# allreduce_perf's options (its letters; meta.json's "sweep" records them)
args=(-b "$minb" -e "$maxb" -f "$factor" -n "$iters" -w "$warmup" -c "$check" -R "$repeat" -B "$backend")
[ -z "$algos" ] || args+=(-a "$algos")

oversub_list=() status=0
for np in $nps; do
	flags=()
	if [ "$np" -gt "$cpus" ]; then
		flags+=(--oversubscribe)
		oversub_list+=("$np")
	fi
	echo "== $np ranks${flags[*]:+ (oversubscribed: $np ranks on $cpus CPUs)}" >&2
	set +e
	"${launcher[@]}" "${flags[@]}" -np "$np" "$bin/allreduce_perf" "${args[@]}" "${extra[@]}" \
		--csv "$outdir/np$np.csv" --rank-csv "$outdir/np$np.ranks.csv" --json "$outdir/np$np.jsonl" \
		--meta "$outdir/np$np.meta.json" | tee "$outdir/np$np.txt"
	launch=${PIPESTATUS[0]} copy=${PIPESTATUS[1]}
	set -e
	if [ "$launch" != 0 ]; then
		echo "sweep.sh: the $np-rank launch failed (exit $launch; rows written so far are kept)" >&2
		status=1
	fi
	if [ "$copy" != 0 ]; then # tee said which of the two (np$np.txt or stdout)
		echo "sweep.sh: the $np-rank table could not be written to $outdir/np$np.txt or stdout" >&2
		status=1
	fi
done

# merged files: one header, every launch's rows; every write checked
merge() {
	local pattern=$1 dest=$2 first=1
	: >"$dest.tmp" || return 1
	for np in $nps; do
		f="$outdir/np$np.$pattern"
		[ -s "$f" ] || continue
		if [ $first = 1 ]; then
			cat "$f" >>"$dest.tmp" || return 1
			first=0
		else
			tail -n +2 "$f" >>"$dest.tmp" || return 1
		fi
	done
	mv "$dest.tmp" "$dest"
}
merge csv "$outdir/summary.csv" || { echo "sweep.sh: cannot write $outdir/summary.csv" >&2; exit 1; }
merge ranks.csv "$outdir/ranks.csv" || { echo "sweep.sh: cannot write $outdir/ranks.csv" >&2; exit 1; }

json_list() { local IFS=,; echo "[$*]"; }
json_str() { cb_json_str "$1"; }
cat >"$outdir/meta.json.tmp" <<EOF || { echo "sweep.sh: cannot write $outdir/meta.json" >&2; exit 1; }
{
  "schema": "collbench-run-1",
  "run_id": $(json_str "$run_id"),
  "host": $(json_str "$host"),
  "machine": $(json_str "$machine"),
  "created_utc": "$stamp",
  "backend": $(json_str "$backend"),
  "rank_counts": $(json_list $nps),
  "cpus_online": $cpus,
  "oversubscribed_rank_counts": $(json_list "${oversub_list[@]}"),
  "run_as_root": $as_root,
  "malloc": "$([ "$default_malloc" = 0 ] && echo "MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184" || echo "glibc defaults")",
  "sweep": $(json_str "-b $minb -e $maxb -f $factor -n $iters -w $warmup -c $check -R $repeat${algos:+ -a $algos}"),
  "status": "$([ $status = 0 ] && echo complete || echo incomplete)",
  "launches": "np<N>.meta.json (one per rank count: versions, command line, timing method)"
}
EOF
mv "$outdir/meta.json.tmp" "$outdir/meta.json" || { echo "sweep.sh: cannot write $outdir/meta.json" >&2; exit 1; }
echo "sweep.sh: results in $outdir" >&2
exit $status
