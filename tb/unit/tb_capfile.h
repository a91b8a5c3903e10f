/* SPDX-License-Identifier: MIT */
/*
 * tb_capfile.h - the capture file of a capture unit test (test_capture.c,
 * test_capture_bounds.c): a temporary file the writer fills, made by the
 * cmocka setup, removed by the teardown, read back whole by slurp().
 * Include after cmocka.h.
 */
#ifndef TB_CAPFILE_H
#define TB_CAPFILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct file {
	uint8_t *b;
	size_t n;
};

static char path[64]; /* the test's capture file */

static inline int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_capture.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* The whole file (free .b). */
static inline struct file slurp(void)
{
	struct file f = { NULL, 0 };
	FILE *fp = fopen(path, "rb");
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	f.n = (size_t)n;
	f.b = malloc(f.n + 1);
	assert_non_null(f.b);
	assert_int_equal(fread(f.b, 1, f.n, fp), f.n);
	fclose(fp);
	return f;
}

#endif /* TB_CAPFILE_H */
