// SPDX-License-Identifier: MIT
/*
 * test_disasm.c - golden tests of the disassembler (dma/dma_disasm.c): DMA
 * buffers and rings built with the dma_buf emitters are decoded and the
 * text compared, byte for byte, with the text written here.
 *
 * Build and run:
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *       -Ihw -Imodel -Idma tb/unit/test_disasm.c dma/dma_disasm.c hw/gpu_pkt.c \
 *       dma/dma_buf.c hw/gpu_tile.c hw/gpu_names.c dma/dma_patch.c \
 *       model/gm_status.c -lcmocka -o /tmp/test_disasm
 *   /tmp/test_disasm
 *
 * test_dma.c covers the first packets (NOP, WRITE_DATA, fences, WAIT_MEM,
 * TIMESTAMP), refused headers and the basic IB walk.  This file covers
 * what it does not:
 *   privileged packets (decoded; privilege is the validator's) .. test_privileged
 *   COPY, BLT, FILL ............................................. test_copy_engine
 *   IB bodies followed, addresses near 2^48, an IB over part
 *     of another's body ......................................... test_ib_follow
 *   IBs the hardware refuses: printed with the cause, not read .. test_ib_refused
 *   an IB longer than the print window ........................... test_ib_print_window
 *   refused fields: decoded, flagged, decoding goes on ........... test_fields_refused
 *   a patched DMA buffer shows the allocations' addresses,
 *     and the new ones after a re-patch ......................... test_patched_buffer
 *
 * The expected text is written out in full, as the hardware would see each
 * packet; it changes only when the packet format or the printer does.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dma_buf.h"
#include "dma_disasm.h"
#include "dma_patch.h"
#include "gpu_hw.h"

/*
 * With -fsanitize=undefined, make a UBSan report fatal so it fails the run
 * instead of scrolling past; unused in builds without the sanitizer.
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void emit(int st)
{
	if (st != GM_OK)
		fail_msg("emitter: %s", gm_status_name(st));
}

/* ------------------------------------------------------------ GPU memory */

/* GPU memory for the read callback: regions of @n dwords at @base. */
struct region {
	uint64_t base;
	const uint32_t *dw;
	size_t n;
};

struct mem_img {
	const struct region *r;
	size_t nr;
	unsigned reads; /* successful reads */
};

