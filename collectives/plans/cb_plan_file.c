/* Plans from files (contract and format in cb_plan_file.h): read with
 * jansson, every field checked where it is read, so that a message names
 * the round, the step and the key; built into a cb_plan per row like the
 * built-in plans. */
#include "cb_plan_file.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_input.h"
#include "cb_pattern.h"
#include "cb_plan_exec.h"

struct fref {
	int rank;
	enum cb_plan_buf buf;
	size_t slot; /* STAGE only */
};

struct fstep {
	enum cb_plan_op op;
	int exec, final;
	size_t chunk, nchunks;
	struct fref dst, a, b;
};

struct cb_plan_file {
	char path[1024];
	char name[32];
	char description[200];
	int ranks;
	enum cb_coll coll; /* "collective", default allreduce */
	int root;          /* "root", default 0: a rooted collective's */
	size_t chunks;
	struct fstep *steps;
	size_t nsteps;
	size_t *round_first; /* [nrounds + 1] */
	size_t nrounds;
	char digest[CB_PLAN_FILE_DIGEST_LEN + 1];
	json_t *json; /* the file's JSON, as read */
};

/* Where a message is: the file, and the round and step when inside one. */
struct where {
	const struct cb_plan_file *f;
	long round, step;
	char *err;
	size_t errlen;
};

static enum cb_status bad(const struct where *w, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w->step >= 0)
		snprintf(w->err, w->errlen, "%s: round %ld, step %ld: %s", w->f->path, w->round,
			 w->step, msg);
	else
		snprintf(w->err, w->errlen, "%s: %s", w->f->path, msg);
	return CB_ERR_ARG;
}

/* Refuses a key of obj not in keys (NULL-terminated). */
static enum cb_status known_keys(const struct where *w, json_t *obj, const char *what,
				 const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(obj, k, v) {
		size_t i = 0;

		while (keys[i] && strcmp(keys[i], k) != 0)
			i++;
		if (!keys[i])
			return bad(w, "unknown key '%s' in %s", k, what);
	}
	return CB_OK;
}

/* An integer in [lo, hi] at key (def when absent and def >= 0). */
static enum cb_status get_int(const struct where *w, json_t *obj, const char *key, long long lo,
			      long long hi, long long def, long long *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v && def >= 0) {
		*out = def;
		return CB_OK;
	}
	if (!v)
		return bad(w, "no '%s'", key);
	if (!json_is_integer(v))
		return bad(w, "'%s' is not an integer", key);
	*out = json_integer_value(v);
	if (*out < lo || *out > hi)
		return bad(w, "'%s' %lld is not in %lld .. %lld", key, *out, lo, hi);
	return CB_OK;
}

/* A reference [rank, "send"|"recv"] or [rank, "stage", slot]. */
static enum cb_status get_ref(const struct where *w, json_t *obj, const char *key,
			      struct fref *r)
{
	static const char *const bufs[CB_PLAN_NBUFS] = { "send", "recv", "stage" };
	json_t *v = json_object_get(obj, key), *b;
	size_t n = json_array_size(v);
	size_t slots = CB_PLAN_FILE_STAGE_BUFFERS * w->f->chunks;

	if (!json_is_array(v) || n < 2 || n > 3 || !json_is_integer(json_array_get(v, 0)) ||
	    !json_is_string(b = json_array_get(v, 1)))
		return bad(w, "'%s' is not [rank, \"send\"|\"recv\"] or [rank, \"stage\", slot]", key);
	r->rank = (int)json_integer_value(json_array_get(v, 0));
	if (json_integer_value(json_array_get(v, 0)) < 0 ||
	    json_integer_value(json_array_get(v, 0)) >= w->f->ranks)
		return bad(w, "'%s': rank %lld is not in 0 .. %d", key,
			   (long long)json_integer_value(json_array_get(v, 0)), w->f->ranks - 1);
	for (r->buf = 0; r->buf < CB_PLAN_NBUFS && strcmp(bufs[r->buf], json_string_value(b)); r->buf++)
		;
	if (r->buf == CB_PLAN_NBUFS)
		return bad(w, "'%s': buffer '%s' is not send, recv or stage", key, json_string_value(b));
	if ((r->buf == CB_PLAN_STAGE) != (n == 3))
		return bad(w, "'%s': %s", key, n == 3 ? "only a stage reference has a slot" :
			   "a stage reference needs a slot: [rank, \"stage\", slot]");
	r->slot = 0;
	if (n == 3) {
		json_t *s = json_array_get(v, 2);

		if (!json_is_integer(s) || json_integer_value(s) < 0 ||
		    (size_t)json_integer_value(s) >= slots)
			return bad(w, "'%s': the slot is not an integer in 0 .. %zu (%d buffers' worth)",
				   key, slots - 1, CB_PLAN_FILE_STAGE_BUFFERS);
		r->slot = (size_t)json_integer_value(s);
	}
	return CB_OK;
}

