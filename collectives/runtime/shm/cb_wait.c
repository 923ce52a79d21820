/* Waiting for a peer's progress counter; see cb_wait.h. */
#define _GNU_SOURCE
#include "cb_wait.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LEGACY_SPINS 4000u    /* collbench 0.1's pauses before the first yield */
#define LIVENESS_EVERY 1024u  /* yield, spin: yields between liveness checks */
#define CLOCK_EVERY 16u       /* polls between clock reads while spinning */
#define TICK_MS_MAX 3600000ul /* an hour */
#define NS_MAX 1000000000ul   /* a second */

static const char *const mode_names[CB_WAIT_MODE_COUNT] = { "futex", "yield", "spin" };

const char *cb_wait_mode_name(enum cb_wait_mode mode)
{
	return mode < CB_WAIT_MODE_COUNT ? mode_names[mode] : "unknown";
}

int cb_wait_mode_parse(const char *name, enum cb_wait_mode *mode)
{
	for (int m = 0; m < CB_WAIT_MODE_COUNT; m++)
		if (strcmp(name, mode_names[m]) == 0) {
			*mode = (enum cb_wait_mode)m;
			return 0;
		}
	return -1;
}

/* 1 and *out when environment variable `name` holds a whole number in
 * [lo, hi]; 0 otherwise (unset, empty, garbage, out of range). */
static int env_number(const char *name, unsigned long lo, unsigned long hi, unsigned long *out)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return 0;
	*out = v;
	return 1;
}

void cb_wait_configure(struct cb_wait_cfg *cfg, enum cb_wait_mode mode, int nprocs, long ncpus)
{
	int over = ncpus > 0 && nprocs > ncpus;
	unsigned long v;

	cfg->mode = mode;
	cfg->spin_ns = over ? CB_WAIT_SPIN_NS_OVER : CB_WAIT_SPIN_NS_FREE;
	cfg->yield_ns = over ? CB_WAIT_YIELD_NS_OVER : CB_WAIT_YIELD_NS_FREE;
	cfg->tick_ms = CB_WAIT_TICK_MS;
	if (env_number("CB_WAIT_SPIN_NS", 0, NS_MAX, &v))
		cfg->spin_ns = (uint32_t)v;
	if (env_number("CB_WAIT_YIELD_NS", 0, NS_MAX, &v))
		cfg->yield_ns = (uint32_t)v;
	if (env_number("CB_WAIT_TICK_MS", 1, TICK_MS_MAX, &v))
		cfg->tick_ms = (uint32_t)v;
	if (mode != CB_WAIT_FUTEX) /* what the other modes do not use reads 0 */
		cfg->yield_ns = cfg->tick_ms = 0;
	if (mode == CB_WAIT_SPIN) /* counted in pauses, not time */
		cfg->spin_ns = 0;
}

void cb_wait_describe(const struct cb_wait_cfg *cfg, char *buf, size_t len)
{
	switch (cfg->mode) {
	case CB_WAIT_FUTEX:
		snprintf(buf, len, "poll %u ns, sched_yield between polls for %u ns, then sleep "
			 "in FUTEX_WAIT until the poster wakes it (%u ms tick)",
			 (unsigned)cfg->spin_ns, (unsigned)cfg->yield_ns, (unsigned)cfg->tick_ms);
		return;
	case CB_WAIT_YIELD:
		snprintf(buf, len, "poll %u ns, then sched_yield between polls",
			 (unsigned)cfg->spin_ns);
		return;
	case CB_WAIT_SPIN:
	case CB_WAIT_MODE_COUNT:
		break;
	}
	snprintf(buf, len, "%u pause instructions, then sched_yield between polls (collbench 0.1)",
		 LEGACY_SPINS);
}

void cb_flag_init(struct cb_flag *f)
{
	atomic_store(&f->progress, 0);
	atomic_store(&f->waiters, 0);
	f->pid = (int32_t)getpid();
}

/* The 32-bit half of the counter that holds its low bits: what futexes see. */
static uint32_t *futex_word(struct cb_flag *f)
{
	uint32_t *w = (uint32_t *)(void *)&f->progress;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w++;
#endif
	return w;
}

