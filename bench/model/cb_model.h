/* cb_model: the alpha-beta-gamma cost model of collbench's collectives, priced
 * from their plans round by round, on a topology of hosts and links.
 *
 * Cost of one step (Hockney's alpha-beta model with a reduce rate, as in
 * Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 19(1), 2005):
 *
 *     t_step = alpha + max over links (bytes on the link / its bandwidth)
 *                    + max over ranks (bytes the rank reduces / gamma)
 *
 * when bytes land in a buffer before they are reduced (two-sided). One-sided
 * (the reducing rank reads its peer's bytes as it reduces them) the bytes a
 * step moves and reduces at once, F = min(L, R), cost fused_bw: alpha +
 * (L - F)/bw + (R - F)/gamma + F/fused_bw, the terms the fit solves for
 * (cb_model_terms); a rank's link load is the larger direction, or the
 * bytes of the transfers it runs itself where more; with a network link,
 * alpha + the slower of moving and reducing.
 *
 * alpha is the largest per-message latency among the step's transfers (an
 * intra-host step pays the intra-host alpha, a step with any transfer between
 * hosts the network's). Links are full duplex: each direction carries its own
 * load. A transfer of B bytes from rank a to rank b loads a's outbound and b's
 * inbound link into their host's fabric when a and b share a host, else the
 * outbound network link of a's host (or of a, with a NIC per rank) and the
 * inbound one of b's. A call's time is the sum of its steps' times: every
 * step waits for the step before it.
 *
 * Every row is priced from a plan (collectives/plans/cb_plan.h): a plan
 * algorithm's own, built as the executors build it (the slice:
 * cb_plan_slice_count of the topology's slice_bytes), or for a library's
 * row the plan of the schedule the catalogue names for it (cb_model_reg.h),
 * unsliced. Round by round: a step whose source and destination ranks
 * differ is a transfer (its bytes reduced at the destination for a reduce),
 * a local reduce loads its rank's reduce term, a local copy its rank's
 * link; each round is one step of the formula above, and the call the sum
 * of its rounds (every round waits for the one before on some rank: the
 * critical path of a plan whose rounds all involve every rank, an upper
 * bound otherwise). No algorithm has a branch of its own.
 *
 * A plan of up to CB_MODEL_PLAN_MAX_STEPS steps (steps_bound, cb_model.c)
 * is built whole, its waits and fresh reads derived (cb_plan_finish); a
 * larger one, or a case.stream one, as a stream (cb_plan_stream) priced
 * round by round in bounded memory: the same price where fresh reads are
 * free and every rank has a CPU (test_model.c), else nothing read fresh and
 * a rank waiting for the peers it receives from. The copy roofline
 * (case.plan NULL): every rank copies its S bytes locally at copy_bw.
 * Time slicing (docs/model.md, "Time slicing"): a host with more ranks
 * than CPUs runs q = ranks / CPUs ranks per CPU. A call in which some rank
 * waits for another (a derived wait one-sided, a message two-sided) shares
 * the CPUs in every round (the host's loads over its CPUs) and each waited
 * round costs switch_s * (q + the most peers a rank waits for / CPUs) and
 * wait_frac times a rank's mean time in it, up to the scheduler's slice; a
 * call in which no rank waits is stretched past the slice
 * (cb_model_stretch, cb_model_topo.h).
 *
 * Ranks are placed on hosts in order (rank r on host r / ranks_per_host,
 * mpirun's --map-by slot) or where a run put them (cb_topo.rank_host).
 *
 * Units: bytes, seconds, bytes per second; 1 GB = 1e9 B as everywhere in
 * collbench. */
#ifndef CB_MODEL_H
#define CB_MODEL_H

#include <stddef.h>

#include "cb_status.h"

/* The most ranks a case may have (the limit of -n and of a fit's rows). */
#define CB_MODEL_MAX_RANKS (1 << 20)

#define CB_MODEL_NAME 64
#define CB_MODEL_PLAN_MAX_STEPS (1u << 20)

/* The parameters a topology or fit file may give: rates (bandwidth, gamma,
 * copy, fused) in [CB_MODEL_MIN_GBPS, CB_MODEL_MAX_GBPS] GB/s, latencies and
 * overheads up to CB_MODEL_MAX_US us. Slower than 1 kB/s or a latency of
 * more than 10 s is no machine's; beyond these bounds times overflow to inf
 * or vanish to 0. */
#define CB_MODEL_MIN_GBPS 1e-6
#define CB_MODEL_MAX_GBPS 1e7
#define CB_MODEL_MAX_US 1e7

struct cb_link {
	double bw;    /* bytes per second per direction, > 0 */
	double alpha; /* seconds per message (latency and synchronisation), >= 0 */
};

enum cb_net_attach { CB_NET_PER_HOST, CB_NET_PER_RANK };

