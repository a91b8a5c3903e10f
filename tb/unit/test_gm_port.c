// SPDX-License-Identifier: MIT
/*
 * test_gm_port.c - cmocka unit tests for the memory port of a model whose
 * memory is a TLM target (model/gm_port.c) and for gm_mem_serve, the memory
 * model's target side (model/gm_mem.c): together they must answer exactly
 * as gm_mem queued at the port does, which is what makes gpusim_tlm over
 * gm_mem_tlm run the C API's cycles.  The oracle is gm_mem's own queue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gm_mem.h"
#include "gm_port.h"
#include "tb_seed.h"

#define SYS_BASE 0x100000000ull
#define MIB (1024ull * 1024)

static struct gm_mem_cfg mem_cfg(uint32_t max_outstanding)
{
	struct gm_mem_cfg c = {
		.vram = { 0, 64 * MIB, 20, 32 },
		.sys = { SYS_BASE, 64 * MIB, 60, 16 },
		.beat_bytes = 32,
		.max_outstanding = max_outstanding,
	};
	return c;
}

/* The target side: gm_mem_serve on its own gm_mem (gm_port_xfer_fn). */
static void serve(void *ctx, uint64_t now, const struct gm_mem_req *req, struct gm_mem_rsp *rsp,
		  uint64_t *due)
{
	assert_int_equal(gm_mem_serve(ctx, now, req, rsp, due), GM_OK);
}

/* serve answers with the data and the due cycle gm_mem_request queues. */
static void test_serve_due_and_data(void **state)
{
	struct gm_mem_cfg c = mem_cfg(4);
	struct gm_mem *q, *s;
	struct gm_mem_req w = { .id = 1, .addr = SYS_BASE + 64, .write = true, .wstrb = 0xffffffffu };
	struct gm_mem_req r = { .id = 2, .addr = SYS_BASE + 64 };
	struct gm_mem_rsp rq, rs;
	uint64_t due, t;

	(void)state;
	assert_int_equal(gm_mem_create(&c, &q), GM_OK);
	assert_int_equal(gm_mem_create(&c, &s), GM_OK);
	memset(w.wdata, 0x5a, sizeof(w.wdata));
	assert_int_equal(gm_mem_serve(s, 10, &w, &rs, &due), GM_OK);
	assert_int_equal(due, 70); /* latency 60, two cycles of bus */
	assert_int_equal(gm_mem_serve(s, 11, &r, &rs, &due), GM_OK);
	assert_int_equal(gm_mem_request(q, 10, &w), GM_OK);
	assert_int_equal(gm_mem_request(q, 11, &r), GM_OK);
	for (t = 11; !gm_mem_response(q, t, &rq); t++)
		;
	assert_int_equal(rq.id, 1);
	for (; !gm_mem_response(q, t, &rq); t++)
		;
	assert_int_equal(t, due);
	assert_int_equal(rq.id, rs.id);
	assert_memory_equal(rq.rdata, rs.rdata, 32);
	assert_int_equal(rs.rdata[0], 0x5a);
	/* a decode error: answered a cycle later, err set */
	r.addr = 0x80000000ull;
	assert_int_equal(gm_mem_serve(s, 100, &r, &rs, &due), GM_OK);
	assert_true(rs.err);
	assert_int_equal(due, 101);
	gm_mem_destroy(q);
	gm_mem_destroy(s);
}

/* Negative twin: a gm_mem with queued requests does not serve; bad args. */
static void test_serve_refused(void **state)
{
	struct gm_mem_cfg c = mem_cfg(4);
	struct gm_mem *m;
	struct gm_mem_req r = { .id = 1, .addr = 0x40 };
	struct gm_mem_rsp rsp;
	uint64_t due = 7;

	(void)state;
	assert_int_equal(gm_mem_create(&c, &m), GM_OK);
	assert_int_equal(gm_mem_request(m, 0, &r), GM_OK);
	assert_int_equal(gm_mem_serve(m, 1, &r, &rsp, &due), GM_ERR_BUSY);
	assert_int_equal(gm_mem_serve(m, 1, &r, NULL, &due), GM_ERR_BAD_ARG);
	assert_int_equal(gm_mem_serve(NULL, 1, &r, &rsp, &due), GM_ERR_BAD_ARG);
	assert_int_equal(due, 7);
	gm_mem_destroy(m);
	r.addr = 0x41; /* unaligned */
	assert_int_equal(gm_mem_create(&c, &m), GM_OK);
	assert_int_equal(gm_mem_serve(m, 1, &r, &rsp, &due), GM_ERR_BAD_ARG);
	gm_mem_destroy(m);
}

/* Random traffic, both regions and decode errors, a request offered most
 * cycles: the port over gm_mem_serve accepts, stalls and answers (id, data,
 * cycle) exactly as gm_mem's own queue, and its port statistics agree. */
