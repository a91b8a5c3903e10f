/* SPDX-License-Identifier: MIT */
/*
 * fw_mfence.c - monitored fences (see fw_mfence.h).
 */
#include <string.h>

#include "fw_mfence.h"

int fw_mfence_create(struct fw_kmd *k, struct fw_device *dev, uint64_t initial, uint32_t *id)
{
	if (!k || !dev)
		return GM_ERR_BAD_ARG;
	if (fw_device_is_removed(dev))
		return GM_ERR_DEVICE_REMOVED;
	if (!id || dev->ad != &k->ad || initial == UINT64_MAX)
		return GM_ERR_BAD_ARG;
	for (uint32_t i = 1; i <= FW_KMD_MAX_MFENCES; i++) {
		struct fw_mfence *m = &k->mfs->mf[i];
		uint64_t addr = k->mfs->addr + 8ull * i;
		int st;

		if (m->dev)
			continue;
		st = gm_backdoor_write(k->d->gm, addr, &initial, 8);
		if (st)
			return st;
		*m = (struct fw_mfence){ .dev = dev, .addr = addr, .requested = initial,
					 .seen = initial };
		*id = i;
		return GM_OK;
	}
	return GM_ERR_FULL;
}

struct fw_mfence *fw_mfence_get(struct fw_kmd *k, uint32_t id)
{
	if (!k || id == 0 || id > FW_KMD_MAX_MFENCES || !k->mfs->mf[id].dev)
		return NULL;
	return &k->mfs->mf[id];
}

uint64_t fw_mfence_addr(const struct fw_kmd *k, uint32_t id)
{
	return k->mfs->mf[id].addr;
}

/* Read what the GPU wrote; the CPU's view never goes back. */
static int mfence_update(struct fw_kmd *k, struct fw_mfence *m)
{
	uint64_t v = 0;
	int st = gm_backdoor_read64(k->d->gm, m->addr, &v);

	if (!st && v > m->seen)
		m->seen = v;
	return st;
}

int fw_mfence_read(struct fw_kmd *k, uint32_t id, uint64_t *value)
{
	struct fw_mfence *m = fw_mfence_get(k, id);
	int st = GM_OK;

	if (!m || !value)
		return GM_ERR_BAD_ARG;
	if (!fw_device_is_removed(m->dev))
		st = mfence_update(k, m);
	if (!st)
		*value = m->seen;
	return st;
}

bool fw_mfence_signals_ok(const struct fw_kmd *k, const struct fw_device *dev,
			  const struct fw_signal *sig, uint32_t nsig)
{
	for (uint32_t i = 0; i < nsig; i++) {
		const struct fw_mfence *m = sig[i].fence <= FW_KMD_MAX_MFENCES ? &k->mfs->mf[sig[i].fence] : NULL;

		if (!m || m->dev != dev || sig[i].value <= m->requested)
			return false;
		for (uint32_t j = 0; j < i; j++)
			if (sig[j].fence == sig[i].fence && sig[j].value >= sig[i].value)
				return false;
	}
	return true;
}

void fw_mfence_request(struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig)
{
	for (uint32_t i = 0; i < nsig; i++)
		if (sig[i].value > k->mfs->mf[sig[i].fence].requested)
			k->mfs->mf[sig[i].fence].requested = sig[i].value;
}

int fw_mfence_retire(struct fw_kmd *k, const struct fw_signal *sig, uint32_t nsig)
{
	int st = GM_OK;

	for (uint32_t i = 0; !st && i < nsig; i++)
		st = mfence_update(k, &k->mfs->mf[sig[i].fence]);
	return st;
}

int fw_mfence_remove_device(struct fw_kmd *k, const struct fw_device *dev)
{
	const uint64_t max = UINT64_MAX;

	for (unsigned i = 1; i <= FW_KMD_MAX_MFENCES; i++) {
		struct fw_mfence *m = &k->mfs->mf[i];
		int st;

		if (m->dev != dev)
			continue;
		st = gm_backdoor_write(k->d->gm, m->addr, &max, 8);
		if (st)
			return st;
		m->requested = m->seen = max;
	}
	return GM_OK;
}

void fw_mfence_release_device(struct fw_kmd *k, const struct fw_device *dev)
{
	for (unsigned i = 1; i <= FW_KMD_MAX_MFENCES; i++)
		if (k->mfs->mf[i].dev == dev)
			memset(&k->mfs->mf[i], 0, sizeof(k->mfs->mf[i]));
}
