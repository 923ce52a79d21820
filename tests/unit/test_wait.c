/* Unit tests of cb_wait (waiting for a peer's progress counter) with fork()ed
 * processes over a shared anonymous mapping, the way ranks share an MPI
 * window: a waiter asleep in the kernel is woken by a post, by the watchdog
 * (abort flag) and by a dead peer; no wake-up is lost when 8 processes run
 * the ring's and the parameter server's flag patterns thousands of times
 * (on a 2-core machine: oversubscribed, most waits sleep). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cb_wait.h"
#include "cb_watchdog.h"

#define NPROCS 8
#define HOUR_MS 3600000u /* a tick no test waits for: a lost wake-up hangs */
#define DEADLINE_S 60    /* a child still running after this has hung */

/* What parent and children share. */
struct shared {
	struct cb_flag flag[NPROCS];
	struct cb_wait_stats stats[NPROCS];
	int status[NPROCS]; /* enum cb_status of each child's waits */
};

static struct shared *sh;
static volatile int abort_flag;

static int setup(void **state)
{
	(void)state;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -1;
	memset(sh, 0, sizeof(*sh));
	for (int i = 0; i < NPROCS; i++)
		cb_flag_init(&sh->flag[i]);
	abort_flag = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return munmap(sh, sizeof(*sh));
}

static struct cb_wait_cfg sleeper(uint32_t tick_ms)
{
	struct cb_wait_cfg c = { CB_WAIT_FUTEX, 0, 0, tick_ms };

	return c;
}

/* State letter of a process from /proc/PID/stat ('S': asleep), '?' if unknown. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : '?';
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Waits until pid sleeps in the kernel with `waiters` waiters announced on
 * flag f; fails the test after DEADLINE_S. */
static void await_sleeper(pid_t pid, int f, uint32_t waiters)
{
	for (int ms = 0; ms < DEADLINE_S * 1000; ms++) {
		if (atomic_load(&sh->flag[f].waiters) == waiters && proc_state(pid) == 'S')
			return;
		sleep_ms(1);
	}
	fail_msg("process %d never went to sleep on flag %d", (int)pid, f);
}

/* Reaps pid within DEADLINE_S; returns its exit status, fails on a signal. */
static int reap(pid_t pid)
{
	int ws = 0;

	for (int ms = 0; ms < DEADLINE_S * 1000; ms++) {
		pid_t r = waitpid(pid, &ws, WNOHANG);

		if (r == pid) {
			if (WIFSIGNALED(ws))
				fail_msg("process %d ended on signal %d (a hang: lost wake-up?)",
					 (int)pid, WTERMSIG(ws));
			return WEXITSTATUS(ws);
		}
		sleep_ms(1);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &ws, 0);
	fail_msg("process %d did not return within %d s", (int)pid, DEADLINE_S);
	return -1;
}

/* A child that waits for flag f to reach value with cfg, records the result
 * in slot `slot` and exits. */
static pid_t fork_waiter(int f, uint64_t value, struct cb_wait_cfg cfg, int slot)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(DEADLINE_S);
		sh->status[slot] = (int)cb_flag_wait(&sh->flag[f], value, &cfg, &abort_flag,
						     &sh->stats[slot]);
		_exit(0);
	}
	return pid;
}

static void test_post_wakes_sleeper(void **state)
{
	pid_t w;

	(void)state;
	w = fork_waiter(0, 1, sleeper(HOUR_MS), 1);
	await_sleeper(w, 0, 1);
	cb_flag_post(&sh->flag[0], 1);
	assert_int_equal(reap(w), 0);
	assert_int_equal(sh->status[1], CB_OK);
	assert_true(sh->stats[1].sleeps >= 1);
	assert_int_equal(sh->stats[1].ticks, 0); /* the post woke it, not the tick */
	assert_int_equal(atomic_load(&sh->flag[0].waiters), 0);
}

