/* Unit test: the manual (README.md, docs/NAME.md, CHANGES.md) repeats
 * the programs' own facts, and README stays a front door whose links hold.
 * - A generated block, "<!-- NAME -->" ... "<!-- /NAME -->", lives in one doc
 *   only and holds what the code prints: schema:summary and schema:rank (the
 *   result files' columns, cb_schema_markdown) in docs/output.md,
 *   options:allreduce_perf (cb_options_usage) in docs/running.md.
 * - README.md has at most README_MAX_LINES lines and links every docs/NAME.md.
 * - A relative link names a file that exists; its "#anchor" into a .md file
 *   names a heading (GitHub's slug: lower case, spaces to '-', punctuation
 *   dropped, "-1", "-2" for repeats).
 *   test_readme SOURCE_DIR        checks the manual under SOURCE_DIR
 *   test_readme --print NAME [SOURCE_DIR]  prints the block NAME should hold
 *                                 (SOURCE_DIR: the tree, default .) */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "cb_options.h"
#include "cb_runmeta.h"
#include "cb_schema.h"

#define README_MAX_LINES 250
#define MAX_DOCS 64

static const char *src_dir;

struct block {
	const char *name;
	const char *doc; /* the file that holds it, relative to the source dir */
};

static const struct block blocks[] = {
	{ "schema:summary", "docs/output.md" },
	{ "schema:rank", "docs/output.md" },
	{ "schema:run", "docs/output.md" },
	{ "options:allreduce_perf", "docs/running.md" },
	{ "layout:tree", "docs/architecture.md" },
};

/* The manual's files, relative to the source dir: README.md, docs/NAME.md,
 * CHANGES.md. */
static char *manual[MAX_DOCS + 2];
static size_t n_manual;

/* The option groups of --help: from "nccl-tests' options" to the blank
 * line after "collbench's own options:" and its lines. */
static void option_lines(FILE *f)
{
	char *text = NULL, *a, *b;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cb_options_usage(m, "allreduce_perf");
	fclose(m);
	a = strstr(text, "nccl-tests' options");
	b = a ? strstr(a, "collbench's own options:\n") : NULL;
	b = b ? strstr(b, "\n\n") : NULL;
	if (a && b)
		fprintf(f, "```\n%.*s\n```\n", (int)(b - a), a);
	free(text);
}

/* dev/layout.sh --text, the floors of collectives/ and bench/ read from the code, as a block. */
static void layout(FILE *f)
{
	char cmd[4200], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s/dev/layout.sh' --text", src_dir);
	p = popen(cmd, "r");
	if (!p)
		fail_msg("cannot run %s", cmd);
	fputs("```\n", f);
	while (fgets(line, sizeof(line), p))
		fputs(line, f);
	fputs("```\n", f);
	if (pclose(p) != 0)
		fail_msg("%s failed", cmd);
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
	else if (strcmp(name, "schema:run") == 0)
		cb_runmeta_markdown(m);
	else if (strcmp(name, "layout:tree") == 0)
		layout(m);
	else
		option_lines(m);
	fclose(m);
	return text;
}

/* The whole file rel (relative to the source dir) in a new string; fails the
 * test when it cannot be read. */
static char *slurp(const char *rel)
{
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", src_dir, rel);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot read it", rel);
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	return text;
}

/* The block between "<!-- NAME -->\n" and "<!-- /NAME -->" of file doc. */
static char *doc_block(const char *doc, const char *name)
{
	char open_tag[64], close_tag[64], *text = slurp(doc), *a, *b;

	snprintf(open_tag, sizeof(open_tag), "<!-- %s -->\n", name);
	snprintf(close_tag, sizeof(close_tag), "<!-- /%s -->", name);
	a = strstr(text, open_tag);
	b = a ? strstr(a, close_tag) : NULL;
	if (!a || !b)
		fail_msg("%s lacks %s ... %s", doc, open_tag, close_tag);
	a += strlen(open_tag);
	memmove(text, a, (size_t)(b - a));
	text[b - a] = '\0';
	return text;
}