static enum cb_status parse_step(const struct where *w, json_t *js, struct fstep *s)
{
	static const char *const keys[] = { "op", "chunk", "nchunks", "dst", "a", "b", "exec",
					    "final", NULL };
	const char *op = json_string_value(json_object_get(js, "op"));
	json_t *fin = json_object_get(js, "final");
	long long chunk, nchunks, exec;
	enum cb_status st;

	if (!json_is_object(js))
		return bad(w, "a step is an object");
	if ((st = known_keys(w, js, "a step", keys)) != CB_OK)
		return st;
	if (!op || (strcmp(op, "copy") && strcmp(op, "reduce")))
		return bad(w, "'op' is not \"copy\" or \"reduce\"");
	s->op = strcmp(op, "copy") ? CB_PLAN_REDUCE : CB_PLAN_COPY;
	if ((st = get_int(w, js, "chunk", 0, (long long)w->f->chunks - 1, -1, &chunk)) != CB_OK ||
	    (st = get_int(w, js, "nchunks", 1, (long long)w->f->chunks - chunk, 1, &nchunks)) != CB_OK ||
	    (st = get_ref(w, js, "dst", &s->dst)) != CB_OK || (st = get_ref(w, js, "a", &s->a)) != CB_OK)
		return st;
	if (s->op == CB_PLAN_REDUCE && (st = get_ref(w, js, "b", &s->b)) != CB_OK)
		return st;
	if (s->op == CB_PLAN_COPY && json_object_get(js, "b"))
		return bad(w, "a copy has no 'b'");
	if (s->op == CB_PLAN_COPY)
		s->b = s->dst;
	if ((st = get_int(w, js, "exec", 0, w->f->ranks - 1, s->dst.rank, &exec)) != CB_OK)
		return st;
	if (fin && !json_is_boolean(fin))
		return bad(w, "'final' is not true or false");
	s->chunk = (size_t)chunk, s->nchunks = (size_t)nchunks, s->exec = (int)exec;
	s->final = fin && json_is_true(fin);
	return CB_OK;
}

static enum cb_status parse_rounds(struct cb_plan_file *f, struct where *w, json_t *rounds)
{
	size_t total = 0, i = 0;
	json_t *r;

	if (!json_is_array(rounds) || json_array_size(rounds) == 0)
		return bad(w, "'rounds' is not a non-empty array of rounds");
	json_array_foreach(rounds, i, r) {
		if (!json_is_array(r))
			return bad(w, "round %zu is not an array of steps", i);
		total += json_array_size(r);
	}
	if (total > CB_PLAN_FILE_MAX_STEPS)
		return bad(w, "%zu steps, more than %d", total, CB_PLAN_FILE_MAX_STEPS);
	f->steps = calloc(total ? total : 1, sizeof(*f->steps));
	f->round_first = calloc(json_array_size(rounds) + 1, sizeof(size_t));
	if (!f->steps || !f->round_first)
		return CB_ERR_NOMEM;
	json_array_foreach(rounds, i, r) {
		size_t j;
		json_t *js;

		f->round_first[i] = f->nsteps;
		json_array_foreach(r, j, js) {
			enum cb_status st;

			w->round = (long)i, w->step = (long)j;
			if ((st = parse_step(w, js, &f->steps[f->nsteps])) != CB_OK)
				return st;
			f->nsteps++;
		}
	}
	f->nrounds = json_array_size(rounds);
	f->round_first[f->nrounds] = f->nsteps;
	w->step = -1;
	return CB_OK;
}

static enum cb_status parse_top(struct cb_plan_file *f, struct where *w, json_t *root)
{
	static const char *const keys[] = { "collbench_plan", "name", "description", "ranks",
					    "chunks", "rounds", "collective", "root", NULL };
	const char *name = json_string_value(json_object_get(root, "name"));
	const char *desc = json_string_value(json_object_get(root, "description"));
	const char *coll = json_string_value(json_object_get(root, "collective"));
	long long version, ranks, chunks, at;
	char names[256];
	enum cb_status st;

