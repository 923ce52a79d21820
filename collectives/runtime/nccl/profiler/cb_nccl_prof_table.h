/* cb_nccl_prof_table: what collbench's NCCL profiler plugin
 * (libnccl-profiler-collbench.so, cb_nccl_profiler.c) saw, and how the
 * harness reads it. The plugin runs inside the rank's process: NCCL dlopens
 * the file named by NCCL_PROFILER_PLUGIN, and the harness dlopens the same
 * file (the dynamic loader keeps one copy of a library per process, so both
 * reach the same table) and looks up the two functions below by name
 * (CB_NCCL_PROF_SNAPSHOT, CB_NCCL_PROF_CLEAR). Nothing here includes NCCL. */
#ifndef CB_NCCL_PROF_TABLE_H
#define CB_NCCL_PROF_TABLE_H

#define CB_NCCL_PROF_CHOICES 16 /* distinct (algo, proto, channels) kept */

/* One choice NCCL made for a collective, and how many collective events
 * carried it. */
struct cb_nccl_prof_choice {
	char algo[16];  /* NCCL's name: "Ring", "Tree", "NVLS", "NVLSTree", ... */
	char proto[8];  /* "LL", "LL128", "Simple" */
	int nchannels;  /* channels the collective ran on (before NCCL 2.27:
			 * the most it could use, nMaxChannels) */
	unsigned long long calls;
};

struct cb_nccl_prof_table {
	int abi;                     /* the ncclProfiler_v<N> NCCL took; 0: none yet */
	int comms;                   /* communicators that called init, minus finalize */
	unsigned long long events;   /* collective events since the last clear */
	unsigned long long overflow; /* of them, with a choice beyond the table */
	int n;                       /* choices in c */
	struct cb_nccl_prof_choice c[CB_NCCL_PROF_CHOICES];
};

/* In the plugin: copies the table into *out (under its lock), and empties
 * the counts (abi and comms stay). */
typedef void (*cb_nccl_prof_snapshot_fn)(struct cb_nccl_prof_table *out);
typedef void (*cb_nccl_prof_clear_fn)(void);
#define CB_NCCL_PROF_SNAPSHOT "cb_nccl_prof_snapshot"
#define CB_NCCL_PROF_CLEAR "cb_nccl_prof_clear"
#define CB_NCCL_PROF_FILE "libnccl-profiler-collbench.so"

#endif