/* The waiter runs the real watchdog; it fires while the waiter sleeps. */
static void test_watchdog_wakes_sleeper(void **state)
{
	pid_t w;

	(void)state;
	w = fork();
	assert_true(w >= 0);
	if (w == 0) {
		struct cb_wait_cfg cfg = sleeper(CB_WAIT_TICK_MS);

		alarm(DEADLINE_S);
		if (cb_watchdog_start(0.5, 0.5, &abort_flag) != CB_OK)
			_exit(2);
		sh->status[1] = (int)cb_flag_wait(&sh->flag[0], 1, &cfg, &abort_flag,
						  &sh->stats[1]);
		cb_watchdog_stop();
		_exit(0);
	}
	await_sleeper(w, 0, 1);
	/* exit status CB_EXIT_ABORTED: the watchdog's grace ran out, the wait
	 * never noticed the flag */
	assert_int_equal(reap(w), 0);
	assert_int_equal(sh->status[1], CB_ERR_TIMEOUT);
	assert_true(sh->stats[1].sleeps >= 1);
	assert_int_equal(atomic_load(&sh->flag[0].waiters), 0);
}

static void test_dead_peer_wakes_sleeper(void **state)
{
	pid_t peer, w;

	(void)state;
	peer = fork();
	assert_true(peer >= 0);
	if (peer == 0) { /* owns flag 0, never posts */
		cb_flag_init(&sh->flag[0]);
		for (;;)
			pause();
	}
	for (int ms = 0; ms < DEADLINE_S * 1000 && sh->flag[0].pid != peer; ms++)
		sleep_ms(1);
	assert_int_equal(sh->flag[0].pid, peer);
	w = fork_waiter(0, 1, sleeper(CB_WAIT_TICK_MS), 1);
	await_sleeper(w, 0, 1);
	assert_true(cb_flag_owner_alive(&sh->flag[0]));
	kill(peer, SIGKILL);
	waitpid(peer, NULL, 0); /* reaped: kill(pid, 0) now says ESRCH */
	assert_int_equal(reap(w), 0);
	assert_int_equal(sh->status[1], CB_ERR_PEER);
	assert_true(sh->stats[1].ticks >= 1);
}

/* Every mode returns at once for a value already there, and gives up when
 * the abort flag is set before the value comes. */
static void test_modes_ready_and_abort(void **state)
{
	(void)state;
	cb_flag_post(&sh->flag[0], 5);
	for (int m = 0; m < CB_WAIT_MODE_COUNT; m++) {
		struct cb_wait_cfg cfg;

		cb_wait_configure(&cfg, (enum cb_wait_mode)m, 2, 2);
		assert_int_equal(cb_flag_wait(&sh->flag[0], 5, &cfg, &abort_flag, NULL), CB_OK);
		abort_flag = 1;
		assert_int_equal(cb_flag_wait(&sh->flag[0], 6, &cfg, &abort_flag, NULL),
				 CB_ERR_TIMEOUT);
		abort_flag = 0;
	}
}

enum pattern { TOKEN, RING, PS };

/* Process i's part of one round k >= 1 of a flag pattern:
 *   TOKEN: a token passed around the ring, one process awake at a time;
 *   RING:  post, then wait for both neighbours (the ring's entry wait: two
 *          waiters on every flag);
 *   PS:    the parameter server's protocol (cb_algo_ps.c), root 0: seven
 *          waiters on the root's flag. */
static enum cb_status round_of(enum pattern p, int i, uint64_t k, const struct cb_wait_cfg *cfg,
			       struct cb_wait_stats *st)
{
	int left = (i + NPROCS - 1) % NPROCS, right = (i + 1) % NPROCS;
	uint64_t base = 2 * (k - 1);
	enum cb_status s = CB_OK;

	switch (p) {
	case TOKEN:
		if (i != 0)
			s = cb_flag_wait(&sh->flag[left], k, cfg, &abort_flag, st);
		cb_flag_post(&sh->flag[i], k);
		if (s == CB_OK && i == 0)
			s = cb_flag_wait(&sh->flag[left], k, cfg, &abort_flag, st);
		return s;
	case RING:
		cb_flag_post(&sh->flag[i], k);
		s = cb_flag_wait(&sh->flag[left], k, cfg, &abort_flag, st);
		return s == CB_OK ? cb_flag_wait(&sh->flag[right], k, cfg, &abort_flag, st) : s;
	case PS:
		break;
	}
	if (i == 0) {
		for (int w = 1; w < NPROCS && s == CB_OK; w++)
			s = cb_flag_wait(&sh->flag[w], base + 1, cfg, &abort_flag, st);
		cb_flag_post(&sh->flag[0], base + 2);
		return s;
	}
	s = cb_flag_wait(&sh->flag[0], base, cfg, &abort_flag, st);
	cb_flag_post(&sh->flag[i], base + 1);
	if (s == CB_OK)
		s = cb_flag_wait(&sh->flag[0], base + 2, cfg, &abort_flag, st);
	cb_flag_post(&sh->flag[i], base + 2);
	return s;
}

