// SPDX-License-Identifier: GPL-2.0
/*
 * uns: run a command as root of a new user namespace, as "unshare -U -r"
 * does (uid and gid 0 inside map to the caller's), and with -n in a new
 * network namespace that user namespace owns ("unshare -U -r -n").
 *
 *   uns [-n] CMD [ARG...]
 *
 * The selftest VM runs everything chrooted, and the kernel refuses a user
 * namespace to a chrooted process, so unshare(1) cannot be used there.
 * uns steps out to PID 1's root (as root may), creates the namespace,
 * and goes back to the root and directory it started in, where it has
 * CAP_SYS_CHROOT as the new namespace's owner.  Exits 1 if a step fails,
 * 2 for bad usage; otherwise it becomes CMD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "uns: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_file(int dir, const char *path, const char *text)
{
	int fd = openat(dir, path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		die(path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

int main(int argc, char **argv)
{
	char cwd[PATH_MAX], map[64];
	int newnet = 0, root, proc;
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		newnet = 1;
		argv++;
		argc--;
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: uns [-n] CMD [ARG...]\n");
		return 2;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		die("getcwd");
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || proc < 0)
		die("open / and /proc");

	if (unshare(CLONE_NEWUSER) < 0) {
		/* Chrooted: out to init's root, then try again. */
		if (errno != EPERM || chroot("/proc/1/root") < 0 ||
		    unshare(CLONE_NEWUSER) < 0)
			die("unshare(CLONE_NEWUSER)");
	}
	write_file(proc, "self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned int)uid);
	write_file(proc, "self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1", (unsigned int)gid);
	write_file(proc, "self/gid_map", map);

	if (fchdir(root) < 0 || chroot(".") < 0 || chdir(cwd) < 0)
		die("back to the root and directory");
	close(root);
	close(proc);
	if (newnet && unshare(CLONE_NEWNET) < 0)
		die("unshare(CLONE_NEWNET)");
	execvp(argv[1], argv + 1);
	die(argv[1]);
	return 1;
}
