// SPDX-License-Identifier: MIT
/*
 * fuzz_dma.c - libFuzzer harness for the DMA-buffer code that takes
 * untrusted input (bad input gets the error its header documents, never a
 * crash or a hang).  The first input dword picks the target:
 *
 *   0  dma_validate_cmdbuf: the rest is a user command buffer; the limits
 *      (IB maximum, in ring or as an IB, 0..2 IB ranges, one of them
 *      malformed) come from the first byte.
 *   1  dma_patch: allocation list, patch-location list and every offset of
 *      the DXGKARG_PATCH argument set drawn from the input (pointers stay
 *      valid for the sizes they claim: the contract covers bad values).
 *      Checked here: a refused call leaves the DMA buffer byte for byte as
 *      it was.
 *   2  dma_disasm: the first half is a buffer, the second the memory behind
 *      its IBs (a read callback that fails on some addresses).
 *
 * Build and run with `make fuzz` (FUZZ_SECONDS, default 120); a finding is
 * written to build/fuzz/crash-* and `build/fuzz/fuzz_dma FILE` replays it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_disasm.h"
#include "dma_patch.h"
#include "dma_validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct src {
	const uint8_t *p;
	size_t n;
};

/* The next little-endian dword of the input (zeros past its end). */
static uint32_t take(struct src *s)
{
	uint32_t v = 0;

	for (int i = 0; i < 4 && s->n; i++, s->p++, s->n--)
		v |= (uint32_t)*s->p << (8 * i);
	return v;
}

static uint32_t below(struct src *s, uint32_t lim)
{
	return take(s) % lim;
}

static uint32_t *take_dwords(struct src *s, size_t ndw)
{
	uint32_t *dw = malloc(ndw * 4 + 4);

	if (!dw)
		abort();
	memcpy(dw, s->p, ndw * 4);
	s->p += ndw * 4;
	s->n -= ndw * 4;
	return dw;
}

static void fuzz_validate(struct src *s, uint8_t knobs)
{
	static const struct dma_va_range ranges[2] = { { 0x1000, 0x100000 }, { 0x40000, 0x30000 } };
	struct dma_validate_limits lim = { .ib_max_dw = knobs & 1 ? 0 : 64,
					   .in_ring = knobs & 2,
					   .ib_ranges = ranges,
					   .n_ib_ranges = (knobs >> 2) % 3 };
	struct dma_validate_report rep;
	size_t ndw = s->n / 4;
	uint32_t *dw = take_dwords(s, ndw);

	dma_validate_cmdbuf(dw, ndw, &lim, &rep);
	free(dw);
}

static void fuzz_patch(struct src *s)
{
	struct dma_alloc_entry ae[8];
	struct dma_patch_loc loc[16];
	struct dma_patch_stats st;
	struct dma_patch_args a;
	uint32_t nal = below(s, 9), nloc = below(s, 17), dsz = below(s, 512);
	uint8_t priv[64] = { 0 };
	uint8_t *buf = malloc(dsz + 1), *before = malloc(dsz + 1);

	if (!buf || !before)
		abort();
	for (uint32_t i = 0; i < dsz; i++)
		buf[i] = (uint8_t)i;
	memcpy(before, buf, dsz);
	for (uint32_t i = 0; i < nal; i++) {
		uint32_t lo = take(s), sh = below(s, 40);

		ae[i] = (struct dma_alloc_entry){ .handle = &ae[i],
						  .addr = (uint64_t)lo << sh,
						  .size = below(s, 0x20000),
						  .segment_id = below(s, 3),
						  .write = take(s) & 1 };
	}
	for (uint32_t i = 0; i < nloc; i++) {
		loc[i].alloc_index = below(s, 10);
		loc[i].slot_id = take(s) & 0x10ffffff;
		loc[i].driver_id = below(s, 8);
		loc[i].alloc_offset = below(s, 0x21000);
		loc[i].patch_offset = below(s, 600);
		loc[i].split_offset = below(s, 600);
	}
	memset(&a, 0, sizeof(a));
	a.dma = buf;
	a.dma_size = dsz;
	a.dma_segment_id = below(s, 2);
	a.dma_phys = (uint64_t)take(s) << 8;
	a.dma_sub_start = below(s, 600);
	a.dma_sub_end = below(s, 600);
	a.priv = priv;
	a.priv_size = below(s, sizeof(priv) + 1);
	a.priv_sub_start = below(s, 70);
	a.priv_sub_end = below(s, 70);
	a.allocs = below(s, 5) ? ae : NULL;
	a.alloc_count = a.allocs || below(s, 2) ? nal : 0;
	a.locs = below(s, 5) ? loc : NULL;
	a.loc_count = a.locs || below(s, 2) ? nloc : 0;
	a.loc_sub_start = below(s, 20);
	a.loc_sub_len = below(s, 20);
	a.fence_id = take(s);
	a.flags = below(s, 8);
	a.stats = &st;
	/* A list pointer NULL with a count is a bad value the patcher must
	 * refuse, not read; the pointers it may read are valid for their counts. */
	if (dma_patch(&a) != GM_OK && memcmp(buf, before, dsz)) {
		fprintf(stderr, "fuzz_dma: a refused dma_patch wrote the DMA buffer\n");
		abort();
	}
	free(buf);
	free(before);
}

static struct src ib_mem;

/* IB bodies: bytes of the input's second half, mixed with the address; a
 * read fails on every 256th 16-byte line, as an unmapped address would. */
static int read_ib(void *ctx, uint64_t addr, uint32_t *dw, size_t n)
{
	(void)ctx;
	if ((addr & 0xff0) == 0xff0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t o = (addr / 4 + i) * 4;

		dw[i] = ib_mem.n ? (uint32_t)ib_mem.p[o % ib_mem.n] * 0x01010101u ^ (uint32_t)o : 0;
	}
	return 0;
}

static void fuzz_disasm(struct src *s, uint8_t knobs)
{
	size_t ndw = s->n / 8;
	uint32_t *dw = take_dwords(s, ndw);
	FILE *null = fopen("/dev/null", "w");

	if (!null)
		abort();
	ib_mem = *s;
	dma_disasm(null, dw, ndw, 0x10000, knobs & 1 ? read_ib : NULL, NULL);
	fclose(null);
	free(dw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src s = { data, size };
	uint8_t knobs = size ? data[0] : 0;

	switch (take(&s) % 3) {
	case 0:
		fuzz_validate(&s, knobs);
		break;
	case 1:
		fuzz_patch(&s);
		break;
	default:
		fuzz_disasm(&s, knobs);
		break;
	}
	return 0;
}
