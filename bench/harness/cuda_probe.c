/* cuda_probe: the facts a GPU box must show before the cuda backend runs
 * there, in seconds, under mpirun (2 or more ranks; ranks bind to GPU
 * local rank mod visible GPUs, as the backend does, so on a one-GPU box they
 * share it). Rank 0 prints one line a fact:
 *   runtime   driver and runtime versions, the GPU, how many ranks share it
 *   ipc       a buffer of rank 0 read by every other rank through
 *             cudaIpcOpenMemHandle: ok, or the error
 *   wait.own  a ping-pong between ranks 0 and 1 ordered on the GPU: each
 *             waits (cuStreamWaitValue64) on a counter in its own memory that
 *             the peer writes (cuStreamWriteValue64) through IPC: us a handoff
 *   wait.peer the same, each waiting on the peer's counter through IPC (the
 *             layout the backend used first): us a handoff, or the refusal
 *   host      the same ping-pong ordered through the host (a stream drained,
 *             then a message): us a handoff
 *   copy.np1  cudaMemcpyAsync device to device of S bytes by rank 0 alone:
 *             GB/s (2S bytes moved per copy) by events and by wall time
 *   copy.npN  every rank copying at once: each rank's GB/s by its events,
 *             and the sum over ranks by wall time (barrier to every stream
 *             drained); on a shared GPU events read about N times too high
 * A handoff is half a round trip, the mean of -n round trips after warm-up.
 * A stream wait that never completes is given up after 10 s ("hung").
 *   mpirun -np N cuda_probe [-n iters] [-s bytes]
 * Exit status: 0 when every fact could be measured, 1 when one could not (the
 * line says why), 2 on bad arguments. */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_cuda_util.h"
#include "cb_size.h"

typedef CUresult (*value_fn)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);

struct probe {
	int rank, n, iters, sharers;
	size_t bytes;
	cudaStream_t s;
	value_fn wait, write;
	uint64_t *own;          /* this rank's counter (device memory) */
	uint64_t *peer;         /* the peer's counter, IPC-mapped (ranks 0, 1) */
	void *opened[2];        /* ranks 0's and 1's counters as this rank opened them */
	char line[320];
};

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Rank 0 prints the line every rank agrees on: ok when every rank's ok is
 * set, else the first failing rank's text. Returns 0 or 1 (failed). */
static int report(struct probe *p, const char *name, int ok, const char *text)
{
	int all_ok;
	char first[400] = "";

	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!all_ok) { /* the text of the lowest failing rank */
		int who = ok ? p->n : p->rank, low;

		MPI_Allreduce(&who, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (p->rank == low)
			snprintf(first, sizeof(first), "rank %d: %s", p->rank, text);
		MPI_Bcast(first, sizeof(first), MPI_CHAR, low, MPI_COMM_WORLD);
	}
	if (p->rank == 0)
		printf("%-9s  %s\n", name, all_ok ? text : first);
	fflush(stdout);
	return !all_ok;
}

/* Waits at most 10 s for s to drain: 0, or -1 (the stream still waits). */
static int drain(cudaStream_t s)
{
	double end = now_us() + 10e6;
	cudaError_t e;

	while ((e = cudaStreamQuery(s)) == cudaErrorNotReady) {
		if (now_us() > end)
			return -1;
	}
	cudaGetLastError(); /* not-ready leaves itself in the last-error slot */
	return e == cudaSuccess ? 0 : -1;
}

static int facts(struct probe *p)
{
	int drv = 0, rt = 0, dev = 0, ndev = 0;
	struct cudaDeviceProp prop;
	cudaError_t e = cudaGetDeviceCount(&ndev);

	if (e != cudaSuccess || ndev < 1) {
		snprintf(p->line, sizeof(p->line), "no usable GPU: %s", cudaGetErrorString(e));
		return report(p, "runtime", 0, p->line);
	}
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	cudaSetDevice(p->rank % ndev); /* local rank = rank: one host */
	cudaGetDevice(&dev);
	cudaGetDeviceProperties(&prop, dev);
	p->sharers = (p->n + ndev - 1) / ndev;
	snprintf(p->line, sizeof(p->line), "driver %d, runtime %d, %d GPU(s), GPU 0: %.120s; %d rank(s) a GPU",
		 drv, rt, ndev, prop.name, p->sharers);
	if (report(p, "runtime", 1, p->line))
		return 1;
	if (cudaStreamCreateWithFlags(&p->s, cudaStreamNonBlocking) != cudaSuccess)
		return report(p, "runtime", 0, "cudaStreamCreateWithFlags failed");
	p->wait = (value_fn)cb_cuda_driver_fn("cuStreamWaitValue64");
	p->write = (value_fn)cb_cuda_driver_fn("cuStreamWriteValue64");
	return 0;
}

