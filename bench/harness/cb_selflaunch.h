/* cb_selflaunch: nccl-tests' one-box form without mpirun. nccl-tests runs
 * `all_reduce_perf -g 8` as one process driving 8 GPUs (-t T threads of -g
 * N GPUs each: T*N ranks); collbench runs one rank per process under MPI.
 * Started alone (no launcher in the environment), -g/-t above 1 starts the
 * same binary with the same arguments less -g and -t under `mpirun -np
 * T*N` and returns its exit status: the mpirun of the MPI the binary was
 * built with (CMake's MPIEXEC_EXECUTABLE), else mpirun on PATH. Decided
 * before MPI_Init; the parent never initialises MPI or CUDA. Under a
 * launcher -g/-t above 1 stay refused (cb_options_nccl_check).
 *
 * The ranks learn that they were started so from CB_SELFLAUNCH in their
 * environment (also the guard against a launch from a launch), which the
 * metadata's "launcher" records (cb_selflaunch_meta). CB_MPIRUN names the
 * mpirun to use instead of the built-in one (tests). docs/running.md, "One
 * box without mpirun". */
#ifndef CB_SELFLAUNCH_H
#define CB_SELFLAUNCH_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

/* The most ranks -t*-g start: -t's and -g's own bound (cb_options.c). */
#define CB_SELFLAUNCH_MAX_RANKS 1024

struct cb_selflaunch {
	int np;                /* ranks: T*N */
	char from[64];         /* what asked for them: "-g 2", "-t 2 -g 4" */
	int rank_argc;         /* each rank's arguments: argv less -g and -t */
	char **rank_argv;      /* [rank_argc + 1], NULL-terminated; strings are argv's */
	char mpirun[4096];     /* the launcher's path, once found */
	char notes[384];       /* what the launch adds for this host, "" if nothing */
	int typed_argc;        /* the command as typed (-g/-t included) */
	char **typed_argv;     /* argv itself, not owned */
	int argc;              /* the whole launch: mpirun -np N [flags] PROG ARGS */
	char **argv;           /* [argc + 1], NULL-terminated */
};

/* The launcher that started this process, from its environment: the name
 * of the variable that says so (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK,
 * PMI_SIZE, MV2_COMM_WORLD_RANK, SLURM_PROCID of a Slurm step of more than
 * one task, CB_SELFLAUNCH), or NULL when none did. */
const char *cb_selflaunch_launcher_var(void);

/* Whether argv (before a "--") asks for more than one rank with -t/-g
 * (-g N, -gN, --ngpus N, --ngpus=N; the last of each wins) and no launcher
 * started this process: 1 with sl's np, from and rank_argv filled (the
 * caller calls cb_selflaunch_free), else 0 and sl cleared. Values the
 * option table would refuse (not integers, outside 1..1024, more than 1024
 * ranks) give 0: the parser says why. Returns -1 out of memory. */
int cb_selflaunch_wanted(struct cb_selflaunch *sl, int argc, char **argv);

/* For the cuda backend (one GPU each rank): CB_ERR_ARG with the reason in
 * err when this host shows fewer GPUs than sl->np where that is known
 * without CUDA (CUDA_VISIBLE_DEVICES, else /proc/driver/nvidia/gpus);
 * CB_OK when enough or unknown (a rank then shares a GPU, as under mpirun). */
enum cb_status cb_selflaunch_check_gpus(const struct cb_selflaunch *sl, char *err, size_t len);

/* Finds the launcher (CB_MPIRUN if set, else the built-in MPIEXEC path,
 * then mpirun on PATH) and builds sl's launch argv with what this host
 * needs (Open MPI: --oversubscribe where the ranks outnumber the cores this
 * process may use; as root OMPI_ALLOW_RUN_AS_ROOT and its confirmation, set
 * in this process's environment for the launch), said in sl->notes.
 * Errors: CB_ERR_ARG with a message naming what is missing and the command
 * to run instead in err; CB_ERR_NOMEM. */
enum cb_status cb_selflaunch_prepare(struct cb_selflaunch *sl, char *err, size_t len);

/* The launch as one line ("mpirun -np 2 ./all_reduce_perf -b 8"), words
 * quoted for a shell where they need it, into buf (len bytes, truncated). */
void cb_selflaunch_line(const struct cb_selflaunch *sl, char *buf, size_t len);

/* Runs the launch and waits for it: CB_SELFLAUNCH set for the ranks, stdin
 * from /dev/null, the launcher in its own process group (ended with this
 * process, PR_SET_PDEATHSIG); SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2
 * are forwarded to it once each (a repeat within a second, e.g. timeout(1)'s
 * second copy, is dropped). Returns the launcher's exit status; 3 (aborted)
 * naming the signal when a signal ended it, or when it failed after a
 * forwarded one (Open MPI's mpirun then exits 1). */
int cb_selflaunch_run(struct cb_selflaunch *sl);

/* Takes the words equal to word out of the launch (argv after the
 * program's name), e.g. --check-args for the line a dry run shows. */
void cb_selflaunch_drop(struct cb_selflaunch *sl, const char *word);

void cb_selflaunch_free(struct cb_selflaunch *sl);

/* The signals a run stops on, SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2
 * (a rank ends on them; the self-launcher forwards them to mpirun): handler
 * (or SIG_DFL) installed for each, with SA_RESTART. */
void cb_stop_signals_set(void (*handler)(int));

/* In a rank started by cb_selflaunch_run: {"ranks": N, "from": "-g 2",
 * "command": "mpirun -np 2 ...", "notes": "...", "typed": the command as
 * the user typed it, -g included}, else NULL (new reference). */
json_t *cb_selflaunch_meta(void);

/* The header's words for it: " (self-launched for -g 2: 2 ranks; notes)",
 * or nothing when meta is NULL. */
void cb_selflaunch_print(FILE *f, json_t *meta);

#endif
