/* mpi.<name>: a collective's MPI call (cb_mpi_coll_call) with Open MPI's
 * coll/tuned forced to one of its algorithms (collectives/catalog/
 * cb_catalog.h, CB_OMPI_FORCED), on a communicator of its own, so that
 * every algorithm is a row of the same launch.
 *
 * How (Open MPI 4.1.4, found by trying with allreduce): coll/tuned reads
 * coll_tuned_<call>_algorithm (the collective's cb_coll_desc.mpi_tuned)
 * when a communicator is made, and the
 * variable is writable through MPI_T at run time; so set-up writes the
 * algorithm's number, duplicates the world communicator and writes the old
 * value back. coll_tuned_use_dynamic_rules, without which the variable is
 * ignored, is not writable at run time (MPI_T_cvar_write:
 * MPI_T_ERR_CVAR_SET_NEVER): it must be set at launch
 * (OMPI_MCA_coll_tuned_use_dynamic_rules=1; sweep.sh sets it when an mpi.*
 * algorithm is asked for). Alone it changes nothing: with no algorithm
 * forced and no rules file, coll/tuned takes its fixed decision, as without
 * it. Where a check fails (not Open MPI, no MPI_T, no such variable, the
 * number names another algorithm, dynamic rules off) the rows are skipped
 * with the reason, the same on every rank. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo_common.h"
#include "cb_algo_mpi.h"
#include "cb_mpit.h"

#define VAR_RULES "coll_tuned_use_dynamic_rules"
#define VAR_RULES_FILE "coll_tuned_dynamic_rules_filename"

/* Open MPI 4.1's coll components other than tuned that bring a blocking
 * MPI_Allreduce for an intra-communicator of several ranks: when one of them
 * ranks at or above tuned (coll_<name>_priority), the communicator's
 * MPI_Allreduce is its, not tuned's (coll_base_comm_select: the highest
 * priority wins each function; a tie is a toss-up). The others wrap the
 * one below them (sync, cuda, monitoring), bring no blocking allreduce
 * (libnbc, adapt) or serve other communicators (self: one rank; inter). */
static const char *const rivals[] = { "basic", "sm", "han", "hcoll", "ucc", "portals4", "acoll",
				      "xhc" };

struct forced {
	struct cb_backend *be;
	MPI_Comm comm; /* MPI_COMM_NULL when the rows are skipped */
};

/* The name the cvar's enum gives number, into out[len]; "" when none. */
static void enum_name(int idx, int number, char *out, int len)
{
	char name[256], desc[256];
	int nl = sizeof(name), dl = sizeof(desc), verb, bind, scope, nitems = 0;
	MPI_Datatype dt;
	MPI_T_enum et = MPI_T_ENUM_NULL;

	out[0] = '\0';
	if (MPI_T_cvar_get_info(idx, name, &nl, &verb, &dt, &et, desc, &dl, &bind, &scope) !=
		    MPI_SUCCESS || et == MPI_T_ENUM_NULL)
		return;
	nl = sizeof(name);
	if (MPI_T_enum_get_info(et, &nitems, name, &nl) != MPI_SUCCESS)
		return;
	for (int i = 0; i < nitems; i++) {
		int v, il = len;

		if (MPI_T_enum_get_item(et, i, &v, out, &il) == MPI_SUCCESS && v == number)
			return;
		out[0] = '\0';
	}
}

/* 1 when coll component `name` may be selected under the coll framework's
 * list `list` (Open MPI's syntax: "" all, "a,b" only those, "^a,b" all but
 * those). */
static int selectable(const char *list, const char *name)
{
	int exclude = list[0] == '^', found = 0;
	size_t n = strlen(name);

	if (!list[0])
		return 1;
	for (const char *p = list + exclude; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t k = strcspn(p, ",");

		found |= k == n && strncmp(p, name, n) == 0;
	}
	return exclude ? !found : found;
}

/* Why coll/tuned is not the component of d's call into why[len]; ""
 * when it is. What runs is inferred from what Open MPI selects by: the coll
 * list, the priorities, a rules file (4.1's allreduce_intra_dec_dynamic
 * takes a rule from the file before the forced algorithm). */
