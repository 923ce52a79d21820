/* cb_libconf: a launch's library configuration, the part of the environment
 * its metadata records ("environment", bench/harness/cb_env.c) that changes
 * which algorithm, protocol, channels or transport a library runs: every
 * OMPI_MCA_* it records (Open MPI's MCA parameters of cb_env.c's prefixes:
 * coll_tuned_*_algorithm forces an algorithm, btl and pml pick transports)
 * but the oversubscription flags
 * mpirun sets itself (placement, not configuration) and
 * coll_tuned_use_dynamic_rules (alone it changes nothing; the mpi.* rows
 * need it: collectives/runtime/mpi/cb_algo_mpi_forced.c), every NCCL_* (NCCL_ALGO,
 * NCCL_PROTO, NCCL_MIN_NCHANNELS, ...) but the logging ones (NCCL_DEBUG,
 * NCCL_DEBUG_SUBSYS, NCCL_DEBUG_FILE), and
 * every UCX_* but UCX_LOG_LEVEL. Rows made under two configurations are two
 * measurements: collbench-compare refuses to judge one against the other,
 * collbench-history keeps them in separate series (docs/regression.md).
 *
 * The same settings from Open MPI's parameter files count as from the
 * environment (cb_libconf_launch).
 *
 * The text form: "NAME=VALUE" entries sorted by name, each ended by '\n';
 * "" when the launch set none (or its metadata is older than the
 * environment record). */
#ifndef CB_LIBCONF_H
#define CB_LIBCONF_H

#include <stddef.h>

#include <jansson.h>

#define CB_LIBCONF_MAX 4096 /* bytes of the text form, its NUL included */

/* 1 when the environment variable `name` is library configuration (above). */
int cb_libconf_var(const char *name);

/* The text form of the library variables of env (a JSON object of string
 * values; NULL: none) into out[cap]. Returns 0, or -1 when env is not such
 * an object or the text does not fit (out then holds "" or the entries
 * that fit). */
int cb_libconf_text(const json_t *env, char *out, size_t cap);

/* The text form of a launch's library settings from its metadata's
 * environment env and its Open MPI parameter-file settings files (the
 * "mca_param_files" entry, bench/harness/cb_mcafiles.h; NULL or JSON null:
 * none, as in metadata older than it), by Open MPI's precedence: a file's
 * setting where the environment does not set the variable, an override
 * file's over both. So a setting counts the same from the environment or a
 * file. Returns as cb_libconf_text; -1 also when files is malformed. */
int cb_libconf_launch(const json_t *env, const json_t *files, char *out, size_t cap);

/* The first variable (by name) whose value differs between the text forms
 * a and b: 1 and its name, and its value in a and in b ("" for unset) into
 * name[len], va[len] and vb[len] (cut to fit); 0 when a and b are equal. */
int cb_libconf_diff(const char *a, const char *b, char *name, char *va, char *vb, size_t len);

/* The text form as one line, entries separated by spaces, into out[cap]
 * (cut to fit): for tables and messages. */
void cb_libconf_line(const char *text, char *out, size_t cap);

#endif
