/* cb_selflaunch: what -g/-t ask for, the launcher and its command line
 * (contract in cb_selflaunch.h; the launch itself: cb_selflaunch_run.c). */
#define _GNU_SOURCE
#include "cb_selflaunch.h"

#include <dirent.h>
#include <errno.h>
#include <mpi.h> /* OPEN_MPI: which launcher's flags */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_mpiexec.h" /* CB_MPIEXEC: CMake's MPIEXEC_EXECUTABLE */
#include "cb_text.h"

#define MAX_RANKS CB_SELFLAUNCH_MAX_RANKS

/* The first variable of a launcher's in this environment, from vars[from]
 * on (0: CB_SELFLAUNCH too), or NULL. */
static const char *launcher_var(size_t from)
{
	static const char *const vars[] = { "CB_SELFLAUNCH", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
					    "PMI_RANK", "PMI_SIZE", "MV2_COMM_WORLD_RANK" };
	const char *tasks = getenv("SLURM_STEP_NUM_TASKS");

	for (size_t i = from; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]))
			return vars[i];
	/* a Slurm step of one task (srun --pty bash) is a shell like any
	 * other; SLURM_PROCID in a step of several is one of its ranks */
	if (getenv("SLURM_PROCID") && getenv("SLURM_STEP_ID") && tasks && atoi(tasks) > 1)
		return "SLURM_PROCID";
	return NULL;
}

const char *cb_selflaunch_launcher_var(void)
{
	return launcher_var(0);
}

/* Whether w is -t or -g (or a long name): 1 alone (its value follows), 2
 * with its value (-g8, --ngpus=8), else 0; *which: 't' or 'g'; *val: the
 * value's text when 2. */
static int procs_word(const char *w, char *which, const char **val)
{
	static const char *const names[] = { "-t", "-g", "--nthreads", "--ngpus" };

	for (int k = 0; k < 4; k++) {
		size_t n = strlen(names[k]);

		*which = k % 2 ? 'g' : 't';
		if (strcmp(w, names[k]) == 0)
			return 1;
		if (strncmp(w, names[k], n) == 0 && (k < 2 || w[n] == '=')) {
			*val = w + n + (k >= 2);
			return 2;
		}
	}
	return 0;
}

/* v as -t's or -g's value: an integer in [1, MAX_RANKS], else 0. */
static int procs_value(const char *v)
{
	char *end;
	long x;

	errno = 0;
	x = v ? strtol(v, &end, 0) : 0;
	return v && !errno && end != v && !*end && x >= 1 && x <= MAX_RANKS ? (int)x : 0;
}

/* -t's and -g's values from argv into t, g (0: not an accepted value); the
 * other words into sl->rank_argv. */
static void split_argv(struct cb_selflaunch *sl, int argc, char **argv, int *t, int *g)
{
	int dashdash = 0;

	sl->rank_argv[sl->rank_argc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		char which;
		int w = dashdash ? 0 : procs_word(argv[i], &which, &val);

		dashdash |= strcmp(argv[i], "--") == 0;
		if (!w) {
			sl->rank_argv[sl->rank_argc++] = argv[i];
			continue;
		}
		if (w == 1)
			val = ++i < argc ? argv[i] : NULL;
		*(which == 't' ? t : g) = procs_value(val);
	}
	sl->rank_argv[sl->rank_argc] = NULL;
}

int cb_selflaunch_wanted(struct cb_selflaunch *sl, int argc, char **argv)
{
	int t = 1, g = 1;

	memset(sl, 0, sizeof(*sl));
	if (cb_selflaunch_launcher_var())
		return 0;
	sl->rank_argv = calloc((size_t)argc + 1, sizeof(*sl->rank_argv));
	if (!sl->rank_argv)
		return -1;
	split_argv(sl, argc, argv, &t, &g);
	if (t == 0 || g == 0 || t * g == 1 || t * g > MAX_RANKS) {
		cb_selflaunch_free(sl);
		return 0;
	}
	sl->np = t * g;
	sl->typed_argc = argc;
	sl->typed_argv = argv;
	if (t > 1 && g > 1)
		snprintf(sl->from, sizeof(sl->from), "-t %d -g %d", t, g);
	else
		snprintf(sl->from, sizeof(sl->from), "-%c %d", t > 1 ? 't' : 'g', t > 1 ? t : g);
	return 1;
}

