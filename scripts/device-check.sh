#!/usr/bin/env bash
# device-check.sh: everything a lent GPU box must run, in one call (< 8 min):
# Open MPI from the carried kit, NCCL found on the box, build for sm_90, unit
# and GPU integration tests, the device references (D2D copy and reduce-kernel
# bandwidth), then allreduce_perf -B cuda with 1 rank (ps, ring, nccl, copy)
# and 2 and 4 ranks sharing the GPU (ps, ring, copy; nccl says why it skips),
# 8 B .. 1 GiB, checked, plus the host-ordered sync mode at 2 ranks. Writes
# logs and results under $OUT (at most 8 files) and prints a short table last.
# Without a GPU it stops after the build and unit tests, saying so.
#
# Prepare once on a machine with apt (both paths are git-ignored, carry .device):
#   ../shared/device/fetch-openmpi.sh .device/ompi
#   mkdir -p .device/nccl/include && cp /usr/local/cuda/include/nccl.h .device/nccl/include/
# Run:  scripts/device-check.sh        (OUT defaults to ./device-out)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/device-out}
mkdir -p "$OUT"
work=$(mktemp -d)
log="$work/device-check.log"
summary="$OUT/summary.txt"
: >"$summary"
say() { echo "[device-check $(date +%T)] $*" | tee -a "$summary" >&2; }
die() { say "STOP: $*"; pack; exit 1; }
pack() {
	tar -czf "$OUT/logs.tgz" -C "$work" . 2>/dev/null
	[ -d "$work/run" ] && tar -czf "$OUT/run.tgz" -C "$work" run 2>/dev/null
	true
}

# 1. Open MPI: the box has none; the kit travels in .device/ompi
if ! command -v mpirun >/dev/null; then
	[ -f .device/ompi/use-openmpi.sh ] || die "no mpirun and no .device/ompi kit (see the header of this script)"
	# shellcheck disable=SC1091
	. .device/ompi/use-openmpi.sh .device/ompi
fi
command -v mpirun >/dev/null || die "Open MPI kit did not provide mpirun"
mpirun --version 2>&1 | head -1 | tee -a "$summary"

# 2. NCCL: NCCL_HOME, else the toolkit, else a Python wheel (nvidia-nccl-cu13)
find_nccl() {
	local d
	for d in "${NCCL_HOME:-}" /usr/local/cuda /usr \
		$(python3 -c 'import nvidia.nccl as n, os; print(os.path.dirname(n.__file__))' 2>/dev/null) \
		$(find / -xdev -name 'libnccl.so.2' 2>/dev/null | head -3 | xargs -r -n1 dirname | xargs -r -n1 dirname); do
		[ -n "$d" ] || continue
		if ls "$d"/lib*/libnccl.so* >/dev/null 2>&1 || ls "$d"/libnccl.so* >/dev/null 2>&1; then
			echo "$d"
			return 0
		fi
	done
	return 1
}
nccl_home=$(find_nccl) || die "no libnccl.so found on this machine"
nccl_lib=$(ls "$nccl_home"/lib*/libnccl.so* "$nccl_home"/libnccl.so* 2>/dev/null | head -1)
nccl_inc="$nccl_home/include"
[ -f "$nccl_inc/nccl.h" ] || nccl_inc="$root/.device/nccl/include"
[ -f "$nccl_inc/nccl.h" ] || die "nccl.h not found (carry .device/nccl/include/nccl.h)"
export LD_LIBRARY_PATH="$(dirname "$nccl_lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
say "NCCL: $nccl_lib, header $nccl_inc/nccl.h"

# 3. facts
{ nvidia-smi 2>&1; nvcc --version 2>&1; nproc; } >"$work/facts.txt"
gpu=0
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=1
say "GPU: $(nvidia-smi -L 2>/dev/null | head -1 || echo none)"