static void check_component(const struct cb_algo_desc *d, char *why, size_t len)
{
	char list[512], file[512], var[64];
	int tuned = 0, prio;

	if (cb_mpit_str("coll", list, sizeof(list)) == 0 && !selectable(list, "tuned")) {
		snprintf(why, len, "coll/tuned is left out by the coll list '%.200s': it cannot "
			 "force an algorithm", list);
		return;
	}
	if (cb_mpit_str(VAR_RULES_FILE, file, sizeof(file)) == 0 && file[0]) {
		snprintf(why, len, "a rules file decides coll/tuned's %s before a forced "
			 "algorithm (Open MPI 4.1): %s '%.80s'", cb_coll_get(d->coll)->mpi_tuned,
			 VAR_RULES_FILE, file);
		return;
	}
	if (cb_mpit_int(cb_mpit_index("coll_tuned_priority"), 0, &tuned))
		return; /* no priority to compare: take tuned's word */
	for (size_t i = 0; i < sizeof(rivals) / sizeof(rivals[0]); i++) {
		snprintf(var, sizeof(var), "coll_%s_priority", rivals[i]);
		if (cb_mpit_int(cb_mpit_index(var), 0, &prio) || prio < tuned ||
		    (list[0] && !selectable(list, rivals[i])))
			continue;
		snprintf(why, len, "coll/%s's priority %d is not below coll/tuned's %d: coll/%s runs "
			 "MPI_Allreduce, not a forced coll/tuned algorithm", rivals[i], prio, tuned,
			 rivals[i]);
		return;
	}
}

/* The variable that forces d's algorithm: coll_tuned_<call>_algorithm. */
static void var_of(const struct cb_algo_desc *d, char *var, size_t len)
{
	snprintf(var, len, "coll_tuned_%s_algorithm", cb_coll_get(d->coll)->mpi_tuned);
}

/* Why algorithm d cannot be forced here into why[len]; "" when it can.
 * Inside an MPI_T session (check). */
static void check_in(const struct cb_algo_desc *d, char *why, size_t len)
{
	char name[64], var[96];
	int idx, rules = 0;

	var_of(d, var, sizeof(var));
	idx = cb_mpit_index(var);
	if (idx < 0) {
		snprintf(why, len, "this Open MPI has no %s (no coll/tuned?)", var);
		return;
	}
	enum_name(idx, d->library_algo, name, sizeof(name));
	for (char *c = name; *c; c++) /* "in-order_binary" is the row's in_order_binary */
		*c = *c == '-' ? '_' : *c;
	if (strcmp(name, d->name + strlen("mpi.")) != 0) {
		snprintf(why, len, "this Open MPI's %s %d is '%s'; not %s", var, d->library_algo,
			 name, d->name + strlen("mpi."));
		return;
	}
	idx = cb_mpit_index(VAR_RULES);
	if (idx < 0 || cb_mpit_int(idx, 0, &rules) || !rules) {
		snprintf(why, len, "Open MPI forces an algorithm only with OMPI_MCA_%s=1 set at "
			 "launch (sweep.sh sets it for mpi.*)", VAR_RULES);
		return;
	}
	check_component(d, why, len);
}

/* check_in in an MPI_T session of its own: one left open keeps Open MPI's
 * pml monitoring from printing its totals at MPI_Finalize. */
static void check(const struct cb_algo_desc *d, char *why, size_t len)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int n;

	why[0] = '\0';
	if (MPI_Get_library_version(lib, &n) != MPI_SUCCESS || !strstr(lib, "Open MPI")) {
		snprintf(why, len, "not Open MPI: its coll/tuned algorithms are Open MPI's");
		return;
	}
	if (cb_mpit_open()) {
		snprintf(why, len, "MPI_T is not available to force an algorithm");
		return;
	}
	check_in(d, why, len);
	cb_mpit_close();
}

/* NULL when algorithm k can be forced here, else why not (found once). */
static const char *why_not(int k)
{
	static char why[CB_OMPI_NFORCED][400];
	static int done[CB_OMPI_NFORCED];

	if (!done[k])
		check(&cb_desc_mpi_forced[k], why[k], sizeof(why[k]));
	done[k] = 1;
	return why[k][0] ? why[k] : NULL;
}