/* GPUs this host shows without CUDA: CUDA_VISIBLE_DEVICES' entries (up to
 * an empty one, or "-1", where CUDA stops reading it), else
 * /proc/driver/nvidia/gpus' entries; -1 unknown. *from: which. */
static int gpus_known(const char **from)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	int n = 0;
	DIR *d;
	struct dirent *e;

	if (cvd) {
		*from = "CUDA_VISIBLE_DEVICES";
		for (const char *p = cvd; *p && *p != ',' && strncmp(p, "-1", 2) != 0;) {
			n++;
			p = strchr(p, ',');
			if (!p)
				break;
			p++;
		}
		return n;
	}
	*from = "/proc/driver/nvidia/gpus";
	d = opendir(*from);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

enum cb_status cb_selflaunch_check_gpus(const struct cb_selflaunch *sl, char *err, size_t len)
{
	const char *from;
	int n = gpus_known(&from);

	if (n < 0 || n >= sl->np)
		return CB_OK;
	snprintf(err, len, "%s: %d ranks, one GPU each, but this host shows %d GPU(s) (%s); "
		 "ask for at most %d, or start the ranks with mpirun to share GPUs", sl->from,
		 sl->np, n, from, n);
	return CB_ERR_ARG;
}

/* Whether path names a file this process may execute. */
static int executable(const char *path)
{
	return *path && access(path, X_OK) == 0;
}

/* mpirun on PATH into buf; 0 if none. */
static int on_path(char *buf, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path; p && *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, len, "%.*s/mpirun", (int)n, n ? p : ".");
		if (executable(buf))
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

/* The cores this process may run on: distinct (package, core) pairs of
 * the CPUs in its affinity mask, as Open MPI counts its slots; the CPUs
 * where the topology is unreadable. */
static int cores(void)
{
	static int seen[CPU_SETSIZE];
	cpu_set_t set;
	int n = 0, cpus = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		char path[96];
		int pkg = -1, core = -1, known = 1, k;
		FILE *f;

		if (!CPU_ISSET(c, &set))
			continue;
		cpus++;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
		known &= (f = fopen(path, "r")) && fscanf(f, "%d", &core) == 1;
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		known &= (f = fopen(path, "r")) && fscanf(f, "%d", &pkg) == 1;
		if (f)
			fclose(f);
		if (!known || core < 0 || pkg < 0)
			return CPU_COUNT(&set);
		for (k = 0; k < n && seen[k] != pkg * 65536 + core; k++)
			;
		if (k == n)
			seen[n++] = pkg * 65536 + core;
	}
	return n ? n : cpus;
}

/* The launcher's path into sl->mpirun: CB_MPIRUN or the built-in one if
 * it is executable, else mpirun on PATH; 0 with *tried naming the first
 * candidate when none is there. */
static int find_mpirun(struct cb_selflaunch *sl, const char **tried)
{
	const char *env = getenv("CB_MPIRUN");

	*tried = env ? env : CB_MPIEXEC;
	snprintf(sl->mpirun, sizeof(sl->mpirun), "%s", *tried);
	return executable(sl->mpirun) || on_path(sl->mpirun, sizeof(sl->mpirun));
}

/* Open MPI's needs on this host, as flags in flags[] (up to 2) and words
 * in sl->notes; the environment for them set. Returns the flag count. */
static int host_needs(struct cb_selflaunch *sl, const char **flags, int set_env)
{
	int nf = 0, nc = cores();
	size_t k = 0;

#ifdef OPEN_MPI
	if (sl->np > nc) {
		flags[nf++] = "--oversubscribe";
		k += (size_t)snprintf(sl->notes + k, sizeof(sl->notes) - k, "--oversubscribe: %d "
				      "ranks on %d core(s)", sl->np, nc);
	}
	if (geteuid() == 0) {
		if (set_env) {
			setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
			setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
		}
		snprintf(sl->notes + k, sizeof(sl->notes) - k, "%sOMPI_ALLOW_RUN_AS_ROOT=1 "
			 "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1: running as root", k ? "; " : "");
	}
#else
	(void)nc, (void)set_env;
#endif
	return nf;
}

enum cb_status cb_selflaunch_prepare(struct cb_selflaunch *sl, char *err, size_t len)
{
	const char *flags[2], *tried;
	char np[16], line[1024];
	int found = find_mpirun(sl, &tried), nf, a = 0;

