// SPDX-License-Identifier: MIT
/*
 * gm_peek.c - gm_reg_peek (gm.h): registers read for a report without
 * moving the model's clock, on a copy-on-write copy of the whole simulation
 * in a child process (fork), whose register reads take their cycles there.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gm.h"
#include "gm_priv.h"

/* What a peek's child process sends back: a status and the values read,
 * in one write a pipe takes whole (at most PIPE_BUF bytes). */
struct peek_result {
	int32_t st;
	uint32_t val[GM_PEEK_MAX];
};
_Static_assert(sizeof(struct peek_result) <= PIPE_BUF, "a peek's answer is one pipe write");

/* In the child: the reads on its copy of the model, which records nothing
 * (no capture, no waveform: their files are the parent's), then exit
 * without atexit handlers or stdio flushes (the buffers are the parent's). */
static void __attribute__((noreturn)) peek_child(struct gm *g, const uint32_t *offs, size_t n,
						 int fd)
{
	struct peek_result r;

	memset(&r, 0, sizeof(r));
	g->cap = NULL;
	g->wave_open = false;
	for (size_t i = 0; i < n && r.st != GM_ERR_HW; i++) {
		int st = gm_reg_access(g, offs[i], false, 0, &r.val[i]);

		if (st && (!r.st || st == GM_ERR_HW))
			r.st = st;
	}
	_exit(write(fd, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
}

int gm_reg_peek(struct gm *g, const uint32_t *offs, uint32_t *vals, size_t n)
{
	struct peek_result r;
	size_t got = 0;
	int fd[2], status;
	pid_t pid;

	if (!g || !offs || !vals || !n || n > GM_PEEK_MAX)
		return GM_ERR_BAD_ARG;
	for (size_t i = 0; i < n; i++)
		if (!gm_reg_off_ok(offs[i]))
			return GM_ERR_BAD_ARG;
	if (g->io) /* a TLM platform: its GPU model, at the host's time */
		return gm_reg_peek(gm_io_core(g), offs, vals, n);
	if (pipe(fd))
		return GM_ERR_NO_MEM;
	pid = fork();
	if (pid == 0)
		peek_child(g, offs, n, fd[1]);
	close(fd[1]);
	while (pid > 0 && got < sizeof(r)) {
		ssize_t k = read(fd[0], (char *)&r + got, sizeof(r) - got);

		if (k == 0 || (k < 0 && errno != EINTR))
			break;
		got += k > 0 ? (size_t)k : 0;
	}
	close(fd[0]);
	if (pid < 0)
		return GM_ERR_NO_MEM;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got < sizeof(r))
		return GM_ERR_HW; /* the copy died before it answered */
	memcpy(vals, r.val, n * sizeof(vals[0]));
	return r.st;
}
