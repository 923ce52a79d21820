/* cb_model_tslice: the two numbers the cost model's time slicing
 * (cb_model.h) takes from a topology: how many ranks share a CPU, and how
 * long the scheduler lets one run. */
#ifndef CB_MODEL_TSLICE_H
#define CB_MODEL_TSLICE_H

#include "cb_model.h"

/* Time slicing (cb_model.h): ranks per CPU of the fullest
 * host of n ranks on t with more ranks than CPUs, 0 where every host has a
 * CPU per rank or t->cpus_per_host is 0 (unknown). */
double cb_model_ranks_per_cpu(const struct cb_topo *t, int n);

/* The Linux scheduler's default base slice on cpus CPUs, seconds:
 * 0.75 ms * (1 + floor(log2 min(cpus, 8))) (kernel/sched/fair.c). */
double cb_model_base_slice(int cpus);

/* A call in which no rank waits, of own seconds with a CPU per rank, at q
 * ranks per CPU on t: run alone until the scheduler's slice, then shared,
 * own + (q - 1) * max(0, own - slice) (cb_model.h); own for q = 0. */
double cb_model_stretch(const struct cb_topo *t, double q, double own);

#endif
