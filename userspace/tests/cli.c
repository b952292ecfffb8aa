// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "ktap.h"

#define MAX_ARGS 22

char sluicectl[PATH_MAX + 32];

/*
 * The binary under test: $@env, else @rel (a path from the tests'
 * directory).
 */
void cli_init_binary(const char *env, const char *rel)
{
	const char *path = getenv(env);
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (path) {
		snprintf(sluicectl, sizeof(sluicectl), "%s", path);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(sluicectl, sizeof(sluicectl), "%s/%s", self, rel);
}

void cli_init(void)
{
	cli_init_binary("SLUICECTL", "../sluicectl/sluicectl");
}

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * Runs sluicectl with @args (NULL-terminated).  Output goes to files, not
 * pipes, so that neither stream can block the other.  With @out_path, stdout
 * goes there instead.
 */
void cli_run(struct run *r, const char *out_path, const char *const *args)
{
	char *argv[MAX_ARGS + 2] = { sluicectl };
	FILE *out = tmpfile(), *err = tmpfile();
	int i, status, out_fd;
	pid_t pid;

	if (!out || !err) {
		perror("tmpfile");
		exit(1);
	}
	for (i = 0; args[i] && i < MAX_ARGS; i++)
		argv[i + 1] = (char *)args[i];
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		out_fd = out_path ? open(out_path, O_WRONLY) : fileno(out);
		dup2(out_fd, STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		execv(sluicectl, argv);
		_exit(127);
	}
	r->status = -1;
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
}

static char dir[256];

/* Exits if the directory cannot be made: no test could run. */
void cli_mkdtemp(const char *test)
{
	snprintf(dir, sizeof(dir), "/tmp/%s.XXXXXX", test);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
}

/* @name in the scratch directory; the last four results stay valid. */
const char *cli_path(const char *name)
{
	static char buf[4][PATH_MAX];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

/* Removes the scratch directory and what is left in it. */
void cli_rmdir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlink(cli_path(e->d_name));
	if (d)
		closedir(d);
	rmdir(dir);
}

int cli_files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

char *cli_read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (f) {
		if (getdelim(&buf, &len, '\0', f) < 0) {
			free(buf);
			buf = NULL;
		}
		fclose(f);
	}
	return buf;
}

void cli_expect_usage(const char *group, const char *const *args,
		      const char *msg)
{
	const char *argv[12] = { group };
	struct run r;
	size_t i;

	for (i = 0; args[i] && i < 10; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	cli_run(&r, NULL, argv);
	if (!KTAP_EXPECT_INT(r.status, 2) || !KTAP_EXPECT(strstr(r.err, msg)))
		ktap_diag("%s %s: %s", group, args[0], r.err);
}