static const char *forced_supports(int k, const struct cb_backend *be, enum cb_dtype dt,
				   enum cb_op op, int in_place)
{
	static char ranks[CB_OMPI_NFORCED][64];
	const struct cb_algo_desc *d = &cb_desc_mpi_forced[k];
	const char *why = why_not(k);

	if (!why && d->library_ranks && be->world_size != d->library_ranks) {
		snprintf(ranks[k], sizeof(ranks[k]), "Open MPI's %s runs on %d ranks only",
			 d->name + strlen("mpi."), d->library_ranks);
		why = ranks[k];
	}

	return why ? why : cb_mpi_coll_supports(cb_desc_mpi_forced[k].coll, dt, op, in_place);
}

/* Collective over the world: the communicator with algorithm k forced. */
static enum cb_status forced_setup(int k, struct cb_backend *be, void **state)
{
	struct forced *f = calloc(1, sizeof(*f));
	int idx, old = 0, want = cb_desc_mpi_forced[k].library_algo;
	char var[96];
	enum cb_status st = CB_OK;

	*state = NULL;
	if (!f)
		return CB_ERR_NOMEM;
	f->be = be;
	f->comm = MPI_COMM_NULL;
	if (!why_not(k)) { /* the same answer on every rank: all take part or none */
		int opened = cb_mpit_open() == 0;

		var_of(&cb_desc_mpi_forced[k], var, sizeof(var));
		idx = opened ? cb_mpit_index(var) : -1;
		if (idx < 0 || cb_mpit_int(idx, 0, &old) || cb_mpit_int(idx, 1, &want))
			st = CB_ERR_MPI;
		if (st == CB_OK)
			st = CB_MPI(MPI_Comm_dup(be->world, &f->comm));
		if (idx >= 0 && cb_mpit_int(idx, 1, &old) && st == CB_OK)
			st = CB_ERR_MPI;
		if (opened) /* a session left open keeps the monitoring from writing */
			cb_mpit_close();
	}
	if (st != CB_OK) {
		if (f->comm != MPI_COMM_NULL)
			MPI_Comm_free(&f->comm);
		free(f);
		return st;
	}
	*state = f;
	return CB_OK;
}

static enum cb_status forced_run(void *state, const struct cb_run_args *a)
{
	struct forced *f = state;

	return f->comm == MPI_COMM_NULL ? CB_ERR_UNSUPPORTED : cb_mpi_coll_call(f->be, f->comm, a);
}

static void forced_teardown(void *state)
{
	struct forced *f = state;

	if (!f)
		return;
	if (f->comm != MPI_COMM_NULL)
		MPI_Comm_free(&f->comm);
	free(f);
}

/* Each algorithm's supports and setup: the shared ones with its index. */
#define CB_OMPI_OPS(coll, name, number, ranks, schedule, what) \
	static const char *supports_##coll##_##name(const struct cb_backend *be, enum cb_dtype dt, \
						    enum cb_op op, int in_place) \
	{ \
		return forced_supports(CB_OMPI_##coll##_##name, be, dt, op, in_place); \
	} \
	static enum cb_status setup_##coll##_##name(struct cb_backend *be, \
						    const struct cb_setup_args *sa, void **state) \
	{ \
		(void)sa; \
		return forced_setup(CB_OMPI_##coll##_##name, be, state); \
	}
CB_OMPI_FORCED(CB_OMPI_OPS)
#undef CB_OMPI_OPS

#define CB_OMPI_ENTRY(coll, name, number, ranks, schedule, what) \
	[CB_OMPI_##coll##_##name] = { .desc = &cb_desc_mpi_forced[CB_OMPI_##coll##_##name], \
				      .supports = supports_##coll##_##name, \
				      .setup = setup_##coll##_##name, .run = forced_run, \
				      .teardown = forced_teardown },
const struct cb_algo_ops cb_algo_mpi_forced_ops[CB_OMPI_NFORCED] = {
	CB_OMPI_FORCED(CB_OMPI_ENTRY)
};
#undef CB_OMPI_ENTRY