static void test_port_matches_mem(void **state)
{
	uint64_t seed = tb_seed("build/tests/test_gm_port"), rng = seed;
	struct gm_mem_cfg c = mem_cfg(8);
	struct gm_mem *q, *s;
	struct gm_port *p;
	struct gm_mem_stats a, b;

	(void)state;
	assert_int_equal(gm_mem_create(&c, &q), GM_OK);
	assert_int_equal(gm_mem_create(&c, &s), GM_OK);
	assert_int_equal(gm_port_create(8, 32, serve, s, &p), GM_OK);
	for (uint64_t t = 0; t < 20000; t++) {
		uint64_t x = tb_rand(&rng);
		struct gm_mem_req req = { .id = (uint32_t)(t & 0xff), .write = x >> 8 & 1 };
		struct gm_mem_rsp r1, r2;
		bool offer = (x & 3) != 0, can = gm_mem_can_accept(q), h1, h2;

		req.addr = ((x >> 16) % 3 == 0 ? SYS_BASE : (x >> 16) % 3 == 1 ? 0 : 0x80000000ull) +
			   32 * ((x >> 24) % 256);
		req.wstrb = x >> 32;
		memset(req.wdata, (int)(x >> 40), sizeof(req.wdata));
		assert_int_equal(gm_port_can_accept(p), can);
		if (offer && can) {
			assert_int_equal(gm_mem_request(q, t, &req), GM_OK);
			gm_port_request(p, t, &req);
		}
		h1 = gm_mem_response(q, t, &r1);
		h2 = gm_port_response(p, t, &r2);
		if (h1 != h2 || (h1 && (r1.id != r2.id || r1.err != r2.err ||
					memcmp(r1.rdata, r2.rdata, 32) || r1.accepted != r2.accepted)))
			fail_msg("seed %llu: cycle %llu differs: reproduce with GPUSIM_SEED=%llu "
				 "build/tests/test_gm_port", (unsigned long long)seed,
				 (unsigned long long)t, (unsigned long long)seed);
		gm_mem_tick(q, offer && !can);
		gm_port_tick(p, offer && !can);
	}
	gm_mem_get_stats(q, &a);
	gm_port_get_stats(p, &b);
	assert_int_equal(a.ticks, b.ticks);
	assert_int_equal(a.busy_cycles, b.busy_cycles);
	assert_int_equal(a.occupancy_sum, b.occupancy_sum);
	assert_int_equal(a.max_occupancy, b.max_occupancy);
	assert_int_equal(a.stall_cycles, b.stall_cycles);
	assert_int_equal(a.err_reqs, b.err_reqs);
	assert_int_equal(a.vram.rd_reqs + a.sys.rd_reqs, b.vram.rd_reqs);
	assert_int_equal(a.vram.wr_bytes + a.sys.wr_bytes, b.vram.wr_bytes);
	assert_int_equal(gm_mem_hash(q), gm_mem_hash(s));
	gm_port_destroy(p);
	gm_mem_destroy(q);
	gm_mem_destroy(s);
}

/* A target with a random latency a request (no order per region): the port
 * still answers the smallest (due, acceptance) first, one a cycle; the
 * oracle scans every request in flight. */
struct rnd_target {
	uint64_t rng;
	uint64_t due[256]; /* by id (the request's cycle & 0xff): the oracle's */
	bool live[256];
};

static void rnd_xfer(void *ctx, uint64_t now, const struct gm_mem_req *req, struct gm_mem_rsp *rsp,
		     uint64_t *due)
{
	struct rnd_target *t = ctx;

	memset(rsp, 0, sizeof(*rsp));
	rsp->id = req->id;
	*due = now + 1 + tb_rand(&t->rng) % 50;
	t->due[req->id] = *due;
	t->live[req->id] = true;
}

static void test_port_random_latency(void **state)
{
	uint64_t seed = tb_seed("build/tests/test_gm_port"), rng = seed;
	struct rnd_target t = { .rng = seed ^ 0x5eed };
	uint64_t seq[256] = { 0 }, next = 0;
	struct gm_port *p;

	(void)state;
	assert_int_equal(gm_port_create(16, 32, rnd_xfer, &t, &p), GM_OK);
	for (uint64_t c = 0; c < 20000; c++) {
		struct gm_mem_req req = { .id = (uint32_t)(c & 0xff) };
		struct gm_mem_rsp r;
		int best = -1;

		if (tb_rand(&rng) % 4 && gm_port_can_accept(p) && !t.live[req.id]) {
			gm_port_request(p, c, &req);
			seq[req.id] = next++;
		}
		for (int i = 0; i < 256; i++)
			if (t.live[i] && t.due[i] <= c &&
			    (best < 0 || t.due[i] < t.due[best] ||
			     (t.due[i] == t.due[best] && seq[i] < seq[best])))
				best = i;
		if (gm_port_response(p, c, &r) != (best >= 0) || (best >= 0 && r.id != (uint32_t)best))
			fail_msg("seed %llu: cycle %llu: reproduce with GPUSIM_SEED=%llu build/tests/test_gm_port",
				 (unsigned long long)seed, (unsigned long long)c, (unsigned long long)seed);
		if (best >= 0)
			t.live[best] = false;
	}
	gm_port_destroy(p);
}

static void test_port_bad_args(void **state)
{
	struct gm_port *p = NULL;

	(void)state;
	assert_int_equal(gm_port_create(0, 32, serve, NULL, &p), GM_ERR_BAD_ARG);
	assert_int_equal(gm_port_create(4097, 32, serve, NULL, &p), GM_ERR_BAD_ARG);
	assert_int_equal(gm_port_create(8, 0, serve, NULL, &p), GM_ERR_BAD_ARG);
	assert_int_equal(gm_port_create(8, 128, serve, NULL, &p), GM_ERR_BAD_ARG);
	assert_int_equal(gm_port_create(8, 32, NULL, NULL, &p), GM_ERR_BAD_ARG);
	assert_int_equal(gm_port_create(8, 32, serve, NULL, NULL), GM_ERR_BAD_ARG);
	assert_null(p);
	gm_port_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serve_due_and_data),
		cmocka_unit_test(test_serve_refused),
		cmocka_unit_test(test_port_matches_mem),
		cmocka_unit_test(test_port_random_latency),
		cmocka_unit_test(test_port_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