/* NPROCS processes run `rounds` rounds of pattern p; every waiter sleeps at
 * once (no poll, no yield) and the tick is an hour, so a lost wake-up hangs
 * and the child's alarm fails the test. */
static void run_pattern(enum pattern p, uint64_t rounds)
{
	struct cb_wait_cfg cfg = sleeper(HOUR_MS);
	pid_t pid[NPROCS];
	uint64_t sleeps = 0;

	for (int i = 0; i < NPROCS; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0) {
			enum cb_status s = CB_OK;

			alarm(DEADLINE_S);
			/* not cb_flag_init: a neighbour may already sleep on this flag
			 * (setup initialised every flag before any fork) */
			sh->flag[i].pid = (int32_t)getpid();
			for (uint64_t k = 1; k <= rounds && s == CB_OK; k++)
				s = round_of(p, i, k, &cfg, &sh->stats[i]);
			sh->status[i] = (int)s;
			_exit(0);
		}
	}
	for (int i = 0; i < NPROCS; i++)
		assert_int_equal(reap(pid[i]), 0);
	for (int i = 0; i < NPROCS; i++) {
		assert_int_equal(sh->status[i], CB_OK);
		assert_int_equal(sh->stats[i].ticks, 0);
		sleeps += sh->stats[i].sleeps;
	}
	assert_true(sleeps > 0); /* the futex path ran */
}

static void test_no_lost_wakeup_token(void **state)
{
	(void)state;
	run_pattern(TOKEN, 3000);
}

static void test_no_lost_wakeup_ring(void **state)
{
	(void)state;
	run_pattern(RING, 10000);
}

static void test_no_lost_wakeup_ps(void **state)
{
	(void)state;
	run_pattern(PS, 10000);
}

static void test_configure(void **state)
{
	struct cb_wait_cfg c;
	enum cb_wait_mode m;

	(void)state;
	unsetenv("CB_WAIT_SPIN_NS");
	unsetenv("CB_WAIT_YIELD_NS");
	unsetenv("CB_WAIT_TICK_MS");
	cb_wait_configure(&c, CB_WAIT_FUTEX, 2, 2);
	assert_int_equal(c.spin_ns, CB_WAIT_SPIN_NS_FREE);
	assert_int_equal(c.yield_ns, CB_WAIT_YIELD_NS_FREE);
	assert_int_equal(c.tick_ms, CB_WAIT_TICK_MS);
	cb_wait_configure(&c, CB_WAIT_FUTEX, 3, 2); /* oversubscribed */
	assert_int_equal(c.spin_ns, CB_WAIT_SPIN_NS_OVER);
	assert_int_equal(c.yield_ns, CB_WAIT_YIELD_NS_OVER);
	cb_wait_configure(&c, CB_WAIT_SPIN, 3, 2);
	assert_int_equal(c.spin_ns + c.yield_ns + c.tick_ms, 0);
	setenv("CB_WAIT_TICK_MS", "0", 1); /* out of range: ignored */
	setenv("CB_WAIT_SPIN_NS", "123", 1);
	cb_wait_configure(&c, CB_WAIT_YIELD, 3, 2);
	assert_int_equal(c.spin_ns, 123);
	assert_int_equal(c.tick_ms, 0);
	cb_wait_configure(&c, CB_WAIT_FUTEX, 3, 2);
	assert_int_equal(c.tick_ms, CB_WAIT_TICK_MS);
	unsetenv("CB_WAIT_SPIN_NS");
	unsetenv("CB_WAIT_TICK_MS");
	for (int i = 0; i < CB_WAIT_MODE_COUNT; i++) {
		assert_int_equal(cb_wait_mode_parse(cb_wait_mode_name((enum cb_wait_mode)i), &m), 0);
		assert_int_equal(m, i);
	}
	assert_int_equal(cb_wait_mode_parse("sleep", &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configure),
		cmocka_unit_test_setup_teardown(test_modes_ready_and_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_post_wakes_sleeper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_wakes_sleeper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dead_peer_wakes_sleeper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_lost_wakeup_token, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_lost_wakeup_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_lost_wakeup_ps, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