	if (!json_is_object(root))
		return bad(w, "not a plan: the file is no JSON object");
	if ((st = known_keys(w, root, "the plan", keys)) != CB_OK ||
	    (st = get_int(w, root, "collbench_plan", 1, 1, -1, &version)) != CB_OK)
		return st;
	if (!name || !*name || strlen(name) >= sizeof(f->name) || name[0] < 'a' || name[0] > 'z' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
		return bad(w, "'name' is not 1-31 of a-z, 0-9 and _, starting with a letter");
	if (json_object_get(root, "description") && !desc)
		return bad(w, "'description' is not a string");
	if ((st = get_int(w, root, "ranks", 1, CB_PLAN_FILE_MAX_RANKS, -1, &ranks)) != CB_OK ||
	    (st = get_int(w, root, "chunks", 1, CB_PLAN_FILE_MAX_CHUNKS, -1, &chunks)) != CB_OK ||
	    (st = get_int(w, root, "root", 0, ranks - 1, 0, &at)) != CB_OK)
		return st;
	f->coll = coll ? (enum cb_coll)cb_coll_find(coll) : CB_COLL_ALLREDUCE;
	if (json_object_get(root, "collective") && (!coll || (int)f->coll < 0)) {
		cb_coll_names(names, sizeof(names));
		return bad(w, "'collective' is not one of %s", names);
	}
	f->root = (int)at;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->description, sizeof(f->description), "%s", desc ? desc : "");
	f->ranks = (int)ranks, f->chunks = (size_t)chunks;
	return parse_rounds(f, w, json_object_get(root, "rounds"));
}

/* FNV-1a, 64 bits, over len bytes at p, continuing from h (offset basis
 * 14695981039346656037, prime 1099511628211: Fowler, Noll and Vo,
 * http://www.isthe.com/chongo/tech/comp/fnv/). */