/* Fills manual[]: README.md, docs/NAME.md, CHANGES.md; -1 with
 * a message when docs/ cannot be read or holds too many files. */
static int list_manual(void)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	manual[n_manual++] = strdup("README.md");
	snprintf(path, sizeof(path), "%s/docs", src_dir);
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "test_readme: %s: cannot open the docs folder\n", path);
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 3 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		if (n_manual >= MAX_DOCS + 1 || asprintf(&manual[n_manual++], "docs/%s", e->d_name) < 0) {
			fprintf(stderr, "test_readme: more than %d files in docs/, or out of memory\n", MAX_DOCS);
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	manual[n_manual++] = strdup("CHANGES.md");
	return 0;
}

static void test_blocks(void **state)
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

/* A block lives in its own doc only: a stale copy elsewhere would drift. */
static void test_blocks_once(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_manual; i++) {
		char *text = slurp(manual[i]), tag[64];

		for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
			snprintf(tag, sizeof(tag), "<!-- %s -->", blocks[k].name);
			if (strcmp(manual[i], blocks[k].doc) != 0 && strstr(text, tag))
				fail_msg("%s holds a %s block, which lives in %s only", manual[i], blocks[k].name,
					 blocks[k].doc);
		}
		free(text);
	}
}

static void test_readme_length(void **state)
{
	char *text = slurp("README.md");
	size_t lines = 0;

	(void)state;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	free(text);
	if (lines > README_MAX_LINES)
		fail_msg("README.md has %zu lines, more than %d: move the detail into docs/ and link it", lines,
			 README_MAX_LINES);
}

/* One link target: the text inside "](...)", its file and line. */
struct link {
	const char *file;
	size_t line;
	const char *target;
	size_t len;
};

typedef void link_fn(const struct link *l, void *ctx);

/* 1 when the line at p opens or closes a code fence (up to 3 spaces in). */
static int is_fence(const char *p)
{
	for (int i = 0; i < 3 && *p == ' '; i++)
		p++;
	return strncmp(p, "```", 3) == 0;
}

/* Calls fn for each "[text](target)" of text outside code fences and
 * backtick spans (a span may wrap onto the next line of its paragraph). */
static void for_each_link(const char *file, const char *text, link_fn *fn, void *ctx)
{
	int fence = 0, code = 0;
	size_t line = 1;

	for (const char *p = text; *p; line++) {
		const char *end = strchr(p, '\n');

		end = end ? end : p + strlen(p);
		if (is_fence(p))
			fence = !fence;
		if (is_fence(p) || end == p)
			code = 0;
		for (const char *q = p; !fence && q < end; q++) {
			if (*q == '`')
				code = !code;
			if (code || q[0] != ']' || q[1] != '(')
				continue;
			struct link l = { file, line, q + 2, strcspn(q + 2, ") \n") };
			fn(&l, ctx);
		}
		p = *end ? end + 1 : end;
	}
}

/* GitHub's anchor of a heading's text, into out (size cap). */
static void slug(const char *text, size_t len, char *out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < cap; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == ' ')
			out[n++] = '-';
		else if (isalnum(c) || c == '-' || c == '_' || c >= 0x80)
			out[n++] = (char)tolower(c);
	}
	out[n] = '\0';
}

/* 1 when file rel (a .md file) has a heading whose anchor is anchor. */
static int has_anchor(const char *rel, const char *anchor)
{
	char *text = slurp(rel), seen[256][128], s[128];
	size_t n_seen = 0;
	int fence = 0, found = 0;

	for (const char *p = text; *p && !found;) {
		const char *end = strchr(p, '\n'), *h = p;

		end = end ? end : p + strlen(p);
		if (is_fence(p))
			fence = !fence;
		while (!fence && h < end && *h == '#')
			h++;
		if (h > p && h < end && *h == ' ') {
			size_t repeats = 0;

			slug(h + 1, (size_t)(end - h - 1), s, sizeof(s));
			for (size_t i = 0; i < n_seen; i++)
				repeats += strcmp(seen[i], s) == 0;
			if (n_seen < 256)
				snprintf(seen[n_seen++], sizeof(seen[0]), "%s", s);
			if (repeats)
				snprintf(s + strlen(s), sizeof(s) - strlen(s), "-%zu", repeats);
			found = strcmp(s, anchor) == 0;
		}
		p = *end ? end + 1 : end;
	}
	free(text);
	return found;
}