	if (!found)
		snprintf(sl->mpirun, sizeof(sl->mpirun), "mpirun");
	nf = host_needs(sl, flags, found);
	free(sl->argv);
	sl->argv = calloc((size_t)(sl->rank_argc + nf + 4), sizeof(*sl->argv));
	if (!sl->argv)
		return CB_ERR_NOMEM;
	snprintf(np, sizeof(np), "%d", sl->np);
	sl->argv[a++] = sl->mpirun;
	sl->argv[a++] = "-np";
	sl->argv[a++] = strdup(np);
	for (int i = 0; i < nf; i++)
		sl->argv[a++] = (char *)flags[i];
	for (int i = 0; i < sl->rank_argc; i++)
		sl->argv[a++] = sl->rank_argv[i];
	sl->argc = a;
	if (!sl->argv[2])
		return CB_ERR_NOMEM;
	if (found)
		return CB_OK;
	cb_selflaunch_line(sl, line, sizeof(line));
	snprintf(err, len, "%s: %d ranks on this host, one process each, started with mpirun; "
		 "no mpirun found: %s%s, and none on PATH. Install the mpirun of the MPI this "
		 "binary was built with, or start the ranks yourself: %s", sl->from, sl->np,
		 *tried ? tried : "the build names none", !*tried ? "" : getenv("CB_MPIRUN") ?
		 " (CB_MPIRUN) is not an executable file" : " (the build's MPI) is not an "
		 "executable file", line);
	return CB_ERR_ARG;
}

/* w quoted for a shell when it holds anything but [A-Za-z0-9_./=,:+@%-]. */
static void put_word(char *buf, size_t len, const char *w)
{
	size_t k = strlen(buf);
	int plain = *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789_./=,:+@%-") == strlen(w);

	if (k + 1 >= len)
		return;
	if (plain) {
		snprintf(buf + k, len - k, "%s%s", k ? " " : "", w);
		return;
	}
	k += (size_t)snprintf(buf + k, len - k, "%s'", k ? " " : "");
	for (; *w && k + 5 < len; w++)
		k += (size_t)snprintf(buf + k, len - k, *w == '\'' ? "'\\''" : "%c", *w);
	if (k + 1 < len)
		snprintf(buf + k, len - k, "'");
}

void cb_selflaunch_line(const struct cb_selflaunch *sl, char *buf, size_t len)
{
	if (!len)
		return;
	*buf = '\0';
	for (int i = 0; i < sl->argc; i++)
		put_word(buf, len, sl->argv[i]);
}

void cb_selflaunch_drop(struct cb_selflaunch *sl, const char *word)
{
	int k = 0, prog = 1;

	for (int i = 0; i < sl->argc; i++) {
		prog &= sl->argv[i] != sl->rank_argv[0];
		if (prog || strcmp(sl->argv[i], word) != 0)
			sl->argv[k++] = sl->argv[i];
	}
	sl->argc = k;
	sl->argv[k] = NULL;
}

void cb_selflaunch_free(struct cb_selflaunch *sl)
{
	if (sl->argv)
		free(sl->argv[2]);
	free(sl->argv);
	free(sl->rank_argv);
	memset(sl, 0, sizeof(*sl));
}

json_t *cb_selflaunch_meta(void)
{
	const char *v = getenv("CB_SELFLAUNCH");
	char *copy, *f[5] = { NULL, NULL, NULL, NULL, NULL };
	json_t *j = NULL;

	/* the marker alone (left in a shell) is no launch */
	if (!v || !launcher_var(1) || !(copy = strdup(v)))
		return NULL;
	f[0] = copy;
	for (int i = 1; i < 5 && f[i - 1]; i++)
		if ((f[i] = strchr(f[i - 1], '\t')))
			*f[i]++ = '\0';
	if (f[4])
		j = json_pack("{s:i,s:o,s:o,s:o,s:o}", "ranks", atoi(f[0]), "from", cb_json_text(f[1]),
			      "command", cb_json_text(f[2]), "notes", cb_json_text(f[3]), "typed",
			      cb_json_text(f[4]));
	free(copy);
	return j;
}

void cb_selflaunch_print(FILE *f, json_t *meta)
{
	const char *notes = json_string_value(json_object_get(meta, "notes"));

	if (!meta)
		return;
	fprintf(f, " (self-launched for %s: %lld ranks, %s%s%s)",
		json_string_value(json_object_get(meta, "from")),
		(long long)json_integer_value(json_object_get(meta, "ranks")),
		json_string_value(json_object_get(meta, "command")), notes && *notes ? "; " : "",
		notes ? notes : "");
}