static unsigned long long fnv1a(unsigned long long h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static unsigned long long fnv_num(unsigned long long h, long long v)
{
	char t[24];

	return fnv1a(h, t, (size_t)snprintf(t, sizeof(t), "%lld;", v));
}

static unsigned long long fnv_ref(unsigned long long h, const struct fref *r)
{
	return fnv_num(fnv_num(fnv_num(h, r->rank), r->buf), (long long)r->slot);
}

/* The digest of what the plan does (cb_plan_file_digest): its name, ranks,
 * chunks, and each round's steps with every field, defaults filled in. */
static void make_digest(struct cb_plan_file *f)
{
	unsigned long long h = 14695981039346656037ULL;

	h = fnv1a(h, f->name, strlen(f->name) + 1);
	h = fnv_num(fnv_num(fnv_num(h, f->ranks), (long long)f->chunks), (long long)f->nrounds);
	if (f->coll != CB_COLL_ALLREDUCE || f->root) /* an allreduce file's digest as before */
		h = fnv_num(fnv_num(h, f->coll), f->root);
	for (size_t k = 0; k < f->nrounds; k++) {
		h = fnv_num(h, (long long)(f->round_first[k + 1] - f->round_first[k]));
		for (size_t i = f->round_first[k]; i < f->round_first[k + 1]; i++) {
			const struct fstep *s = &f->steps[i];

			h = fnv_num(fnv_num(fnv_num(h, s->op), s->exec), s->final);
			h = fnv_num(fnv_num(h, (long long)s->chunk), (long long)s->nchunks);
			h = fnv_ref(fnv_ref(fnv_ref(h, &s->dst), &s->a), &s->b);
		}
	}
	snprintf(f->digest, sizeof(f->digest), "%016llx", h);
}

enum cb_status cb_plan_file_load(const char *path, struct cb_plan_file **out, char *err,
				 size_t errlen)
{
	struct cb_plan_file *f = calloc(1, sizeof(*f));
	struct where w = { f, -1, -1, err, errlen };
	json_error_t jerr;
	char *text, why[128];
	size_t len;
	enum cb_status st;

	*out = NULL;
	if (!f)
		return CB_ERR_NOMEM;
	snprintf(f->path, sizeof(f->path), "%s", path);
	st = cb_input_read(path, CB_PLAN_FILE_MAX_BYTES, &text, &len, why, sizeof(why));
	if (st != CB_OK) {
		snprintf(err, errlen, "%s: cannot read the plan: %s", path, why);
		free(f);
		return st;
	}
	f->json = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!f->json)
		st = bad(&w, "not JSON: line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
	else
		st = parse_top(f, &w, f->json);
	if (st == CB_ERR_NOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	if (st != CB_OK) {
		cb_plan_file_free(f);
		return st;
	}
	make_digest(f);
	*out = f;
	return CB_OK;
}

void cb_plan_file_free(struct cb_plan_file *f)
{
	if (!f)
		return;
	free(f->steps);
	free(f->round_first);
	json_decref(f->json);
	free(f);
}

const char *cb_plan_file_name(const struct cb_plan_file *f) { return f->name; }
const char *cb_plan_file_path(const struct cb_plan_file *f) { return f->path; }
int cb_plan_file_ranks(const struct cb_plan_file *f) { return f->ranks; }
const char *cb_plan_file_digest(const struct cb_plan_file *f) { return f->digest; }
enum cb_coll cb_plan_file_coll(const struct cb_plan_file *f) { return f->coll; }
json_t *cb_plan_file_json(const struct cb_plan_file *f) { return f->json; }

void cb_plan_file_shape(const struct cb_plan_file *f, size_t *chunks, size_t *rounds,
			size_t *steps)
{
	*chunks = f->chunks, *rounds = f->nrounds, *steps = f->nsteps;
}

struct cb_plan_algo cb_plan_file_algo(const struct cb_plan_file *f)
{
	struct cb_plan_algo al = { f->name, cb_plan_build_file, *f->description ? f->description :
				   "a plan from a file (--plan)", f->path, f->ranks, f, f->coll };

	return al;
}

/* The files added, kept while an algorithm points at them. */
static struct cb_plan_file *added[CB_PLAN_ALGOS_MAX];

enum cb_status cb_plan_file_add(struct cb_plan_file *f, char *err, size_t errlen)
{
	struct cb_plan_algo al = cb_plan_file_algo(f);
	size_t i = 0;

	if (cb_plan_algo_add(&al) != CB_OK) {
		snprintf(err, errlen, "%s: plan name '%s' is a built-in algorithm's, or more than %d "
			 "algorithms", f->path, f->name, CB_PLAN_ALGOS_MAX);
		return CB_ERR_ARG;
	}
	while (i < CB_PLAN_ALGOS_MAX && added[i] && strcmp(added[i]->name, f->name) != 0)
		i++;
	if (i < CB_PLAN_ALGOS_MAX) { /* always: as many slots as algorithms */
		cb_plan_file_free(added[i]);
		added[i] = f;
	}
	return CB_OK;
}

/* A reference's element offset for a step starting at chunk offset coff;
 * STAGE slots are slot elements each. A buffer smaller than count (a split
 * collective's: reduce_scatter's RECV, all_gather's SEND) holds the global
 * elements of its rank's block, [rank B, (rank+1) B): coff less that start
 * (past the buffer when coff is below it, which cb_plan_finish refuses). */
static struct cb_plan_ref ref_at(const struct cb_plan *p, const struct fref *r, size_t coff,
				 size_t slot)
{
	size_t first = (size_t)r->rank * (p->count / (size_t)p->n);
	size_t size = r->buf == CB_PLAN_SEND ? p->send_count : p->recv_count;

	if (r->buf == CB_PLAN_STAGE)
		return cb_pref(r->rank, r->buf, r->slot * slot);
	if (size < p->count)
		coff = coff >= first ? coff - first : p->count;
	return cb_pref(r->rank, r->buf, coff);
}

enum cb_status cb_plan_build_file(struct cb_plan *p, const struct cb_plan_args *a)
{
	const struct cb_plan_file *f = a->data;
	size_t slot = cb_chunk_max(a->count, (int)f->chunks);
	enum cb_status st;

	if (a->n != f->ranks || (cb_coll_get(f->coll)->rooted && a->root != f->root))
		return CB_ERR_ARG;
	st = cb_plan_init_coll(p, f->name, f->coll, a->n, a->count, f->root);
	p->stage_slot = slot;
	for (size_t k = 0; k < f->nrounds && st == CB_OK; k++) {
		st = cb_plan_round(p);
		for (size_t i = f->round_first[k]; i < f->round_first[k + 1] && st == CB_OK; i++) {
			const struct fstep *s = &f->steps[i];
			size_t off, c, end, ce;

			cb_chunk(a->count, (int)f->chunks, (int)s->chunk, &off, &c);
			cb_chunk(a->count, (int)f->chunks, (int)(s->chunk + s->nchunks - 1), &end, &ce);
			c = end + ce - off;
			if (s->op == CB_PLAN_COPY)
				st = cb_plan_copy(p, s->exec, ref_at(p, &s->dst, off, slot),
						  ref_at(p, &s->a, off, slot), c, s->final);
			else
				st = cb_plan_reduce(p, s->exec, ref_at(p, &s->dst, off, slot),
						    ref_at(p, &s->a, off, slot), ref_at(p, &s->b, off, slot), c,
						    s->final);
		}
	}
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

/* f's plan for count elements (the same for every dtype: its ranges are
 * elements), finished for in-place mode ip; on a broken rule err says which,
 * for the file. */
static enum cb_status make_finished(const struct cb_plan_file *f, size_t count, int ip,
				    struct cb_plan *p, char *err, size_t errlen)
{
	struct cb_plan_algo al = cb_plan_file_algo(f);
	struct cb_plan_args a = { .n = f->ranks, .count = count, .esize = 4, .root = f->root };
	char msg[400] = "";
	enum cb_status st = cb_plan_make(&al, &a, p);

	if (st == CB_OK && (st = cb_plan_finish(p, ip, msg, sizeof(msg))) != CB_OK)
		cb_plan_free(p);
	if (st == CB_ERR_ARG)
		snprintf(err, errlen, "%s: the plan is refused: plan %s on %d ranks, count %zu, %s: %s",
			 f->path, f->name, f->ranks, count, ip ? "in place" : "out of place", msg);
	return st;
}

/* The check's own limits: what simulating every rank in one process may
 * allocate and write (cb_plan_check_cost). */
static enum cb_status within_limits(const struct cb_plan_file *f, const struct cb_plan *p,
				    char *err, size_t errlen)
{
	uint64_t bytes, elems;

	cb_plan_check_cost(p, CB_PLAN_FILE_CHECK_DTYPE, &bytes, &elems);
	if (bytes <= CB_PLAN_FILE_CHECK_MAX_BYTES && elems <= CB_PLAN_FILE_CHECK_MAX_ELEMS)
		return CB_OK;
	snprintf(err, errlen, "%s: the plan is too large to check: at count %zu its check holds "
		 "%d ranks' buffers in one process, %.2f GiB (the limit is %.0f GiB), and writes "
		 "%.3g elements (the limit is %.3g); fewer ranks, chunks or stage slots",
		 f->path, p->count, f->ranks, (double)bytes / (1u << 30),
		 (double)CB_PLAN_FILE_CHECK_MAX_BYTES / (1u << 30), (double)elems,
		 (double)CB_PLAN_FILE_CHECK_MAX_ELEMS);
	return CB_ERR_ARG;
}

/* One pass over the counts and modes: the rules and limits (values 0), or
 * the values of each op of op_mask. */
static enum cb_status check_pass(const struct cb_plan_file *f, int values, unsigned op_mask,
				 unsigned modes, char *err, size_t errlen)
{
	size_t split = cb_coll_get(f->coll)->split ? (size_t)f->ranks : 1; /* n blocks */
	size_t counts[2] = { f->chunks * split, (3 * f->chunks + 1) * split };
	enum cb_status st = CB_OK;

	for (int c = 0; c < 2 && st == CB_OK; c++)
		for (int ip = 0; ip < 2 && st == CB_OK; ip++) {
			struct cb_plan p;
			char msg[512] = "";

			if (!(modes & (1u << ip)))
				continue;
			if ((st = make_finished(f, counts[c], ip, &p, err, errlen)) != CB_OK)
				return st;
			if (!values)
				st = within_limits(f, &p, err, errlen);
			for (int o = 0; values && o < CB_OP_COUNT && st == CB_OK; o++)
				if (op_mask >> o & 1)
					st = cb_plan_check_values(&p, CB_PLAN_FILE_CHECK_DTYPE,
								  (enum cb_op)o, msg, sizeof(msg));
			if (st == CB_ERR_ARG && values)
				snprintf(err, errlen, "%s: the plan is refused: %s", f->path, msg);
			cb_plan_free(&p);
		}
	return st;
}

enum cb_status cb_plan_file_check(const struct cb_plan_file *f, unsigned op_mask, unsigned modes,
				  char *err, size_t errlen)
{
	enum cb_status st = check_pass(f, 0, op_mask, modes, err, errlen);

	if (st == CB_OK)
		st = check_pass(f, 1, op_mask, modes, err, errlen);
	if (st == CB_ERR_NOMEM)
		snprintf(err, errlen, "%s: out of memory checking the plan", f->path);
	return st;
}
