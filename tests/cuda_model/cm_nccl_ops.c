/* The CUDA model's NCCL operations: ncclAllReduce and ncclSend/ncclRecv in
 * groups, as operations of the stream they are given (NCCL, Collective
 * Operations: "the operation is enqueued on the stream"; it runs after the
 * stream's earlier work and before its later work). They move bytes through
 * the communicator's segment (cm_nccl.h); a wait watches the abort flag
 * (ncclCommAbort) and the peers' pids. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cm_nccl.h"

#define CM_LIVENESS_POLLS 1024u

static int dtype_of(ncclDataType_t t, enum cb_dtype *dt)
{
	static const struct {
		ncclDataType_t t;
		enum cb_dtype dt;
	} map[] = {
		{ ncclInt8, CB_INT8 },       { ncclUint8, CB_UINT8 },   { ncclInt32, CB_INT32 },
		{ ncclUint32, CB_UINT32 },   { ncclInt64, CB_INT64 },   { ncclUint64, CB_UINT64 },
		{ ncclFloat16, CB_HALF },    { ncclBfloat16, CB_BFLOAT16 }, { ncclFloat32, CB_FLOAT },
		{ ncclFloat64, CB_DOUBLE },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].t == t) {
			*dt = map[i].dt;
			return 1;
		}
	return 0;
}

static int op_of(ncclRedOp_t o, enum cb_op *op)
{
	static const ncclRedOp_t map[CB_OP_COUNT] = {
		[CB_SUM] = ncclSum, [CB_PROD] = ncclProd, [CB_MIN] = ncclMin, [CB_MAX] = ncclMax,
		[CB_AVG] = ncclAvg,
	};

	for (int i = 0; i < CB_OP_COUNT; i++)
		if (map[i] == o) {
			*op = (enum cb_op)i;
			return 1;
		}
	return 0;
}

/* A buffer of an NCCL call: device memory of this process (its own or
 * mapped through CUDA IPC) holding all of [p, p + bytes). */
static int device_span(const void *p, size_t bytes)
{
	int dev = -1;
	enum cm_mem_kind k = cm_mem_lookup(p, bytes, &dev);

	return bytes == 0 || k == CM_OWN || k == CM_MAPPED;
}

/* The allreduce by the algorithm and protocol chosen at the call
 * (cm_nccl_algo.c). */
static cudaError_t run_allreduce(void *arg)
{
	cm_nccl_allreduce_run(arg);
	return cudaSuccess;
}

static void drop_coll(void *arg)
{
	struct cm_coll *o = arg;

	__atomic_add_fetch(&o->comm->ran, 1, __ATOMIC_SEQ_CST);
	cm_comm_unref(o->comm);
	free(o);
}

/* What an enqueued call returns: a non-blocking communicator "may return
 * ncclInProgress" while the launch is under way (NCCL, nonblocking
 * communicators); its state goes back to ncclSuccess at the next query. */
static ncclResult_t launched(struct ncclComm *c)
{
	int ok = ncclSuccess;

	if (c->blocking)
		return ncclSuccess;
	__atomic_compare_exchange_n(&c->state, &ok, ncclInProgress, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return ncclInProgress;
}

static _Thread_local int group_depth;

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
			   ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)
{
	ncclResult_t r = cm_comm_usable(comm, "ncclAllReduce");
	struct cm_span sp[2];
	struct cm_coll *o;
	enum cb_dtype dt;
	enum cb_op cop;
	int algo, proto;

	if (r != ncclSuccess)
		return r;
	if (group_depth)
		return cm_nccl_fail(NULL, ncclInvalidUsage, "cuda model: ncclAllReduce inside a group is "
				    "not modelled");
	if (!dtype_of(datatype, &dt) || !op_of(op, &cop))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclAllReduce: datatype %d or op %d",
				    (int)datatype, (int)op);
	if (!device_span(sendbuff, count * cb_dtype_size(dt)) || !device_span(recvbuff, count * cb_dtype_size(dt)))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclAllReduce: a buffer is not device memory");
	if (cm_stream_device(stream) != comm->device)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclAllReduce: the stream is not of the "
				    "communicator's GPU");
	/* NCCL_ALGO and NCCL_PROTO as the communicator was created with them */
	r = cm_nccl_choose(comm, CM_COLL_ALLREDUCE, count * cb_dtype_size(dt), datatype, &algo, &proto);
	if (r != ncclSuccess)
		return r;
	o = malloc(sizeof(*o));
	if (!o)
		return cm_nccl_fail(NULL, ncclSystemError, "out of memory");
	*o = (struct cm_coll){ comm, sendbuff, recvbuff, count, dt, cop, algo, proto };
	sp[0] = (struct cm_span){ sendbuff, count * cb_dtype_size(dt), 0, 0 };
	sp[1] = (struct cm_span){ recvbuff, count * cb_dtype_size(dt), 1, 0 };
	cm_nccl_prof_coll(comm, CB_COLL_ALLREDUCE, "AllReduce", sendbuff, recvbuff, count,
			  cb_dtype_name(dt), count * cb_dtype_size(dt));
	cm_comm_ref(comm);
	comm->enq++;
	if (cm_enqueue_touching(stream, "ncclAllReduce", run_allreduce, drop_coll, o, sp, 2) != cudaSuccess)
		return cm_nccl_fail(NULL, ncclUnhandledCudaError, "ncclAllReduce: invalid stream");
	return launched(comm);
}

