// SPDX-License-Identifier: MIT
/*
 * mmu_shadow.c - the host copy of the page-table pool.
 */
#include <stdlib.h>
#include <string.h>

#include "mmu_shadow.h"

/* True when [pa, pa + len) lies in the window. */
static bool inside(const struct mmu_shadow *sh, uint64_t pa, size_t len)
{
	return pa >= sh->base && pa - sh->base <= sh->bytes && len <= sh->bytes - (pa - sh->base);
}

static int shadow_read(void *ctx, uint64_t pa, void *buf, size_t len)
{
	const struct mmu_shadow *sh = ctx;

	if (!inside(sh, pa, len))
		return GM_ERR_ADDR;
	memcpy(buf, sh->mem + (pa - sh->base), len);
	return GM_OK;
}

static int shadow_write(void *ctx, uint64_t pa, const void *buf, size_t len)
{
	struct mmu_shadow *sh = ctx;

	if (!inside(sh, pa, len))
		return GM_ERR_ADDR;
	memcpy(sh->mem + (pa - sh->base), buf, len);
	return GM_OK;
}

static int shadow_alloc(void *ctx, uint64_t *pa)
{
	struct mmu_shadow *sh = ctx;
	uint64_t t;
	int st;

	st = sh->alloc_table(sh->alloc_ctx, &t);
	if (st != GM_OK)
		return st;
	if ((t & (MMU_TABLE_BYTES - 1)) || !inside(sh, t, MMU_TABLE_BYTES))
		return GM_ERR_ADDR;
	*pa = t;
	return GM_OK;
}

const struct mmu_mem_ops mmu_shadow_ops = { shadow_read, shadow_write, shadow_alloc };

int mmu_shadow_init(struct mmu_shadow *sh, uint64_t base, uint64_t bytes,
		    int (*alloc_table)(void *ctx, uint64_t *pa), void *alloc_ctx)
{
	uint8_t *mem;

	if (!sh || !alloc_table || !bytes || ((base | bytes) & (MMU_TABLE_BYTES - 1)) ||
	    base >= MMU_PA_LIMIT || bytes > MMU_PA_LIMIT - base || bytes > SIZE_MAX)
		return GM_ERR_BAD_ARG;
	mem = calloc(1, (size_t)bytes);
	if (!mem)
		return GM_ERR_NO_MEM;
	sh->mem = mem;
	sh->base = base;
	sh->bytes = bytes;
	sh->alloc_table = alloc_table;
	sh->alloc_ctx = alloc_ctx;
	return GM_OK;
}

void mmu_shadow_fini(struct mmu_shadow *sh)
{
	if (!sh)
		return;
	free(sh->mem);
	sh->mem = NULL;
	sh->bytes = 0;
}