/* Opens rank `from`'s device pointer in every rank (its own in `from`). */
static void *share(struct probe *p, void *mine, int from, cudaError_t *err)
{
	cudaIpcMemHandle_t h;
	void *ptr = mine;

	*err = cudaSuccess;
	if (p->rank == from)
		*err = cudaIpcGetMemHandle(&h, mine);
	MPI_Bcast(&h, sizeof(h), MPI_BYTE, from, MPI_COMM_WORLD);
	if (p->rank != from)
		*err = cudaIpcOpenMemHandle(&ptr, h, cudaIpcMemLazyEnablePeerAccess);
	return *err == cudaSuccess ? ptr : NULL;
}

static int probe_ipc(struct probe *p)
{
	unsigned char *buf = NULL, host[4096];
	cudaError_t e = cudaSuccess;
	int ok = 1;

	if (p->rank == 0 && (e = cudaMalloc((void **)&buf, sizeof(host))) == cudaSuccess &&
	    (e = cudaMemsetAsync(buf, 0x5a, sizeof(host), p->s)) == cudaSuccess && drain(p->s) != 0)
		e = cudaErrorUnknown;
	unsigned char *mapped = share(p, buf, 0, &e);

	if (!mapped) {
		snprintf(p->line, sizeof(p->line), "%s", cudaGetErrorName(e));
		ok = 0;
	} else if (cudaMemcpyAsync(host, mapped, sizeof(host), cudaMemcpyDeviceToHost, p->s) != cudaSuccess ||
		   drain(p->s) != 0) {
		snprintf(p->line, sizeof(p->line), "reading the mapping failed");
		ok = 0;
	} else {
		for (size_t i = 0; i < sizeof(host) && ok; i++)
			ok = host[i] == 0x5a;
		snprintf(p->line, sizeof(p->line), ok ? "ok: rank 0's buffer read by %d rank(s)" :
			 "wrong bytes read through the mapping", p->n - 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (mapped && p->rank != 0)
		cudaIpcCloseMemHandle(mapped);
	MPI_Barrier(MPI_COMM_WORLD);
	cudaFree(buf);
	return report(p, "ipc", ok, p->line);
}

/* The counters of ranks 0 and 1, each mapped in the other. */
static int counters(struct probe *p)
{
	cudaError_t e = cudaSuccess;
	void *c0, *c1;

	p->own = NULL;
	if (p->rank < 2 && (e = cudaMalloc((void **)&p->own, sizeof(uint64_t))) == cudaSuccess &&
	    (e = cudaMemsetAsync(p->own, 0, sizeof(uint64_t), p->s)) == cudaSuccess && drain(p->s) != 0)
		e = cudaErrorUnknown;
	c0 = share(p, p->own, 0, &e);
	c1 = share(p, p->own, 1, &e);
	p->opened[0] = p->rank != 0 ? c0 : NULL;
	p->opened[1] = p->rank != 1 ? c1 : NULL;
	p->peer = p->rank == 0 ? c1 : p->rank == 1 ? c0 : NULL;
	return p->rank < 2 && (!p->own || !p->peer || e != cudaSuccess);
}

/* Round trips between ranks 0 and 1 ordered on the GPU: waits on `on_own`'s
 * choice of counter, writes the other. Returns us a handoff, or -1 (the
 * driver refused a call: err names it) or -2 (the stream hung). */
static double gpu_pingpong(struct probe *p, int on_own, CUresult *err)
{
	uint64_t *wait_on = on_own ? p->own : p->peer;  /* the peer writes it */
	uint64_t *write_to = on_own ? p->peer : p->own; /* the peer waits on it */
	double t0 = 0;

	*err = CUDA_SUCCESS;
	for (int i = 0; i < p->iters + 5 && *err == CUDA_SUCCESS; i++) {
		uint64_t v = 2 * (uint64_t)(i + 1) + (on_own ? 0 : 1000000);

		if (i == 5)
			t0 = now_us();
		if (p->rank == 0)
			*err = p->write(p->s, (CUdeviceptr)write_to, v, 0);
		if (*err == CUDA_SUCCESS)
			*err = p->wait(p->s, (CUdeviceptr)wait_on, p->rank == 0 ? v + 1 : v,
				       CU_STREAM_WAIT_VALUE_GEQ);
		if (p->rank == 1 && *err == CUDA_SUCCESS)
			*err = p->write(p->s, (CUdeviceptr)write_to, v + 1, 0);
	}
	if (*err != CUDA_SUCCESS)
		return -1;
	if (drain(p->s) != 0)
		return -2;
	return (now_us() - t0) / p->iters / 2;
}

static int probe_waits(struct probe *p)
{
	const char *names[2] = { "wait.own", "wait.peer" };
	int bad = 0;

	if (p->n < 2 || !p->wait || !p->write) {
		snprintf(p->line, sizeof(p->line), p->n < 2 ? "not run: one rank" :
			 "the driver lacks cuStreamWaitValue64 / cuStreamWriteValue64");
		bad = report(p, names[0], p->n < 2, p->line);
		return bad | report(p, names[1], p->n < 2, p->line);
	}
	if (counters(p))
		snprintf(p->line, sizeof(p->line), "the counters could not be shared through IPC");
	for (int layout = 0; layout < 2; layout++) {
		CUresult err = CUDA_SUCCESS;
		double us = 0;
		int ok = 1;

		MPI_Barrier(MPI_COMM_WORLD);
		if (p->rank < 2 && p->own && p->peer)
			us = gpu_pingpong(p, layout == 0, &err);
		if (p->rank < 2 && (!p->own || !p->peer)) {
			ok = 0; /* p->line says why */
		} else if (us == -1) {
			const char *en = "?";
			CUresult (*name)(CUresult, const char **) =
				(CUresult(*)(CUresult, const char **))cb_cuda_driver_fn("cuGetErrorName");

			if (name)
				name(err, &en);
			snprintf(p->line, sizeof(p->line), "refused: %s", en);
			ok = 0;
		} else if (us == -2) {
			snprintf(p->line, sizeof(p->line), "hung: the stream still waited after 10 s");
			ok = 0;
			cudaStreamCreateWithFlags(&p->s, cudaStreamNonBlocking); /* the old one waits on */
		} else {
			snprintf(p->line, sizeof(p->line), "%.2f us a handoff (GPU-ordered ping-pong, ranks 0 and 1)", us);
		}
		bad |= report(p, names[layout], ok, p->line);
	}
	return bad;
}

/* Round trips between ranks 0 and 1 ordered through the host: a stream
 * drained (one small memset enqueued), then a message to the peer, which
 * does the same. Returns us a handoff, or -1. */
static double host_pingpong(struct probe *p)
{
	int peer = 1 - p->rank, token = 0;
	double t0 = 0;

	for (int i = 0; i < p->iters + 5; i++) {
		if (i == 5)
			t0 = now_us();
		if (p->rank == 1)
			MPI_Recv(&token, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (cudaMemsetAsync(p->own, 0, sizeof(uint64_t), p->s) != cudaSuccess || drain(p->s) != 0)
			return -1;
		MPI_Send(&token, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
		if (p->rank == 0)
			MPI_Recv(&token, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	return (now_us() - t0) / p->iters / 2;
}

static int probe_host(struct probe *p)
{
	double us = 0;
	int ok = 1;

	if (p->n < 2)
		return report(p, "host", 1, "not run: one rank");
	MPI_Barrier(MPI_COMM_WORLD);
	if (p->rank < 2) {
		us = p->own ? host_pingpong(p) : -1;
		ok = us >= 0;
	}
	snprintf(p->line, sizeof(p->line), ok ? "%.2f us a handoff (stream drained, then an MPI message)" :
		 "no counter, or a CUDA call failed", us);
	return report(p, "host", ok, p->line);
}

/* -n copies of p->bytes by the ranks with `on` set, timed by events on each
 * rank and by wall time over all (barrier to every stream drained).
 * gbps_ev: this rank's GB/s by its events; returns the GB/s of all ranks
 * copying by wall time (2S bytes moved per copy), or -1. */
static double copies(struct probe *p, void *a, void *b, int on, double *gbps_ev)
{
	cudaEvent_t e0, e1;
	float ms = 0;
	double t0, wall;
	int err = 0, any, ncopying = 0;

	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = now_us();
	if (on) {
		err |= cudaEventRecord(e0, p->s) != cudaSuccess;
		for (int i = 0; i < p->iters && !err; i++)
			err |= cudaMemcpyAsync(b, a, p->bytes, cudaMemcpyDeviceToDevice, p->s) != cudaSuccess;
		err |= cudaEventRecord(e1, p->s) != cudaSuccess;
		err |= drain(p->s) != 0;
		err |= cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	wall = now_us() - t0;
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	MPI_Allreduce(&err, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	*gbps_ev = on && ms > 0 ? 2.0 * (double)p->bytes * p->iters / (ms * 1e-3) / 1e9 : 0;
	MPI_Allreduce(&on, &ncopying, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	return any ? -1 : 2.0 * (double)p->bytes * p->iters * ncopying / (wall * 1e-6) / 1e9;
}

static int probe_copy(struct probe *p)
{
	void *a = NULL, *b = NULL;
	double ev1, evn, sum_ev = 0, wall1, walln;
	int ok = cudaMalloc(&a, p->bytes) == cudaSuccess && cudaMalloc(&b, p->bytes) == cudaSuccess &&
		 cudaMemsetAsync(a, 1, p->bytes, p->s) == cudaSuccess && drain(p->s) == 0;
	int bad;

	if (report(p, "copy", ok, ok ? "buffers allocated" : "cudaMalloc of two buffers failed")) {
		cudaFree(a);
		cudaFree(b);
		return 1;
	}
	wall1 = copies(p, a, b, p->rank == 0, &ev1);
	walln = copies(p, a, b, 1, &evn);
	MPI_Reduce(&evn, &sum_ev, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Bcast(&ev1, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	snprintf(p->line, sizeof(p->line), "%.1f GB/s by events, %.1f by wall (rank 0 alone, %zu B)",
		 ev1, wall1, p->bytes);
	bad = report(p, "copy.np1", wall1 > 0, p->line);
	snprintf(p->line, sizeof(p->line), "%d ranks at once: %.1f GB/s summed over their events, %.1f by wall"
		 " (events over wall: %.2f)", p->n, sum_ev, walln, walln > 0 ? sum_ev / walln : 0);
	bad |= report(p, "copy.npN", walln > 0, p->line);
	cudaFree(a);
	cudaFree(b);
	return bad;
}

static int parse(int argc, char **argv, struct probe *p)
{
	p->iters = 50;
	p->bytes = (size_t)64 << 20;
	for (int i = 1; i < argc; i++) {
		long v;

		if (i + 1 < argc && strcmp(argv[i], "-n") == 0 && (v = strtol(argv[i + 1], NULL, 10)) >= 1 &&
		    v <= 100000) {
			p->iters = (int)v;
			i++;
		} else if (i + 1 < argc && strcmp(argv[i], "-s") == 0 &&
			   cb_parse_size(argv[i + 1], &p->bytes) == 0 && p->bytes >= 8) {
			i++;
		} else {
			if (p->rank == 0)
				fprintf(stderr, "cuda_probe: usage: mpirun -np N cuda_probe [-n iters] [-s bytes]"
					" (at '%s')\n", argv[i]);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct probe p = { 0 };
	int bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p.n);
	if (parse(argc, argv, &p) != 0) {
		MPI_Finalize();
		return 2;
	}
	bad = facts(&p);
	if (!bad) {
		bad |= probe_ipc(&p);
		bad |= probe_waits(&p);
		bad |= probe_host(&p);
		bad |= probe_copy(&p);
	}
	for (int i = 0; i < 2; i++) /* every mapping closed before its owner frees it */
		if (p.opened[i])
			cudaIpcCloseMemHandle(p.opened[i]);
	MPI_Barrier(MPI_COMM_WORLD);
	if (p.own)
		cudaFree(p.own);
	MPI_Finalize();
	return bad ? 1 : 0;
}