/* ---- point to point ---------------------------------------------------- */

struct p2p {
	struct ncclComm *comm;
	cudaStream_t stream;
	int send, peer;
	char *buf;
	size_t bytes, hdr_done, done;
	uint64_t hdr; /* the message's length, sent before it */
};

static _Thread_local struct {
	struct p2p *ops;
	int n, cap;
	ncclResult_t error; /* of a call inside the group: ncclGroupEnd returns it */
} group;

size_t cm_chan_move(struct ncclComm *c, int src, int dst, char *bytes, size_t n, int put)
{
	struct cm_chan *ch = (struct cm_chan *)((char *)c->seg + cm_seg_chans(c->nranks)) + src * c->nranks + dst;
	char *ring = (char *)c->seg + cm_seg_rings(c->nranks) + (size_t)(src * c->nranks + dst) * CM_NCCL_CHAN;
	uint64_t head = __atomic_load_n(&ch->head, __ATOMIC_ACQUIRE), tail = __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE);
	uint64_t at = put ? head : tail;
	size_t room = put ? CM_NCCL_CHAN - (size_t)(head - tail) : (size_t)(head - tail);
	size_t k = n < room ? n : room, off = (size_t)(at % CM_NCCL_CHAN);
	size_t first = k < CM_NCCL_CHAN - off ? k : CM_NCCL_CHAN - off;

	if (put) {
		memcpy(ring + off, bytes, first);
		memcpy(ring, bytes + first, k - first);
		__atomic_store_n(&ch->head, head + k, __ATOMIC_RELEASE);
	} else {
		memcpy(bytes, ring + off, first);
		memcpy(bytes + first, ring, k - first);
		__atomic_store_n(&ch->tail, tail + k, __ATOMIC_RELEASE);
	}
	return k;
}

/* Progress on one send or receive: its length first, then its bytes.
 * NCCL, ncclRecv: the matching ncclSend has the same count and datatype; a
 * length that differs is an error of the caller. Returns bytes moved. */
static size_t p2p_step(struct p2p *o)
{
	struct ncclComm *c = o->comm;
	int src = o->send ? c->rank : o->peer, dst = o->send ? o->peer : c->rank;
	size_t k = 0;

	if (o->hdr_done < sizeof(o->hdr)) {
		k = cm_chan_move(c, src, dst, (char *)&o->hdr + o->hdr_done, sizeof(o->hdr) - o->hdr_done, o->send);
		o->hdr_done += k;
		if (o->hdr_done < sizeof(o->hdr))
			return k;
		if (!o->send && o->hdr != o->bytes) {
			cm_log("ncclRecv of %zu B from rank %d met an ncclSend of %llu B", o->bytes, o->peer,
			       (unsigned long long)o->hdr);
			cm_nccl_fail(c, ncclInvalidUsage, "ncclRecv of %zu B from rank %d met an ncclSend of "
				     "%llu B", o->bytes, o->peer, (unsigned long long)o->hdr);
			o->done = o->bytes;
			return k;
		}
	}
	if (o->done < o->bytes) {
		size_t m = cm_chan_move(c, src, dst, o->buf + o->done, o->bytes - o->done, o->send);

		o->done += m;
		k += m;
	}
	return k;
}

