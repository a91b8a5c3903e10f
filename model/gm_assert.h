/* SPDX-License-Identifier: MIT */
/*
 * gm_assert.h - the RTL's labelled assertions (generated from rtl/ by
 * tools/assert_table.py), so that a failure Verilator reports by file and
 * line is given its label (model/gm_assert.cpp).
 */
#ifndef GM_ASSERT_H
#define GM_ASSERT_H

#ifdef __cplusplus
extern "C" {
#endif

struct gm_assert_label {
	const char *file; /* base name, "cp_queue.sv" */
	int line;         /* of "label: assert" */
	const char *label;
};

/* Ends with { NULL, 0, NULL }. */
extern const struct gm_assert_label gm_assert_labels[];

#ifdef __cplusplus
}
#endif

#endif /* GM_ASSERT_H */