void cb_flag_post(struct cb_flag *f, uint64_t value)
{
	/* a full fence: orders non-temporal stores of a large memcpy too */
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&f->progress, value, memory_order_seq_cst);
	/* store, then load: pairs with the waiter's increment, then re-read */
	if (atomic_load_explicit(&f->waiters, memory_order_seq_cst))
		syscall(SYS_futex, futex_word(f), FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

int cb_flag_owner_alive(const struct cb_flag *f)
{
	return kill((pid_t)f->pid, 0) == 0 || errno != ESRCH;
}

int cb_flag_ready(struct cb_flag *f, uint64_t value)
{
	return atomic_load_explicit(&f->progress, memory_order_acquire) >= value;
}

static int ready(struct cb_flag *f, uint64_t value)
{
	return cb_flag_ready(f, value);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Polls for about ns nanoseconds; 1 as soon as value is there. */
static int spin_for(struct cb_flag *f, uint64_t value, uint32_t ns)
{
	uint64_t end;

	if (ns == 0)
		return 0;
	end = now_ns() + ns;
	for (unsigned i = 1;; i++) {
		if (ready(f, value))
			return 1;
		cpu_relax();
		if (i % CLOCK_EVERY == 0 && now_ns() >= end)
			return ready(f, value);
	}
}

/* Yields between polls for about ns; 1 as soon as value is there, 0 when the
 * time is up or the abort flag is set. */
static int yield_for(struct cb_flag *f, uint64_t value, uint32_t ns, volatile int *abort_flag,
		     struct cb_wait_stats *stats)
{
	uint64_t end;

	if (ns == 0)
		return 0;
	end = now_ns() + ns;
	for (;;) {
		if (ready(f, value))
			return 1;
		if (*abort_flag)
			return 0;
		sched_yield();
		stats->yields++;
		if (now_ns() >= end)
			return ready(f, value);
	}
}

/* Yields between polls until value, the abort flag or the owner's death. */
static enum cb_status yield_until(struct cb_flag *f, uint64_t value, volatile int *abort_flag,
				  struct cb_wait_stats *stats)
{
	for (unsigned long polls = 1;; polls++) {
		if (ready(f, value))
			return CB_OK;
		sched_yield();
		stats->yields++;
		if (*abort_flag) /* a peer's death is why, if it is gone */
			return cb_flag_owner_alive(f) ? CB_ERR_TIMEOUT : CB_ERR_PEER;
		if (polls % LIVENESS_EVERY == 0 && !cb_flag_owner_alive(f))
			return CB_ERR_PEER;
	}
}

/* Sleeps in the kernel until value; wakes at each tick to check the abort
 * flag and the owner's liveness. See cb_wait.h for why no wake-up is lost. */
static enum cb_status sleep_until(struct cb_flag *f, uint64_t value, const struct cb_wait_cfg *cfg,
				  volatile int *abort_flag, struct cb_wait_stats *stats)
{
	struct timespec tick = { (time_t)(cfg->tick_ms / 1000),
				 (long)(cfg->tick_ms % 1000) * 1000000L };
	enum cb_status st = CB_OK;

	atomic_fetch_add_explicit(&f->waiters, 1, memory_order_seq_cst);
	for (;;) {
		uint64_t seen = atomic_load_explicit(&f->progress, memory_order_seq_cst);

		if (seen >= value)
			break;
		if (*abort_flag) { /* a peer's death is why, if it is gone */
			st = cb_flag_owner_alive(f) ? CB_ERR_TIMEOUT : CB_ERR_PEER;
			break;
		}
		stats->sleeps++;
		/* returns at a wake, at the tick, at once if the word moved (EAGAIN),
		 * or on a signal (EINTR): every case re-reads the counter */
		if (syscall(SYS_futex, futex_word(f), FUTEX_WAIT, (uint32_t)seen, &tick, NULL, 0) ==
			    -1 &&
		    errno == ETIMEDOUT) {
			stats->ticks++;
			if (!cb_flag_owner_alive(f)) {
				st = CB_ERR_PEER;
				break;
			}
		}
	}
	atomic_fetch_sub_explicit(&f->waiters, 1, memory_order_seq_cst);
	return st;
}

enum cb_status cb_flag_wait(struct cb_flag *f, uint64_t value, const struct cb_wait_cfg *cfg,
			    volatile int *abort_flag, struct cb_wait_stats *stats)
{
	struct cb_wait_stats scratch;

	if (ready(f, value))
		return CB_OK;
	if (!stats) {
		memset(&scratch, 0, sizeof(scratch));
		stats = &scratch;
	}
	stats->waits++;
	switch (cfg->mode) {
	case CB_WAIT_FUTEX:
		if (spin_for(f, value, cfg->spin_ns))
			return CB_OK;
		if (yield_for(f, value, cfg->yield_ns, abort_flag, stats))
			return CB_OK;
		return sleep_until(f, value, cfg, abort_flag, stats);
	case CB_WAIT_YIELD:
		if (spin_for(f, value, cfg->spin_ns))
			return CB_OK;
		return yield_until(f, value, abort_flag, stats);
	case CB_WAIT_SPIN:
	case CB_WAIT_MODE_COUNT:
		break;
	}
	for (unsigned i = 0; i < LEGACY_SPINS; i++) {
		if (ready(f, value))
			return CB_OK;
		cpu_relax();
	}
	return yield_until(f, value, abort_flag, stats);
}