/* dma_read_fn: succeed only when [addr, addr + 4n) lies inside one region. */
static int mem_read(void *ctx, uint64_t addr, uint32_t *dw, size_t n)
{
	struct mem_img *m = ctx;

	for (size_t i = 0; i < m->nr; i++) {
		const struct region *r = &m->r[i];

		if (addr < r->base || (addr - r->base) % 4 || (addr - r->base) / 4 + n > r->n)
			continue;
		memcpy(dw, &r->dw[(addr - r->base) / 4], n * sizeof(*dw));
		m->reads++;
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------ comparison */

static char *disasm_text(const uint32_t *dw, size_t n, uint64_t addr, dma_read_fn rd, void *ctx,
			 int *bad)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*bad = dma_disasm(f, dw, n, addr, rd, ctx);
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	return text;
}

/* Print the first differing line of the two texts, for the failure message. */
static void print_first_diff(const char *got, const char *want)
{
	size_t line = 1;
	const char *g = got, *w = want;

	while (*g && *g == *w) {
		line += *g == '\n';
		g++;
		w++;
	}
	while (g > got && g[-1] != '\n') {
		g--;
		w--;
	}
	print_error("first difference on line %zu:\n got:  %.*s\n want: %.*s\n", line,
		    (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

static void assert_disasm(const uint32_t *dw, size_t n, uint64_t addr, struct mem_img *mem,
			  int want_bad, const char *want)
{
	int bad;
	char *text = disasm_text(dw, n, addr, mem ? mem_read : NULL, mem, &bad);
	bool same = strcmp(text, want) == 0;

	if (!same) {
		print_error("got:\n%s\nexpected:\n%s\n", text, want);
		print_first_diff(text, want);
	}
	free(text);
	if (!same)
		fail_msg("disassembly differs");
	if (bad != want_bad)
		fail_msg("dma_disasm returned %d, expected %d", bad, want_bad);
}

/* ------------------------------------------------------------ tests */

/*
 * PTE_WRITE and INVALIDATE_TLB decode like any packet: the disassembler
 * takes the queue as privileged (dma_disasm.c); refusing them in user
 * buffers is the validator's job.
 */
static void test_privileged(void **state)
{
	const uint64_t flags = GPU_PTE_V(1) | GPU_PTE_SYS(1) | GPU_PTE_R(1) | GPU_PTE_W(1);
	uint32_t dw[32];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	emit(dma_emit_pte_write(&b, 0x8000, flags, 0x123456000ull, 4096, 16));
	emit(dma_emit_pte_write(&b, 0x1234567ff8ull, GPU_PTE_PRT(1), 0, 0,
				GPU_PKT_PTE_WRITE_ENTRIES_MASK));
	emit(dma_emit_invalidate_tlb(&b, 3, false, 0x10, 0x20));
	emit(dma_emit_invalidate_tlb(&b, 0, true, 0, 0xffffffffu));
	assert_disasm(dw, b.len, 0x1000, NULL, 0,
		      "  0x000000001000: PTE_WRITE DST_LO=0x8000 DST_HI=0x0 FLAGS_LO=0xf "
		      "FLAGS_HI=0x0 BASE_LO=0x23456000 BASE_HI=0x1 STRIDE=0x1000 NUM=0x10\n"
		      "  0x000000001024: PTE_WRITE DST_LO=0x34567ff8 DST_HI=0x12 FLAGS_LO=0x10 "
		      "FLAGS_HI=0x0 BASE_LO=0x0 BASE_HI=0x0 STRIDE=0x0 NUM=0xfffff\n"
		      "  0x000000001048: INVALIDATE_TLB CTL=0x3 START=0x10 END=0x20\n"
		      "  0x000000001058: INVALIDATE_TLB CTL=0x80000000 START=0x0 END=0xffffffff\n");
}

static void test_copy_engine(void **state)
{
	const struct dma_surf lin = { 0x30000, 256, GPU_TILE_LINEAR, 2, 0, 0 };
	const struct dma_surf xt = { 0x40000, 512, GPU_TILE_X, 2, 8, 1 };
	const struct dma_surf ss = { 0x10000, 512, GPU_TILE_SS64K, 2, 0, 0 };
	uint32_t dw[64];
	struct dma_buf b;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	emit(dma_emit_copy(&b, 0x123456789abcull, 0x1001, 0x1234));
	emit(dma_emit_blt(&b, &xt, &lin, 16, 4));
	emit(dma_emit_fill(&b, &lin, 16, 4, 0x0807060504030201ull));
	emit(dma_emit_fill(&b, &ss, 128, 2, 0));
	/* FMT = PITCH | MODE << 24 | BPE << 28; XY = X | Y << 16 */
	assert_disasm(dw, b.len, 0x200000, NULL, 0,
		      "  0x000000200000: COPY SRC_LO=0x1001 SRC_HI=0x0 DST_LO=0x56789abc "
		      "DST_HI=0x1234 BYTES=0x1234\n"
		      "  0x000000200018: BLT SRC_LO=0x30000 SRC_HI=0x0 SRC_FMT=0x20000100 "
		      "SRC_XY=0x0 DST_LO=0x40000 DST_HI=0x0 DST_FMT=0x23000200 DST_XY=0x10008 "
		      "WIDTH=0x10 HEIGHT=0x4\n"
		      "  0x000000200044: FILL DST_LO=0x30000 DST_HI=0x0 DST_FMT=0x20000100 "
		      "DST_XY=0x0 WIDTH=0x10 HEIGHT=0x4 VALUE_LO=0x4030201 VALUE_HI=0x8070605\n"
		      "  0x000000200068: FILL DST_LO=0x10000 DST_HI=0x0 DST_FMT=0x21000200 "
		      "DST_XY=0x0 WIDTH=0x80 HEIGHT=0x2 VALUE_LO=0x0 VALUE_HI=0x0\n");
}

/*
 * A ring near the top of the address space runs one IB over a whole body
 * and a second over its last two packets; both bodies are printed one level
 * in, at their own GPU addresses.
 */
static void test_ib_follow(void **state)
{
	const uint64_t ib = 0x4000000, ring_at = 0xfffffffff000ull;
	static const uint32_t v = 0xdeadbeefu;
	uint32_t body[32], ring[16];
	struct dma_buf b;
	size_t tail; /* dword index of the body's PTE_WRITE */
	struct region r;
	struct mem_img mem = { &r, 1, 0 };

	(void)state;
	dma_buf_init(&b, body, ARRAY_SIZE(body));
	emit(dma_emit_write_data(&b, 0x9000, &v, 1));
	emit(dma_emit_copy(&b, 0x20000, 0x10000, 0x40));
	tail = b.len;
	emit(dma_emit_pte_write(&b, 0x8000, GPU_PTE_V(1), 0x5000, 0x1000, 1));
	emit(dma_emit_release_fence(&b, 0x9008, 7, false, true));
	r = (struct region){ ib, body, b.len };

	dma_buf_init(&b, ring, ARRAY_SIZE(ring));
	emit(dma_emit_nop(&b, 1));
	emit(dma_emit_indirect_buffer(&b, ib, (uint32_t)r.n));
	emit(dma_emit_indirect_buffer(&b, ib + 4 * tail, (uint32_t)(r.n - tail)));
	emit(dma_emit_timestamp(&b, 0x9010));
	assert_disasm(ring, b.len, ring_at, &mem, 0,
		      "  0xfffffffff000: NOP DW=0x0\n"
		      "  0xfffffffff008: INDIRECT_BUFFER ADDR_LO=0x4000000 ADDR_HI=0x0 SIZE=0x19\n"
		      "      0x000004000000: WRITE_DATA ADDR_LO=0x9000 ADDR_HI=0x0 DATA=0xdeadbeef\n"
		      "      0x000004000010: COPY SRC_LO=0x10000 SRC_HI=0x0 DST_LO=0x20000 "
		      "DST_HI=0x0 BYTES=0x40\n"
		      "      0x000004000028: PTE_WRITE DST_LO=0x8000 DST_HI=0x0 FLAGS_LO=0x1 "
		      "FLAGS_HI=0x0 BASE_LO=0x5000 BASE_HI=0x0 STRIDE=0x1000 NUM=0x1\n"
		      "      0x00000400004c: RELEASE_FENCE ADDR_LO=0x9008 ADDR_HI=0x0 VALUE_LO=0x7 "
		      "VALUE_HI=0x0 FLAGS=0x2\n"
		      "  0xfffffffff018: INDIRECT_BUFFER ADDR_LO=0x4000028 ADDR_HI=0x0 SIZE=0xf\n"
		      "      0x000004000028: PTE_WRITE DST_LO=0x8000 DST_HI=0x0 FLAGS_LO=0x1 "
		      "FLAGS_HI=0x0 BASE_LO=0x5000 BASE_HI=0x0 STRIDE=0x1000 NUM=0x1\n"
		      "      0x00000400004c: RELEASE_FENCE ADDR_LO=0x9008 ADDR_HI=0x0 VALUE_LO=0x7 "
		      "VALUE_HI=0x0 FLAGS=0x2\n"
		      "  0xfffffffff028: TIMESTAMP ADDR_LO=0x9010 ADDR_HI=0x0\n");
	assert_int_equal(mem.reads, 2);
}

/*
 * IB packets the hardware refuses are printed with the cause and their
 * body is never read; the one legal IB after them is followed.  Each is
 * emitted legal and then broken in one field.
 */
static void test_ib_refused(void **state)
{
	const uint64_t ib = 0x5000;
	const uint32_t body[1] = { GPU_PKT_HDR(GPU_OP_NOP, 0) };
	const uint32_t hdr = 1; /* payload dwords follow the header */
	const struct region r = { ib, body, ARRAY_SIZE(body) };
	struct mem_img mem = { &r, 1, 0 };
	uint32_t ring[32];
	struct dma_buf b;
	size_t at;

	(void)state;
	dma_buf_init(&b, ring, ARRAY_SIZE(ring));
	at = b.len;
	emit(dma_emit_indirect_buffer(&b, ib, 4));
	ring[at + hdr + GPU_PKT_INDIRECT_BUFFER_SIZE] = GPU_PKT_INDIRECT_BUFFER_SIZE_DW(0);
	at = b.len;
	emit(dma_emit_indirect_buffer(&b, ib, 4));
	ring[at + hdr + GPU_PKT_INDIRECT_BUFFER_ADDR_LO] |= 2;
	at = b.len;
	emit(dma_emit_indirect_buffer(&b, ib, 4));
	ring[at + hdr + GPU_PKT_INDIRECT_BUFFER_SIZE] |= 1u << 22; /* reserved */
	emit(dma_emit_indirect_buffer(&b, ib, GPU_IB_MAX_DW_RESET + 1));
	at = b.len;
	emit(dma_emit_indirect_buffer(&b, ib, 4));
	ring[at + hdr + GPU_PKT_INDIRECT_BUFFER_ADDR_HI] |= 0x10000; /* bit 48 */
	emit(dma_emit_indirect_buffer(&b, ib, 1));
	assert_disasm(ring, b.len, 0, &mem, 5,
		      "  0x000000000000: INDIRECT_BUFFER ADDR_LO=0x5000 ADDR_HI=0x0 SIZE=0x0\n"
		      "    !! hardware would halt: IB_RANGE\n"
		      "  0x000000000010: INDIRECT_BUFFER ADDR_LO=0x5002 ADDR_HI=0x0 SIZE=0x4\n"
		      "    !! hardware would halt: BAD_ALIGN\n"
		      "  0x000000000020: INDIRECT_BUFFER ADDR_LO=0x5000 ADDR_HI=0x0 SIZE=0x400004\n"
		      "    !! hardware would halt: BAD_FIELD\n"
		      "  0x000000000030: INDIRECT_BUFFER ADDR_LO=0x5000 ADDR_HI=0x0 SIZE=0x100001\n"
		      "    !! hardware would halt: IB_RANGE\n"
		      "  0x000000000040: INDIRECT_BUFFER ADDR_LO=0x5000 ADDR_HI=0x10000 SIZE=0x4\n"
		      "    !! hardware would halt: BAD_FIELD\n"
		      "  0x000000000050: INDIRECT_BUFFER ADDR_LO=0x5000 ADDR_HI=0x0 SIZE=0x1\n"
		      "      0x000000005000: NOP\n");
	assert_int_equal(mem.reads, 1);
}

/*
 * An IB of 5000 dwords: the disassembler reads the first 4096 (its print
 * window), prints the long NOP with its payload elided, and stops at the
 * TIMESTAMP that straddles the window's end instead of calling it
 * truncated.
 */
static void test_ib_print_window(void **state)
{
	const uint64_t ib = 0x100000;
	const uint32_t ib_dw = 5000, window = 4096;
	uint32_t *body = test_calloc(ib_dw, sizeof(*body));
	uint32_t ring[4];
	struct dma_buf b;
	struct region r = { ib, body, ib_dw };
	struct mem_img mem = { &r, 1, 0 };

	(void)state;
	dma_buf_init(&b, body, ib_dw);
	emit(dma_emit_nop(&b, window - 3));       /* dwords 0 .. 4093 */
	emit(dma_emit_timestamp(&b, 0x9010));      /* 4094 .. 4096: crosses the window */
	while (b.len < ib_dw)
		emit(dma_emit_nop(&b, 0));
	dma_buf_init(&b, ring, ARRAY_SIZE(ring));
	emit(dma_emit_indirect_buffer(&b, ib, ib_dw));
	assert_disasm(ring, b.len, 0, &mem, 0,
		      "  0x000000000000: INDIRECT_BUFFER ADDR_LO=0x100000 ADDR_HI=0x0 SIZE=0x1388\n"
		      "      0x000000100000: NOP DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 "
		      "DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 DW=0x0 "
		      "...(4093 dwords)\n"
		      "      0x000000103ff8: TIMESTAMP ...(printing stops at 4096 dwords)\n");
	assert_int_equal(mem.reads, 1);
	test_free(body);
}

/*
 * Packets whose header is legal but a field is not: printed in full, the
 * cause on the next line, and decoding goes on with the next packet.
 */
static void test_fields_refused(void **state)
{
	uint32_t dw[64];
	struct dma_buf b;
	size_t at;

	(void)state;
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	at = b.len + 1;
	emit(dma_emit_wait_mem(&b, 0x9000, 1, 0xffffffffu, GPU_FUNC_GE, false, 1));
	dw[at + GPU_PKT_WAIT_MEM_CTL] |= GPU_PKT_WAIT_MEM_FUNC(7); /* past GT */
	at = b.len + 1;
	emit(dma_emit_release_fence(&b, 0x9008, 1, true, false));
	dw[at + GPU_PKT_RELEASE_FENCE_ADDR_LO] = 0x9004; /* 64-bit fence at 4-aligned */
	at = b.len + 1;
	emit(dma_emit_pte_write(&b, 0x8000, GPU_PTE_V(1), 0, 0x1000, 1));
	dw[at + GPU_PKT_PTE_WRITE_NUM] = 0;
	at = b.len + 1;
	emit(dma_emit_invalidate_tlb(&b, 1, false, 0, 1));
	dw[at + GPU_PKT_INVALIDATE_TLB_CTL] |= 0x10; /* the bit above VMID */
	emit(dma_emit_timestamp(&b, 0x9010));
	assert_disasm(dw, b.len, 0x300, NULL, 4,
		      "  0x000000000300: WAIT_MEM ADDR_LO=0x9000 ADDR_HI=0x0 REF_LO=0x1 REF_HI=0x0 "
		      "MASK_LO=0xffffffff MASK_HI=0x0 CTL=0x10007\n"
		      "    !! hardware would halt: BAD_FIELD\n"
		      "  0x000000000320: RELEASE_FENCE ADDR_LO=0x9004 ADDR_HI=0x0 VALUE_LO=0x1 "
		      "VALUE_HI=0x0 FLAGS=0x1\n"
		      "    !! hardware would halt: BAD_ALIGN\n"
		      "  0x000000000338: PTE_WRITE DST_LO=0x8000 DST_HI=0x0 FLAGS_LO=0x1 FLAGS_HI=0x0 "
		      "BASE_LO=0x0 BASE_HI=0x0 STRIDE=0x1000 NUM=0x0\n"
		      "    !! hardware would halt: BAD_FIELD\n"
		      "  0x00000000035c: INVALIDATE_TLB CTL=0x11 START=0x0 END=0x1\n"
		      "    !! hardware would halt: BAD_FIELD\n"
		      "  0x00000000036c: TIMESTAMP ADDR_LO=0x9010 ADDR_HI=0x0\n");
}

/* Whether the host stores a uint32_t little-endian, as the GPU does. */
static bool host_le(void)
{
	const uint32_t one = 1;
	uint8_t b0;

	memcpy(&b0, &one, 1);
	return b0 == 1;
}

/*
 * The Render -> Patch path: a DMA buffer emitted with zero placeholders,
 * its patch list naming the COPY's two addresses, the fence address and
 * the fence value; after dma_patch() the disassembly shows the
 * allocations' addresses, and after a move and a re-patch the new one.
 */
static void test_patched_buffer(void **state)
{
	struct dma_alloc_entry allocs[3] = {
		{ (void *)0x1, 0x1200000, 0x1000, 1, false },             /* source */
		{ (void *)0x2, GPU_SYSMEM_BASE + 0x3000, 0x1000, 2, true }, /* destination */
		{ (void *)0x3, 0x7000, 0x1000, 1, true },                  /* fence page */
	};
	struct dma_patch_loc locs[4];
	uint32_t dw[16];
	struct dma_buf b;
	struct dma_patch_list pl;
	struct dma_patch_args a;
	uint32_t cp, fe; /* byte offsets of the COPY and RELEASE_FENCE payloads */

	(void)state;
	/* The patcher writes GPU (little-endian) bytes; dma_disasm reads host dwords. */
	if (!host_le())
		skip();
	dma_buf_init(&b, dw, ARRAY_SIZE(dw));
	dma_patch_list_init(&pl, locs, ARRAY_SIZE(locs));
	cp = 4 * ((uint32_t)b.len + 1);
	emit(dma_emit_copy(&b, 0, 0, 0x100));
	fe = 4 * ((uint32_t)b.len + 1);
	emit(dma_emit_release_fence(&b, 0, 0, false, true));
	/* alloc_index, slot_id, driver_id, alloc_offset, patch_offset, split_offset */
	emit(dma_patch_list_add(&pl, &(struct dma_patch_loc){
		0, 0, DMA_PATCH_ADDR64, 0x100, cp + 4 * GPU_PKT_COPY_SRC_LO, cp - 4 }));
	emit(dma_patch_list_add(&pl, &(struct dma_patch_loc){
		1, 0, DMA_PATCH_ADDR64, 0, cp + 4 * GPU_PKT_COPY_DST_LO, cp - 4 }));
	emit(dma_patch_list_add(&pl, &(struct dma_patch_loc){
		2, 0, DMA_PATCH_ADDR64, 0x40, fe + 4 * GPU_PKT_RELEASE_FENCE_ADDR_LO, fe - 4 }));
	emit(dma_patch_list_add(&pl, &(struct dma_patch_loc){
		0, 0, DMA_PATCH_FENCE_ID32, 0, fe + 4 * GPU_PKT_RELEASE_FENCE_VALUE_LO, fe - 4 }));
	a = (struct dma_patch_args){
		.dma = dw,
		.dma_size = sizeof(dw),
		.dma_phys = 0x800000,
		.dma_sub_start = 0,
		.dma_sub_end = 4 * (uint32_t)b.len,
		.allocs = allocs,
		.alloc_count = ARRAY_SIZE(allocs),
		.locs = locs,
		.loc_count = pl.len,
		.loc_sub_len = pl.len,
		.fence_id = 42,
	};
	emit(dma_patch(&a));
	assert_disasm(dw, b.len, a.dma_phys, NULL, 0,
		      "  0x000000800000: COPY SRC_LO=0x1200100 SRC_HI=0x0 DST_LO=0x3000 "
		      "DST_HI=0x100 BYTES=0x100\n"
		      "  0x000000800018: RELEASE_FENCE ADDR_LO=0x7040 ADDR_HI=0x0 VALUE_LO=0x2a "
		      "VALUE_HI=0x0 FLAGS=0x2\n");

	/* The destination was evicted and brought back into VRAM elsewhere. */
	allocs[1].addr = 0xabc0000;
	a.fence_id = 43;
	emit(dma_patch(&a));
	assert_disasm(dw, b.len, a.dma_phys, NULL, 0,
		      "  0x000000800000: COPY SRC_LO=0x1200100 SRC_HI=0x0 DST_LO=0xabc0000 "
		      "DST_HI=0x0 BYTES=0x100\n"
		      "  0x000000800018: RELEASE_FENCE ADDR_LO=0x7040 ADDR_HI=0x0 VALUE_LO=0x2b "
		      "VALUE_HI=0x0 FLAGS=0x2\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_privileged),
		cmocka_unit_test(test_copy_engine),
		cmocka_unit_test(test_ib_follow),
		cmocka_unit_test(test_ib_refused),
		cmocka_unit_test(test_ib_print_window),
		cmocka_unit_test(test_fields_refused),
		cmocka_unit_test(test_patched_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
