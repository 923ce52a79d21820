#!/usr/bin/env bash
# Open MPI's configuration as collbench sees it: what picks MPI_Allreduce's
# algorithm besides a forced one, and the settings of its parameter files.
#   library_config.sh BIN CASE
#   basic_priority   coll/basic ranked above coll/tuned (--mca
#                    coll_basic_priority 100): the mpi.ring and
#                    mpi.recursive_doubling rows are skipped with the reason,
#                    not timed as the algorithm they name (under Open MPI's
#                    monitoring, as --mpi-traffic runs it, where there is one)
#   rules_file       a user's rules file (coll_tuned_dynamic_rules_filename),
#                    which Open MPI 4.1 consults before a forced algorithm:
#                    the same
#   home_file        ~/.openmpi/mca-params.conf forcing an algorithm (HOME a
#                    fresh folder): recorded in the metadata, and
#                    collbench-compare refuses a run without it as it refuses
#                    the same settings from the environment
#   param_files_var  the same from a file that OMPI_MCA_mca_base_param_files
#                    names (against an empty one)
# Skipped (77) where the MPI is not Open MPI.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mpirun --version 2>&1 | grep "Open MPI" >/dev/null || { echo "not Open MPI"; exit 77; }

# launch NAME ARGS...: allreduce_perf --algo mpi... on 2 ranks at 1 KiB into
# $out/NAME.csv (and .meta.json); mpirun options before "--", if any.
launch() {
	local name=$1 pre=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		pre+=("$1")
		shift
	done
	shift
	timeout 120 bash -c 'cb_mpirun "$@"' _ "${pre[@]}" -np 2 "$bin/allreduce_perf" -b 1K -e 1K \
		-n 2 -w 1 -q --csv "$out/$name.csv" "$@" >"$out/$name.out" 2>&1 ||
		{ cat "$out/$name.out" >&2; fail "$name: the launch failed"; }
}
export -f cb_mpirun

# status ALGO: the status of ALGO's row in $out/f.csv
status() {
	awk -F, -v a="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a { print $c["status"] }' "$out/f.csv"
}

# skipped_because PATTERN: each forced row of $out/f.csv skipped, with PATTERN
skipped_because() {
	local a s
	for a in mpi.ring mpi.recursive_doubling; do
		s=$(status "$a")
		case $s in
		skipped:*"$1"*) ;;
		*) fail "$a: status '$s', expected skipped because '$1'" ;;
		esac
	done
}

# refused: collbench-compare refuses $out/base against $out/file, naming the
# forced algorithm's variable
refused() {
	local rc=0
	"$bin/collbench-compare" "$out/base.csv" "$out/file.csv" >"$out/cmp.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$out/cmp.out" >&2; fail "compare exit $rc, expected 2 (not comparable)"; }
	grep -q "library configurations differ at 2 ranks: OMPI_MCA_coll_tuned_allreduce_algorithm is unset in the baseline .* '1' in the current run" \
		"$out/cmp.out" || { cat "$out/cmp.out" >&2; fail "compare does not name the file's setting"; }
	grep -q '"OMPI_MCA_coll_tuned_allreduce_algorithm": "1"' "$out/file.meta.json" ||
		fail "the metadata does not record the file's setting"
}

mca_file() {
	printf '# tuning\ncoll_tuned_use_dynamic_rules = 1\n  coll_tuned_allreduce_algorithm = 1\n' >"$1"
}

export OMPI_MCA_coll_tuned_use_dynamic_rules=1 # what sweep.sh sets for mpi.*
case $case in
basic_priority)
	# under Open MPI's monitoring where there is one (--mpi-traffic's setting,
	# where coll/monitoring wraps coll/basic), which must not crash either
	if ompi_info 2>/dev/null | grep 'MCA pml: monitoring' >/dev/null; then
		export OMPI_MCA_pml_monitoring_enable=2 OMPI_MCA_pml_monitoring_enable_output=3 \
			OMPI_MCA_pml_monitoring_filename=$out/mon OMPI_MCA_osc=^monitoring
	fi
	launch f --mca coll_basic_priority 100 -- --algo mpi,mpi.ring,mpi.recursive_doubling
	skipped_because "coll/basic's priority 100 is not below coll/tuned's"
	[ "$(status mpi)" = ok ] || fail "the mpi row: '$(status mpi)', expected ok"
	;;
rules_file)
	# Open MPI's rules format: 1 collective, allreduce (2), 1 communicator
	# size (2 ranks), 1 message size (0 B up: basic_linear, no segments)
	printf '1\n2\n1\n2\n1\n0 1 0 0\n' >"$out/rules.txt"
	OMPI_MCA_coll_tuned_dynamic_rules_filename=$out/rules.txt \
		launch f -- --algo mpi.ring,mpi.recursive_doubling
	skipped_because "a rules file decides coll/tuned's allreduce before a forced algorithm"
	;;
home_file)
	launch base -- --algo mpi
	mkdir -p "$out/home/.openmpi"
	mca_file "$out/home/.openmpi/mca-params.conf"
	HOME=$out/home launch file -- --algo mpi
	refused
	;;
param_files_var)
	# the variable replaces the default list (the system-wide file too): the
	# baseline names an empty file the same way
	: >"$out/empty.conf"
	OMPI_MCA_mca_base_param_files=$out/empty.conf launch base -- --algo mpi
	mca_file "$out/tuning.conf"
	OMPI_MCA_mca_base_param_files=$out/tuning.conf launch file -- --algo mpi
	refused
	;;
esac
