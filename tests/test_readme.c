/* Unit test: the facts the manual (README.md, docs/) repeats for readers are
 * the program's own. Each block of a doc between "<!-- NAME -->" and
 * "<!-- /NAME -->" must be what the code generates:
 *   schema:summary, schema:rank   docs/output.md: the columns of the result
 *                                 files, from the schema table
 *                                 (cb_schema_markdown);
 *   options:allreduce_perf        docs/running.md: allreduce_perf's option
 *                                 lines, from its option table
 *                                 (cb_options_usage).
 *   test_readme SOURCE_DIR        checks the docs under SOURCE_DIR
 *   test_readme --print NAME      prints the block NAME should hold */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_options.h"
#include "cb_schema.h"

static const char *src_dir;
struct block {
	const char *name;
	const char *doc; /* the file that holds it, relative to the source dir */
};

static const struct block blocks[] = {
	{ "schema:summary", "docs/output.md" },
	{ "schema:rank", "docs/output.md" },
	{ "options:allreduce_perf", "docs/running.md" },
};

/* The option lines of --help, between "options:" and the blank line. */
static void option_lines(FILE *f)
{
	char *text = NULL, *a, *b;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cb_options_usage(m, "allreduce_perf");
	fclose(m);
	a = strstr(text, "options:\n");
	b = a ? strstr(a, "\n\n") : NULL;
	if (a && b)
		fprintf(f, "```\n%.*s\n```\n", (int)(b - a - 9), a + 9);
	free(text);
}

/* What block name should hold, in a new string. */
static char *generate(const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (strcmp(name, "schema:summary") == 0)
		cb_schema_markdown(&cb_schema_summary, m);
	else if (strcmp(name, "schema:rank") == 0)
		cb_schema_markdown(&cb_schema_rank, m);
	else
		option_lines(m);
	fclose(m);
	return text;
}

/* The block of file doc between "<!-- NAME -->\n" and "<!-- /NAME -->". */
static char *doc_block(const char *doc, const char *name)
{
	char path[4096], open_tag[64], close_tag[64], *text = NULL, *a, *b;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", src_dir, doc);
	snprintf(open_tag, sizeof(open_tag), "<!-- %s -->\n", name);
	snprintf(close_tag, sizeof(close_tag), "<!-- /%s -->", name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot read it (it should hold the %s block)", doc, name);
	assert_true(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	a = strstr(text, open_tag);
	b = a ? strstr(a, close_tag) : NULL;
	if (!a || !b)
		fail_msg("%s lacks %s ... %s", doc, open_tag, close_tag);
	a += strlen(open_tag);
	memmove(text, a, (size_t)(b - a));
	text[b - a] = '\0';
	return text;
}

static void test_readme_blocks(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
		char *want = generate(blocks[k].name), *have = doc_block(blocks[k].doc, blocks[k].name);

		if (strcmp(want, have) != 0)
			fail_msg("%s's %s block is not the code's; replace it with the output of "
				 "`test_readme --print %s`:\n%s", blocks[k].doc, blocks[k].name, blocks[k].name,
				 want);
		free(want);
		free(have);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readme_blocks),
	};

	if (argc == 3 && strcmp(argv[1], "--print") == 0) {
		char *text = generate(argv[2]);

		fputs(text, stdout);
		free(text);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: test_readme SOURCE_DIR | --print NAME\n");
		return 2;
	}
	src_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
