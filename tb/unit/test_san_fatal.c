/* SPDX-License-Identifier: MIT */
/*
 * test_san_fatal.c - the sanitizer run cannot pass on a report.
 *
 * Each case runs in a child that commits one error the sanitizers report
 * and exits 0 if it is still running afterwards; the case passes when the
 * child was stopped by its report instead (abort, or a non-zero exit).
 * In a build without sanitizers there is nothing to check: exit 77, which
 * the CTest list reads as skipped.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int big = INT_MAX;
static volatile size_t past_end = 8;
static volatile size_t no_bytes;
static const void *volatile null_src;

/* UBSan: signed overflow. */
static void signed_overflow(void)
{
	printf("%d\n", big + 1);
}

/* UBSan: memcpy from NULL, even of 0 bytes (the submission path had one). */
static void memcpy_from_null(void)
{
	char dst[4] = "abc";

	memcpy(dst, null_src, no_bytes);
	puts(dst);
}

/* ASan: one byte past a heap block. */
static void heap_overflow(void)
{
	char *p = malloc(8);

	p[past_end] = 1;
	free(p);
}

/* Run @fn in a child with stderr quiet; true when the report stopped it. */
static int stopped_by_report(const char *name, void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		printf("%s: fork/wait failed\n", name);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("FAIL %s: the child ran on after its report "
		       "(build with -fno-sanitize-recover=all, ASAN_OPTIONS/UBSAN_OPTIONS halt_on_error=1)\n",
		       name);
		return 0;
	}
	printf("ok %s: stopped by its report (%s %d)\n", name,
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 1;
}

int main(void)
{
	int ok = 1;

#ifndef __SANITIZE_ADDRESS__
	puts("not a sanitizer build (make test SAN=1 runs this): skipped");
	return 77;
#endif
	ok &= stopped_by_report("signed overflow", signed_overflow);
	ok &= stopped_by_report("memcpy from NULL", memcpy_from_null);
	ok &= stopped_by_report("heap overflow", heap_overflow);
	return ok ? 0 : 1;
}