struct group_op {
	int n;
	struct p2p ops[];
};

/* The operations of a group progress together (NCCL, Group Calls: a group
 * "will not complete until all operations in it have"), so that two ranks
 * that send to each other in one group do not deadlock. */
static cudaError_t run_group(void *arg)
{
	struct group_op *g = arg;

	/* from the start, each time it runs (a CUDA graph replays it: cm_graph.c) */
	for (int i = 0; i < g->n; i++) {
		g->ops[i].hdr_done = g->ops[i].done = 0;
		g->ops[i].hdr = g->ops[i].send ? g->ops[i].bytes : 0;
	}
	for (unsigned long polls = 0;; polls++) {
		int left = 0;
		size_t moved = 0;

		for (int i = 0; i < g->n; i++) {
			struct p2p *o = &g->ops[i];

			if (__atomic_load_n(&o->comm->aborted, __ATOMIC_SEQ_CST))
				return cudaSuccess;
			if (o->hdr_done < sizeof(o->hdr) || o->done < o->bytes)
				moved += p2p_step(o);
			left += o->hdr_done < sizeof(o->hdr) || o->done < o->bytes;
			if (left && polls % CM_LIVENESS_POLLS == CM_LIVENESS_POLLS - 1 &&
			    cm_comm_peer_dead(o->comm, o->peer))
				cm_nccl_fail(o->comm, ncclRemoteError, "rank %d exited", o->peer);
		}
		if (!left)
			return cudaSuccess;
		if (moved)
			polls = 0;
		cm_backoff(polls);
	}
}

static void drop_group(void *arg)
{
	struct group_op *g = arg;

	for (int i = 0; i < g->n; i++) {
		__atomic_add_fetch(&g->ops[i].comm->ran, 1, __ATOMIC_SEQ_CST);
		cm_comm_unref(g->ops[i].comm);
	}
	free(g);
}

static ncclResult_t add_p2p(int send, void *buf, size_t count, ncclDataType_t datatype, int peer,
			    ncclComm_t comm, cudaStream_t stream)
{
	const char *call = send ? "ncclSend" : "ncclRecv";
	ncclResult_t r = cm_comm_usable(comm, call);
	enum cb_dtype dt = CB_UINT8;
	size_t bytes;

	if (r == ncclSuccess && (!dtype_of(datatype, &dt) || peer < 0 || peer >= comm->nranks))
		r = cm_nccl_fail(NULL, ncclInvalidArgument, "%s: datatype %d or peer %d", call, (int)datatype, peer);
	bytes = r == ncclSuccess ? count * cb_dtype_size(dt) : 0;
	if (r == ncclSuccess && (!device_span(buf, bytes) || cm_stream_device(stream) != comm->device))
		r = cm_nccl_fail(NULL, ncclInvalidArgument, "%s: the buffer is not device memory, or the "
				 "stream not of the communicator's GPU", call);
	if (r == ncclSuccess && group.n == group.cap) {
		struct p2p *more = realloc(group.ops, sizeof(*more) * (size_t)(group.cap ? 2 * group.cap : 16));

		r = more ? ncclSuccess : cm_nccl_fail(NULL, ncclSystemError, "out of memory");
		if (more) {
			group.ops = more;
			group.cap = group.cap ? 2 * group.cap : 16;
		}
	}
	if (r != ncclSuccess) {
		group.error = group.error ? group.error : r;
		return r;
	}
	if (bytes) /* NCCL moves nothing for a count of 0 */
		group.ops[group.n++] = (struct p2p){ comm, stream, send, peer, buf, bytes, 0, 0, bytes };
	return ncclSuccess;
}

/* NCCL, Group Calls: ncclGroupStart/End may nest; the operations issued in
 * between are launched at the outermost ncclGroupEnd, here as one operation
 * per stream. */
ncclResult_t ncclGroupStart(void)
{
	cm_init();
	group_depth++;
	return ncclSuccess;
}

/* The group's operations of one stream (the first not yet taken from
 * index i on), as one operation of that stream; they are taken. */
static struct group_op *take_stream(int i)
{
	struct group_op *g = malloc(sizeof(*g) + sizeof(g->ops[0]) * (size_t)group.n);
	cudaStream_t s = group.ops[i].stream;

