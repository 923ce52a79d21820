/* cb_model_lib: the library algorithms (mpi: Open MPI 4.1's tuned
 * decision table; nccl: its ring) in closed form, and the names of the
 * algorithms the model knows, which the closed forms' messages use and every
 * file above them reads (the sources and the accounting: cb_model_lib.c). */
#ifndef CB_MODEL_LIB_H
#define CB_MODEL_LIB_H

#include <stddef.h>

#include "cb_model.h"
#include "cb_status.h"

/* Algorithm by its collbench name ("ps", "ring", "copy", "mpi", "nccl").
 * Returns 0, or -1 for another name. */
int cb_model_algo_find(const char *name, enum cb_model_algo *out);
const char *cb_model_algo_name(enum cb_model_algo a);

/* Open MPI 4.1.4's allreduce algorithm for n ranks and count elements of
 * bytes per rank in all: its fixed decision (commutative ops), then its own
 * fall-backs (ring below n elements, Rabenseifner below the largest power of
 * two <= n: recursive doubling), as coll_tuned_allreduce_algorithm numbers
 * it (collectives/catalog/cb_catalog.h, CB_OMPI_ALLREDUCE). */
int cb_model_ompi_choice(int n, size_t bytes, size_t count);

/* The library algorithms, mpi and nccl, in closed form: the contract of
 * cb_model_eval (cb_model.h), which calls it for them. */
enum cb_status cb_model_eval_lib(const struct cb_topo *t, const struct cb_model_case *c,
				 struct cb_model_result *r, char *why, size_t whylen);

#endif
