#!/usr/bin/env bash
# sweep.sh: runs allreduce_perf for several rank counts into one run folder,
# results/<host>-<UTC timestamp>/, with summary.csv, ranks.csv and meta.json
# (plus each launch's own np<N>.* files and its metadata sidecar). Every run
# gets its own folder: the default one is created atomically (-2, -3, ... when
# another run took the name in the same second), an -o folder must be new or
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
  -n "2 4 8"     rank counts to run            [$nps]
  -b SIZE        smallest message per rank     [$minb]
  -e SIZE        largest message per rank      [$maxb]
  -f N           size step factor              [$factor]
  -a LIST        algorithms (default: all on the backend)
  -B NAME        backend: host or cuda         [$backend]
  -R, --repeat K timed repeats per row (noise) [$repeat]
  -i N           timed iterations per row      [$iters]
  -w N           warm-up iterations per row    [$warmup]
  -c 0|1         check results                 [$check]
  -o DIR         run folder (default: results/<host>-<UTC timestamp>, with -2,
                 -3, ... when taken); an existing one must be empty
  --overwrite    use an -o folder that holds an earlier run: its run files
                 (np*.*, summary.csv, ranks.csv, meta.json) are removed first
  --machine LABEL  name this machine in the metadata (sets CB_MACHINE; default:
                 \$CB_MACHINE, else the host name); baselines are matched on it
  --default-malloc  keep glibc's default allocator settings (see below)
Allocator: unless --default-malloc, ranks run with MALLOC_MMAP_MAX_=0 and a
large MALLOC_TRIM_THRESHOLD_, so that libraries that allocate per call
(MPI_Allreduce's temporaries) reuse heap memory instead of page-faulting a
fresh mmap on every call; recorded in meta.json. Environment: CB_BIN (binaries),
CB_MACHINE (the machine label), CB_RESULTS (root of the default folder: results/). Text that is not UTF-8 (paths, names) is written
to meta.json with each such byte as \xHH.
EOF
}

need() { [ $# -ge 2 ] || { echo "sweep.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
	case $1 in
	-n|-b|-e|-f|-a|-B|-R|-i|-w|-c|-o|--machine) need "$@" ;;
	esac
	case $1 in
	-n) nps=$2; shift 2 ;;
	-b) minb=$2; shift 2 ;;
	-e) maxb=$2; shift 2 ;;
	-f) factor=$2; shift 2 ;;
	-a) algos=$2; shift 2 ;;
	-B) backend=$2; shift 2 ;;
	-R | --repeat) repeat=$2; shift 2 ;;
	-i) iters=$2; shift 2 ;;
	-w) warmup=$2; shift 2 ;;
	-c) check=$2; shift 2 ;;
	-o) outdir=$2; shift 2 ;;
	--overwrite) overwrite=1; shift ;;
	--machine) export CB_MACHINE=$2; shift 2 ;;
	--default-malloc) default_malloc=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) echo "sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

[ -x "$bin/allreduce_perf" ] || { echo "sweep.sh: $bin/allreduce_perf not built (run scripts/bench.sh or cmake)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "sweep.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 2; }
for np in $nps; do
	case $np in ''|*[!0-9]*) echo "sweep.sh: -n: '$np' is not a rank count" >&2; exit 2 ;; esac
	[ "$((10#$np))" -ge 1 ] && [ "$((10#$np))" -le 64 ] || { echo "sweep.sh: -n: $np is outside 1..64" >&2; exit 2; }
done
# canonical, ascending, each once (02 is 2)
nps=$(for np in $nps; do echo $((10#$np)); done | sort -nu | tr '\n' ' ')
[ -n "${nps// /}" ] || { echo "sweep.sh: -n: no rank count given" >&2; exit 2; }

case ${CB_MACHINE-unset} in
unset) ;;
'' | *[!A-Za-z0-9_.-]*) echo "sweep.sh: --machine/CB_MACHINE: '${CB_MACHINE}' is not a label ([A-Za-z0-9_.-])" >&2; exit 2 ;;
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