/* rel's folder joined with path, "a/../b" folded, into out (size cap). */
static void resolve(const char *rel, const char *path, char *out, size_t cap)
{
	const char *slash = strrchr(rel, '/');
	size_t dir = slash ? (size_t)(slash - rel) : 0;

	snprintf(out, cap, "%.*s%s%s", (int)dir, rel, dir ? "/" : "", path);
	for (char *up; (up = strstr(out, "/../"));) {
		char *start = up;

		while (start > out && start[-1] != '/')
			start--;
		memmove(start, up + 4, strlen(up + 4) + 1);
	}
	if (strncmp(out, "../", 3) == 0) /* above the source dir: not the tree's */
		snprintf(out, cap, "/nonexistent/%s", path);
}

/* A relative link names a file that exists, and a heading where it has an
 * anchor into a .md file. */
static void check_link(const struct link *l, void *ctx)
{
	char target[1024], path[2048], file[4096];
	char *hash;
	struct stat st;

	(void)ctx;
	snprintf(target, sizeof(target), "%.*s", (int)l->len, l->target);
	if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
		return;
	hash = strchr(target, '#');
	if (hash)
		*hash++ = '\0';
	if (target[0])
		resolve(l->file, target, path, sizeof(path));
	else /* "#anchor": this file's own */
		snprintf(path, sizeof(path), "%s", l->file);
	snprintf(file, sizeof(file), "%s/%s", src_dir, path);
	if (stat(file, &st) != 0)
		fail_msg("%s:%zu: the link (%.*s) points at %s, which does not exist", l->file, l->line,
			 (int)l->len, l->target, path);
	if (hash && *hash && strlen(path) > 3 && strcmp(path + strlen(path) - 3, ".md") == 0 &&
	    !has_anchor(path, hash))
		fail_msg("%s:%zu: the link (%.*s): %s has no heading whose anchor is #%s", l->file, l->line,
			 (int)l->len, l->target, path, hash);
}

static void test_links_resolve(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_manual; i++) {
		char *text = slurp(manual[i]);

		for_each_link(manual[i], text, check_link, NULL);
		free(text);
	}
}

/* Marks in ctx (a bool per manual[] entry) the docs a README link names. */
static void mark_linked(const struct link *l, void *ctx)
{
	char target[1024], path[2048];
	int *linked = ctx;
	size_t n = strcspn(l->target, "#");

	snprintf(target, sizeof(target), "%.*s", (int)(n < l->len ? n : l->len), l->target);
	resolve(l->file, target, path, sizeof(path));
	for (size_t i = 0; i < n_manual; i++)
		linked[i] |= strcmp(manual[i], path) == 0;
}

static void test_docs_linked(void **state)
{
	int linked[MAX_DOCS + 2] = { 0 };
	char *text = slurp("README.md");

	(void)state;
	for_each_link("README.md", text, mark_linked, linked);
	free(text);
	for (size_t i = 0; i < n_manual; i++)
		if (strncmp(manual[i], "docs/", 5) == 0 && !linked[i])
			fail_msg("%s is not linked from README.md: every doc is one click from README", manual[i]);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_blocks_once),
		cmocka_unit_test(test_readme_length),
		cmocka_unit_test(test_docs_linked),
		cmocka_unit_test(test_links_resolve),
	};

	if ((argc == 3 || argc == 4) && strcmp(argv[1], "--print") == 0) {
		char *text;

		src_dir = argc == 4 ? argv[3] : ".";
		text = generate(argv[2]);

		fputs(text, stdout);
		free(text);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: test_readme SOURCE_DIR | --print NAME [SOURCE_DIR]\n");
		return 2;
	}
	src_dir = argv[1];
	return list_manual() == 0 ? cmocka_run_group_tests(tests, NULL, NULL) : 1;
}
