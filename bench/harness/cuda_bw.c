/* cuda_bw: the two device references of the cuda backend, on one GPU, no MPI:
 *   copy   cudaMemcpyAsync device to device: 2S bytes moved per S copied;
 *   reduce the backend's fused reduce kernel (float sum, dst = a + b):
 *          3S bytes moved per S reduced;
 * both as bytes read + written per second (GB/s, 1e9), the median of -n
 * timed repetitions after warm-up, CUDA events on one stream. The ratio
 * reduce/copy says how close the kernel comes to the copy roofline.
 *   cuda_bw [-n iters] [SIZE ...]     (default sizes 64M 256M 1G)
 * Exit status: 0, or 1 with a message when there is no usable GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_kernels.h"
#include "cb_size.h"
#include "cb_stats.h"

/* A failed CUDA call: where, which, and the error's name; the caller returns. */
#define CHECK(call)                                                                         \
	do {                                                                                \
		cudaError_t e_ = (call);                                                    \
		if (e_ != cudaSuccess) {                                                    \
			fprintf(stderr, "cuda_bw: %s:%d: %s: %s (%s)\n", __FILE__, __LINE__,  \
				#call, cudaGetErrorString(e_), cudaGetErrorName(e_));       \
			return -1;                                                          \
		}                                                                           \
	} while (0)

struct bufs {
	void *a, *b, *dst;
	size_t bytes;
	int sm_count;
	cudaStream_t s;
	cudaEvent_t e0, e1;
};

/* Median time in microseconds of `iters` runs of one operation. */
static double time_op(struct bufs *w, int reduce, int iters)
{
	double t[256];
	struct cb_stats st;

	for (int i = -3; i < iters; i++) { /* 3 warm-up runs */
		float ms;

		CHECK(cudaEventRecord(w->e0, w->s));
		if (reduce)
			CHECK(cb_cuda_reduce(w->dst, w->a, w->b, w->bytes / 4, CB_FLOAT, CB_SUM,
					     w->sm_count, w->s));
		else
			CHECK(cudaMemcpyAsync(w->dst, w->a, w->bytes, cudaMemcpyDeviceToDevice, w->s));
		CHECK(cudaEventRecord(w->e1, w->s));
		CHECK(cudaEventSynchronize(w->e1));
		CHECK(cudaEventElapsedTime(&ms, w->e0, w->e1));
		if (i >= 0)
			t[i] = ms * 1e3;
	}
	if (cb_stats_compute(t, (size_t)iters, &st) != 0)
		return -1.0;
	return st.median;
}

static int run_size(struct bufs *w, size_t bytes, int iters)
{
	double tc, tr, copy_bw, red_bw;
	char h[32];

	w->bytes = bytes;
	tc = time_op(w, 0, iters);
	tr = time_op(w, 1, iters);
	if (tc <= 0 || tr <= 0)
		return -1;
	copy_bw = 2.0 * (double)bytes / (tc * 1e-6) / 1e9;
	red_bw = 3.0 * (double)bytes / (tr * 1e-6) / 1e9;
	cb_format_size(bytes, h, sizeof(h));
	printf("%8s %12.1f %12.1f %14.1f %14.1f %8.3f\n", h, tc, tr, copy_bw, red_bw, red_bw / copy_bw);
	fflush(stdout);
	return 0;
}

/* Buffers (3 x max bytes), stream and events on GPU 0; 0, or -1 with the
 * failed call named on stderr. */
static int setup_device(struct bufs *w, size_t max)
{
	CHECK(cudaDeviceGetAttribute(&w->sm_count, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaMalloc(&w->a, max));
	CHECK(cudaMalloc(&w->b, max));
	CHECK(cudaMalloc(&w->dst, max));
	CHECK(cudaMemset(w->a, 1, max));
	CHECK(cudaMemset(w->b, 2, max));
	CHECK(cudaStreamCreate(&w->s));
	CHECK(cudaEventCreate(&w->e0));
	CHECK(cudaEventCreate(&w->e1));
	return 0;
}

static int setup(struct bufs *w, size_t max)
{
	if (setup_device(w, max) == 0)
		return 0;
	fprintf(stderr, "cuda_bw: set-up for 3 x %zu B failed\n", max);
	return -1;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { (size_t)64 << 20, (size_t)256 << 20, (size_t)1 << 30 }, n = 3, max = 0;
	struct bufs w;
	int iters = 20, ndev = 0, rc = 0, k = 1;
	cudaError_t err;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		iters = atoi(argv[2]);
		k = 3;
	}
	if (iters < 1 || iters > 256) {
		fprintf(stderr, "cuda_bw: -n must be in [1, 256]\n");
		return 2;
	}
	if (k < argc)
		n = 0;
	for (; k < argc && n < 16; k++)
		if (cb_parse_size(argv[k], &sizes[n++]) != 0 || sizes[n - 1] % 16 || !sizes[n - 1]) {
			fprintf(stderr, "cuda_bw: '%s' is not a size (a non-zero multiple of 16 B)\n", argv[k]);
			return 2;
		}
	for (size_t i = 0; i < n; i++)
		max = sizes[i] > max ? sizes[i] : max;
	err = cudaGetDeviceCount(&ndev);
	if (err != cudaSuccess || ndev == 0) {
		fprintf(stderr, "cuda_bw: no usable GPU: %s\n",
			err ? cudaGetErrorString(err) : "no device visible");
		return 1;
	}
	memset(&w, 0, sizeof(w));
	if (setup(&w, max) != 0)
		return 1;
	printf("# bytes moved = read + written: copy 2S, reduce 3S; median of %d runs\n", iters);
	printf("%8s %12s %12s %14s %14s %8s\n", "size", "copy(us)", "reduce(us)", "copy(GB/s)",
	       "reduce(GB/s)", "ratio");
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = run_size(&w, sizes[i], iters);
	cudaFree(w.a);
	cudaFree(w.b);
	cudaFree(w.dst);
	return rc ? 1 : 0;
}
