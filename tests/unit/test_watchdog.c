/* Unit tests of cb_watchdog's two bounds: a set-up step (allocating,
 * filling, the reference) is bounded by --setup-timeout and not by -T, an
 * iteration by -T; each fires on its own bound. Each case runs in a fork()ed
 * child, as the watchdog ends its process when the main thread does not
 * react; the child reports what it saw through its exit status. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cb_watchdog.h"

#define SAW_NOTHING 10 /* child's exit: the flag stayed clear */
#define SAW_FLAG 11    /* child's exit: the flag was set */

static volatile int abort_flag;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* In a child: starts the watchdog with the bounds -T timeout_s and
 * --setup-timeout setup_s, enters a step of the kind setup (1) or iteration
 * (0) and stays in it for stay_ms, polling the flag; exits SAW_FLAG as soon
 * as it is set (before the watchdog's grace ends the process), else
 * SAW_NOTHING. Returns the child's exit status. */
static int stay_in_step(double timeout_s, double setup_s, int setup, long stay_ms)
{
	pid_t pid = fork();
	int status = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(60);
		abort_flag = 0;
		if (cb_watchdog_start(timeout_s, setup_s, &abort_flag) != CB_OK)
			_exit(2);
		if (setup)
			cb_watchdog_setup("allocate", "buffers", 1 << 30);
		else
			cb_watchdog_phase("timed", "ring", 1 << 30, 0);
		for (long ms = 0; ms < stay_ms; ms += 5) {
			if (abort_flag) {
				cb_watchdog_stop();
				_exit(SAW_FLAG);
			}
			sleep_ms(5);
		}
		cb_watchdog_stop();
		_exit(SAW_NOTHING);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* A set-up step 8x longer than -T: -T does not count it. */
static void test_setup_is_not_an_iteration(void **state)
{
	(void)state;
	assert_int_equal(stay_in_step(0.1, 30, 1, 800), SAW_NOTHING);
}

/* A set-up step longer than --setup-timeout fires. */
static void test_setup_bound_fires(void **state)
{
	(void)state;
	assert_int_equal(stay_in_step(30, 0.1, 1, 20000), SAW_FLAG);
}

/* An iteration longer than -T fires, whatever --setup-timeout is. */
static void test_iteration_bound_fires(void **state)
{
	(void)state;
	assert_int_equal(stay_in_step(0.1, 30, 0, 20000), SAW_FLAG);
}

/* The start-up (before any step is named) is a set-up step. */
static void test_start_up_is_setup(void **state)
{
	pid_t pid;
	int status = 0;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(60);
		if (cb_watchdog_start(0.1, 30, &abort_flag) != CB_OK)
			_exit(2);
		sleep_ms(800);
		_exit(abort_flag ? SAW_FLAG : SAW_NOTHING);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), SAW_NOTHING);
}

/* In a child: a back-to-back block (cb_watchdog_loop) under -T 0.1 s whose
 * calls tick every 5 ms for stay_ms, ticking only through iteration
 * last_tick; as stay_in_step's result. */
static int loop_block(long stay_ms, long last_tick)
{
	pid_t pid = fork();
	int status = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(60);
		abort_flag = 0;
		if (cb_watchdog_start(0.1, 30, &abort_flag) != CB_OK)
			_exit(2);
		cb_watchdog_loop("timed", "mpi", 8, 0);
		for (long i = 0; i * 5 < stay_ms; i++) {
			if (i <= last_tick)
				cb_watchdog_tick(i);
			if (abort_flag) {
				cb_watchdog_stop();
				_exit(SAW_FLAG);
			}
			sleep_ms(5);
		}
		cb_watchdog_stop();
		_exit(SAW_NOTHING);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* A block 8x longer than -T whose calls tick is progress; one stuck in a
 * call (no tick for longer than -T) fires. */
static void test_loop_ticks_are_progress(void **state)
{
	(void)state;
	assert_int_equal(loop_block(800, 1000000), SAW_NOTHING);
	assert_int_equal(loop_block(20000, 10), SAW_FLAG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_is_not_an_iteration),
		cmocka_unit_test(test_setup_bound_fires),
		cmocka_unit_test(test_iteration_bound_fires),
		cmocka_unit_test(test_start_up_is_setup),
		cmocka_unit_test(test_loop_ticks_are_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
