/* cb_slurm: whether the Slurm job named in this process's environment is
 * real, for the metadata's "launcher". SLURM_JOB_ID and SLURM_STEP_ID stay
 * in a shell after their job ended (a tmux started inside an allocation
 * keeps them), so their presence says nothing. A process that runs inside
 * a job on this host descends from that job's slurmstepd, whose process
 * title names the job ("slurmstepd: [1234.0]", "[1234.batch]"): an ancestor
 * so named is the scheduler's own word, on this host, with no call to the
 * controller. */
#ifndef CB_SLURM_H
#define CB_SLURM_H

#include <stddef.h>

/* 1 when job (SLURM_JOB_ID's text) is confirmed: a process named slurmstepd
 * whose title names job is an ancestor of this one. Else 0, with why (one
 * line, for the metadata) in why. */
int cb_slurm_job_confirmed(const char *job, char *why, size_t len);

#endif