	if (!g)
		return NULL;
	g->n = 0;
	for (int j = i; j < group.n; j++)
		if (group.ops[j].comm && group.ops[j].stream == s) {
			g->ops[g->n] = group.ops[j];
			cm_comm_ref(group.ops[j].comm);
			group.ops[j].comm->enq++;
			group.ops[j].comm = NULL;
			g->n++;
		}
	return g;
}

static cudaError_t enqueue_group(struct group_op *g)
{
	struct cm_span *sp = malloc(sizeof(*sp) * (size_t)g->n);
	cudaError_t e;

	if (!sp) {
		drop_group(g);
		return cudaErrorMemoryAllocation;
	}
	for (int i = 0; i < g->n; i++)
		sp[i] = (struct cm_span){ g->ops[i].buf, g->ops[i].bytes, !g->ops[i].send, 0 };
	e = cm_enqueue_touching(g->ops[0].stream, "an NCCL group (ncclSend/ncclRecv)", run_group, drop_group,
				g, sp, g->n);
	free(sp);
	return e;
}

static ncclResult_t launch_group(void)
{
	ncclResult_t r = ncclSuccess;

	for (int i = 0; i < group.n; i++) {
		struct group_op *g;

		if (!group.ops[i].comm) /* taken with an earlier operation's stream */
			continue;
		g = take_stream(i);
		if (!g)
			return cm_nccl_fail(NULL, ncclSystemError, "out of memory");
		for (int j = 0; j < g->n; j++) /* before the worker may free g */
			if (launched(g->ops[j].comm) == ncclInProgress)
				r = ncclInProgress;
		if (enqueue_group(g) != cudaSuccess)
			return cm_nccl_fail(NULL, ncclUnhandledCudaError, "ncclGroupEnd: invalid stream");
	}
	return r;
}

ncclResult_t ncclGroupEnd(void)
{
	ncclResult_t r;

	if (group_depth == 0)
		return cm_nccl_fail(NULL, ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");
	if (--group_depth > 0)
		return ncclSuccess;
	r = group.error ? group.error : launch_group();
	group.n = 0;
	group.error = ncclSuccess;
	return r;
}

static ncclResult_t p2p_call(int send, void *buf, size_t count, ncclDataType_t datatype, int peer,
			     ncclComm_t comm, cudaStream_t stream)
{
	if (group_depth)
		return add_p2p(send, buf, count, datatype, peer, comm, stream);
	ncclGroupStart(); /* alone: a group of one; ncclGroupEnd returns its error */
	add_p2p(send, buf, count, datatype, peer, comm, stream);
	return ncclGroupEnd();
}

ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
		      cudaStream_t stream)
{
	return p2p_call(1, (void *)sendbuff, count, datatype, peer, comm, stream);
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
		      cudaStream_t stream)
{
	return p2p_call(0, recvbuff, count, datatype, peer, comm, stream);
}

/* The collectives beyond allreduce are not modelled: each fails with a
 * message that says so (the cuda model's tests run allreduce; the real
 * calls are run by dev/device-check.sh on a GPU). */
static ncclResult_t unmodelled(ncclComm_t comm, const char *call)
{
	ncclResult_t r = cm_comm_usable(comm, call);

	if (r != ncclSuccess)
		return r;
	return cm_nccl_fail(NULL, ncclInvalidUsage, "cuda model: %s is not modelled", call);
}

ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
			       ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
			       cudaStream_t stream)
{
	(void)sendbuff, (void)recvbuff, (void)recvcount, (void)datatype, (void)op, (void)stream;
	return unmodelled(comm, "ncclReduceScatter");
}

ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
			   ncclDataType_t datatype, ncclComm_t comm, cudaStream_t stream)
{
	(void)sendbuff, (void)recvbuff, (void)sendcount, (void)datatype, (void)stream;
	return unmodelled(comm, "ncclAllGather");
}

ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
			   ncclDataType_t datatype, int root, ncclComm_t comm, cudaStream_t stream)
{
	(void)sendbuff, (void)recvbuff, (void)count, (void)datatype, (void)root, (void)stream;
	return unmodelled(comm, "ncclBroadcast");
}

ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
			ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream)
{
	(void)sendbuff, (void)recvbuff, (void)count, (void)datatype, (void)op, (void)root, (void)stream;
	return unmodelled(comm, "ncclReduce");
}
