#define _GNU_SOURCE
#include "cb_watchdog.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_backend.h"

static struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int running, stop;
	double timeout_s, setup_s;
	volatile int *abort_flag;
	unsigned long seq;      /* bumped by every step */
	int setup;              /* the step is a set-up step */
	int loop;               /* the step is a block of cb_watchdog_loop */
	long tick;              /* its last iteration (cb_watchdog_tick; atomic) */
	char phase[160];
} wd = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cb_watchdog_phase(const char *what, const char *algo, size_t bytes, long iter)
{
	pthread_mutex_lock(&wd.lock);
	wd.seq++;
	wd.setup = wd.loop = 0;
	if (iter >= 0)
		snprintf(wd.phase, sizeof(wd.phase), "%s, %zu B per rank, %s iteration %ld", algo,
			 bytes, what, iter);
	else
		snprintf(wd.phase, sizeof(wd.phase), "%s, %zu B per rank, %s", algo, bytes, what);
	pthread_mutex_unlock(&wd.lock);
}

void cb_watchdog_loop(const char *what, const char *algo, size_t bytes, long first)
{
	pthread_mutex_lock(&wd.lock);
	wd.seq++;
	wd.setup = 0;
	wd.loop = 1;
	__atomic_store_n(&wd.tick, first, __ATOMIC_RELAXED);
	snprintf(wd.phase, sizeof(wd.phase), "%s, %zu B per rank, %s (back to back)", algo, bytes,
		 what);
	pthread_mutex_unlock(&wd.lock);
}

void cb_watchdog_tick(long iter)
{
	__atomic_store_n(&wd.tick, iter, __ATOMIC_RELAXED);
}

void cb_watchdog_setup(const char *what, const char *algo, size_t bytes)
{
	pthread_mutex_lock(&wd.lock);
	wd.seq++;
	wd.setup = 1;
	wd.loop = 0;
	if (*algo || bytes)
		snprintf(wd.phase, sizeof(wd.phase), "%s, %zu B per rank, %s", algo, bytes, what);
	else /* a step of the whole run (teardown) */
		snprintf(wd.phase, sizeof(wd.phase), "%s", what);
	pthread_mutex_unlock(&wd.lock);
}

/* Sleeps on the condition variable until stop or `seconds` pass. */
static void nap(double seconds)
{
	struct timespec ts;
	double t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + seconds;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (!wd.stop)
		pthread_cond_timedwait(&wd.cond, &wd.lock, &ts);
}

/* The bound of the current step, in seconds. */
static double limit(void)
{
	return wd.setup ? wd.setup_s : wd.timeout_s;
}

static void *watch(void *arg)
{
	unsigned long seen;
	long tick;
	double since = now_s(), least = wd.timeout_s < wd.setup_s ? wd.timeout_s : wd.setup_s;
	double every = least / 10 < 0.5 ? least / 10 : 0.5;

	(void)arg;
	pthread_mutex_lock(&wd.lock);
	seen = wd.seq;
	tick = __atomic_load_n(&wd.tick, __ATOMIC_RELAXED);
	while (!wd.stop) {
		long t;

		nap(every);
		t = __atomic_load_n(&wd.tick, __ATOMIC_RELAXED);
		if (wd.seq != seen || (wd.loop && t != tick)) {
			seen = wd.seq;
			tick = t;
			since = now_s();
			continue;
		}
		if (wd.stop || now_s() - since < limit())
			continue;
		if (wd.setup)
			cb_log("watchdog: a set-up step took more than %g s (--setup-timeout) in %s; "
			       "aborting the job", wd.setup_s, wd.phase);
		else if (wd.loop)
			cb_log("watchdog: no progress for %g s in %s, iteration %ld; aborting the job",
			       wd.timeout_s, wd.phase, tick);
		else
			cb_log("watchdog: no progress for %g s in %s; aborting the job", wd.timeout_s,
			       wd.phase);
		if (!*wd.abort_flag) /* the first cause is the one to tell */
			*wd.abort_flag = CB_ABORT_WATCHDOG;
		/* grace: main sees the flag in a backend wait and calls MPI_Abort */
		nap(limit() < 5 ? limit() : 5);
		if (wd.stop)
			break;
		cb_log("watchdog: the abort was not taken within the grace period (a call that "
		       "does not look at the abort flag: MPI, or the plan check); ending this "
		       "process");
		fflush(NULL);
		_exit(CB_EXIT_ABORTED);
	}
	pthread_mutex_unlock(&wd.lock);
	return NULL;
}

enum cb_status cb_watchdog_start(double timeout_s, double setup_s, volatile int *abort_flag)
{
	wd.timeout_s = timeout_s;
	wd.setup_s = setup_s;
	wd.setup = 1;
	wd.abort_flag = abort_flag;
	wd.stop = 0;
	snprintf(wd.phase, sizeof(wd.phase), "start-up");
	if (pthread_create(&wd.thread, NULL, watch, NULL) != 0)
		return CB_ERR_NOMEM;
	wd.running = 1;
	return CB_OK;
}

void cb_watchdog_stop(void)
{
	if (!wd.running)
		return;
	pthread_mutex_lock(&wd.lock);
	wd.stop = 1;
	pthread_cond_signal(&wd.cond);
	pthread_mutex_unlock(&wd.lock);
	pthread_join(wd.thread, NULL);
	wd.running = 0;
}