# 4. build for Hopper (sm_90), Release
build="$root/build-device"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if ! cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
	-DNCCL_INCLUDE_DIR="$nccl_inc" -DNCCL_LIBRARY="$nccl_lib" \
	${MPI_C_COMPILER:+-DMPI_C_COMPILER="$MPI_C_COMPILER"} >"$work/configure.log" 2>&1 ||
	! cmake --build "$build" -j "$(nproc)" >"$work/build.log" 2>&1; then
	tail -20 "$work/configure.log" "$work/build.log" >&2
	die "build failed (logs.tgz)"
fi
grep -q 'backends built: host,cuda' <("$build/bin/allreduce_perf" --help) || die "the build has no cuda backend (configure.log)"
say "built: $(grep 'collbench: cuda backend' "$work/configure.log" | head -1)"

# 5. unit tests (no GPU needed), then stop here without a GPU
(cd "$build" && ctest -L unit --output-on-failure) >"$work/ctest-unit.log" 2>&1 &&
	say "unit tests: passed" || die "unit tests failed (logs.tgz: ctest-unit.log)"
[ "$gpu" = 1 ] || die "no GPU visible: build and unit tests done, nothing to run on a GPU"

# 6. GPU integration tests: every dtype x op, uneven counts, traffic formulas;
#    1 rank out of place, 2 in place, 4 out of place (the rest: ctest -L cuda)
(cd "$build" && timeout 180 ctest -R 'cuda_np1_inplace0|cuda_np2_inplace1|cuda_np4_inplace0' \
	--output-on-failure) >"$work/ctest-cuda.log" 2>&1 &&
	say "cuda integration tests: passed" || say "cuda integration tests: FAILED (logs.tgz: ctest-cuda.log)"

# 7. device references: copy and reduce-kernel bandwidth (bytes read + written)
timeout 60 "$build/bin/cuda_bw" -n 20 64M 256M 1G >"$work/roofline.txt" 2>&1 || say "cuda_bw failed"
cp "$work/roofline.txt" "$OUT/roofline.txt"

# 8. the sweep: 1 rank (ps ring nccl copy), 2 and 4 sharing the GPU; then host sync at 2 ranks
CB_BIN="$build/bin" timeout 240 scripts/sweep.sh -B cuda -n "1 2 4" -b 8 -e 1G -f 2 -i 20 -w 5 -c 1 \
	-o "$work/run" >"$work/sweep.log" 2>&1 || say "sweep reported a failure (sweep.log)"
CB_CUDA_SYNC=host timeout 60 mpirun -x CB_CUDA_SYNC -np 2 "$build/bin/allreduce_perf" -B cuda -a ring,ps \
	-b 256M -e 1G -f 4 -c 1 --csv "$work/run/hostsync-np2.csv" >"$work/hostsync.log" 2>&1 ||
	say "host-sync run failed (hostsync.log)"
command -v gnuplot >/dev/null && scripts/plot.sh "$work/run" "$work/run/plots" >/dev/null 2>&1
pack

# 9. the short table, last
{
	echo "== device references (bytes read + written per second)"
	cat "$work/roofline.txt"
	echo "== allreduce_perf -B cuda (busbw GB/s; copy: algbw)"
	awk -F, 'NR > 1 && ($5 == 8 || $5 == 1073741824) {
		printf "%-5s n=%-2s %11s B  time %10s us  busbw %8s  algbw %8s  wrong %s  %s\n",
		$3, $4, $5, $11, $16, $15, $17, $21 }' "$work/run/summary.csv" 2>/dev/null
	echo "== host-ordered sync (CB_CUDA_SYNC=host), 2 ranks"
	awk -F, 'NR > 1 { printf "%-5s %11s B  busbw %8s  wrong %s  %s\n", $3, $5, $16, $17, $21 }' \
		"$work/run/hostsync-np2.csv" 2>/dev/null
	echo "== rows not ok: $(awk -F, 'NR > 1 && $21 != "ok" && $21 !~ /^skipped/' "$work/run/summary.csv" 2>/dev/null | wc -l)"
} | tee -a "$summary"
rm -rf "$work"