struct cb_topo {
	char name[CB_MODEL_NAME];
	char source[512];          /* where the numbers come from */
	int ranks_per_host;        /* >= 1 */
	struct cb_link intra;      /* each rank's link into its host's fabric */
	struct cb_link net;        /* network link of a host or of a rank; bw 0:
				    * no network (every run must fit one host) */
	enum cb_net_attach net_attach;
	double gamma;              /* reduce rate of a rank, result bytes per second
				    * (> 0; INFINITY: reducing is free) */
	double fused_bw;           /* rate of a one-sided step that reduces its peer's
				    * bytes as it reads them, result bytes per second;
				    * 0: the slower of intra.bw and gamma */
	double copy_bw;            /* a rank's local copy (copy rows), bytes per second */
	double fresh_bw;           /* one-sided: the extra of reading bytes another
				    * rank wrote earlier in the call (cb_plan.fresh:
				    * lines in another CPU's cache), bytes per
				    * second on top of the step's own time; 0: free */
	size_t slice_bytes;        /* the ring's pipelining unit on this kind of host */
	int cpus_per_host;         /* 0: unknown; more ranks than CPUs is time slicing
				    * (see the top of this file) */
	double switch_s;           /* time slicing: seconds per unit of the waits
				    * term (cb_model_terms; 0: not known, free) */
	double wait_frac;          /* and the share of a rank's mean time in a
				    * waited round (up to the scheduler's slice)
				    * it costs (0: none) */
	const int *rank_host;      /* [rank_host_n] host of each rank (a run's
				    * mpi.rank_host); NULL: rank r on host
				    * r / ranks_per_host (mpirun's --map-by slot).
				    * Not part of a topology file. */
	int rank_host_n;
};

struct cb_plan_algo;

/* One collective call to model. */
struct cb_model_case {
	const struct cb_plan_algo *plan; /* the plan it is priced from; NULL: a
					  * local copy on every rank (the copy roofline) */
	int n;             /* ranks, >= 1 */
	size_t count;      /* the collective's count (cb_coll.h; allreduce: elements per rank) */
	size_t esize;      /* bytes per element, >= 1 */
	int root;          /* the plan's root, 0 <= root < n */
	int in_place;
	int two_sided;     /* 1: bytes land, then are reduced (add the terms); 0:
			    * one-sided, the reduce reads the peer's bytes (at the
			    * fused rate): the transport's (cb_catalog.h, one_sided) */
	int slice_auto;    /* two-sided: the slice is the backend's default
			    * (topology slice_bytes), not --slicebytes */
	int servers;       /* the plan's servers (ps --servers); 0: 1 */
	int unsliced;      /* 1: the plan without slices (a library's schedule) */
	int stream;        /* 1: priced as a stream whatever its size (predict,
			    * where no fresh read nor time slicing is priced:
			    * the same price, faster; tests) */
};

/* Sums over the critical path: with one kind of link carrying every byte (all
 * ranks on one host), time = msgs * alpha + link_bytes / bw + reduce_bytes /
 * gamma + fused_bytes * max(1/bw, 1/gamma), linear in (alpha, 1/bw, 1/gamma)
 * once it is known which of bw and gamma is the smaller: what the fit solves
 * for. (A one-sided step that moves L and reduces R bytes adds min(L, R) to
 * fused_bytes and the rest to link_bytes or reduce_bytes: exact when L = R,
 * as in every ring step on one host.) */
struct cb_model_terms {
	double calls;        /* 1 for a call that does anything: its fixed overhead */
	double msgs;         /* latency terms (dependent messages) */
	double link_bytes;   /* bytes of the most loaded link, summed over steps */
	double reduce_bytes; /* bytes reduced by the busiest rank, summed over steps */
	double fused_bytes;  /* bytes moved and reduced at once (one-sided steps) */
	double fresh_bytes;  /* one-sided: bytes read that another rank wrote in the
			      * call, the busiest rank's, summed over steps (at
			      * fresh_bw, on top) */
	double waits;        /* time slicing, summed over the waited rounds (0 on
			      * hosts with a CPU per rank): ranks per CPU + the
			      * peers waited for per CPU, at switch_s each */
	double wait_time;    /* and a rank's mean time in each, up to the
			      * scheduler's slice, seconds, at wait_frac */
};

struct cb_model_result {
	double time;                 /* seconds per call */
	struct cb_model_terms terms;
	int one_class;               /* 1: every byte crossed intra-host links or was
				      * copied locally with copy_bw == intra.bw */
	double txrx_max, txrx_min;   /* bytes sent + received by the busiest and the
				      * least busy rank (docs/timing.md, "Stragglers") */
	double host_max, host_min;   /* bytes out + in of the busiest and the least
				      * busy host's network link(s); 0 on one host */
	const char *what;            /* the modelled schedule, static text */
};

/* Models one call c on topology t (see the top of this file). Errors:
 * CB_ERR_ARG (a case or topology out of range, message in why),
 * CB_ERR_UNSUPPORTED (no plan for the case: the reason in why), CB_ERR_NOMEM. r is filled on CB_OK only. */
enum cb_status cb_model_eval(const struct cb_topo *t, const struct cb_model_case *c,
			     struct cb_model_result *r, char *why, size_t whylen);

struct cb_plan;

/* The plan a case c is priced from on topology t, built as the
 * executors build it (t's slice_bytes and rank placement): *p, cb_plan_free()
 * it. Errors: cb_plan_make's; CB_ERR_ARG for a case without a plan. */
enum cb_status cb_model_case_plan(const struct cb_topo *t, const struct cb_model_case *c,
				  struct cb_plan *p);

#endif
