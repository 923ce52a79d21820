/* Unit tests: start times (cb_hist_time): the accepted forms normalised to
 * UTC, and what is refused. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_hist_time.h"

static void test_accepted(void **state)
{
	static const char *const cases[][2] = {
		{ "2026-11-30T14:55:35Z", "2026-11-30T14:55:35Z" },
		{ "2026-11-30t14:55:35z", "2026-11-30T14:55:35Z" },
		{ "2026-11-30 14:55:35Z", "2026-11-30T14:55:35Z" },      /* a space for the T */
		{ "2026-11-30T15:55:35+01:00", "2026-11-30T14:55:35Z" }, /* a local time */
		{ "2026-11-30 09:55:35-0500", "2026-11-30T14:55:35Z" },
		{ "2026-12-01T00:25:35+09:30", "2026-11-30T14:55:35Z" },
		{ "2026-11-30T16:55:35+02", "2026-11-30T14:55:35Z" },
		{ "2026-11-30T14:55:35.123456Z", "2026-11-30T14:55:35Z" },
		{ "20261130T145535Z", "2026-11-30T14:55:35Z" },          /* sweep.sh's created_utc */
		{ "2028-02-29T00:00:00Z", "2028-02-29T00:00:00Z" },
		{ "2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z" },      /* a leap second */
		{ "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z" },
	};
	char out[CB_HIST_TIME], why[256];
	long long e;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cb_hist_time_parse(cases[i][0], out, &e, why, sizeof(why)) != CB_OK)
			fail_msg("%s: %s", cases[i][0], why);
		assert_string_equal(out, cases[i][1]);
	}
	assert_int_equal(cb_hist_time_parse("2026-11-30T14:55:35Z", out, &e, why, sizeof(why)),
			 CB_OK);
	assert_true(e == 1796050535LL);
	cb_hist_time_format(e, out);
	assert_string_equal(out, "2026-11-30T14:55:35Z");
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"not-a-time", "", "2026-11-30", "2026-11-30T14:55:35", /* no zone */
		"2026-11-30 14:55:35", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
		"2026-11-30T24:00:00Z", "2026-11-30T14:60:00Z", "2026-11-30T14:55:35+24:00",
		"2026-11-30T14:55:35+01:60", "2026-11-30T14:55:35 UTC", "2026-11-30T14:55:35ZZ",
		"2026-11-30T14:55:35.Z", "1969-12-31T23:59:59Z", "26-11-30T14:55:35Z",
		"2026/11/30T14:55:35Z", "20261130T145535", "20261130T145535+0100",
		"2026-11-30T14:55Z", "0000-01-01T00:00:00Z", "9999-12-31T23:00:00-05:00",
	};
	char out[CB_HIST_TIME] = "unchanged", why[256];
	long long e = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (cb_hist_time_parse(bad[i], out, &e, why, sizeof(why)) != CB_ERR_ARG)
			fail_msg("'%s' was accepted as %s", bad[i], out);
		assert_true(why[0] != '\0');
		assert_string_equal(out, "unchanged");
		assert_true(e == 7);
	}
	assert_int_equal(cb_hist_time_parse("2026-11-30T14:55:35", out, NULL, why, sizeof(why)),
			 CB_ERR_ARG);
	assert_non_null(strstr(why, "no time zone"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
