// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Network namespaces as ip-netns(8) keeps them: a namespace NAME is held by
 * a bind mount of its nsfs file on /run/netns/NAME, and /run/netns is a
 * shared mount so that the bind mounts show in every mount namespace.
 * `ip netns exec`, `ip -n` and `sluicectl ... -n` all find them there.
 *
 * Creating a namespace moves the calling thread into it (unshare), where
 * the caller sets it up - sysctls under /proc/sys/net follow the opener's
 * namespace, and a netlink socket stays in the namespace it was opened in
 * - before going back with sluice_netns_enter_fd().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sluice/fabric_nl.h>
#include "graph/internal.h"

static void ns_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", SLUICE_NETNS_DIR, name);
}

/**
 * sluice_netns_self() - the calling thread's network namespace
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: a file descriptor (close-on-exec) or a negative errno.
 */
int sluice_netns_self(char *err, size_t errlen)
{
	int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno,
				     "/proc/thread-self/ns/net: %s",
				     strerror(errno));
	return fd;
}

/**
 * sluice_netns_open() - a named namespace
 * @name:	its name under /run/netns
 * @err:	"network namespace NAME does not exist", or another reason
 * @errlen:	room in @err
 *
 * Return: a file descriptor (close-on-exec) or a negative errno.
 */
int sluice_netns_open(const char *name, char *err, size_t errlen)
{
	char path[sizeof(SLUICE_NETNS_DIR) + SLUICE_NETNS_NAME_MAX + 256];
	int fd;

	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "\"%s\" is not a network namespace name",
				     name);
	ns_path(name, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "network namespace %s does not exist",
				     name);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	return fd;
}

/* Whether /run/netns/NAME exists. O(1). */
bool sluice_netns_exists(const char *name)
{
	char path[sizeof(SLUICE_NETNS_DIR) + SLUICE_NETNS_NAME_MAX + 256];

	ns_path(name, path, sizeof(path));
	return !access(path, F_OK);
}

/**
 * sluice_netns_enter_fd() - move the calling thread into namespace @fd
 * @fd:		from sluice_netns_open(), _self() or _create()
 * @name:	its name, for the message
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_netns_enter_fd(int fd, const char *name, char *err, size_t errlen)
{
	if (setns(fd, CLONE_NEWNET))
		return sluice_i_errf(err, errlen, -errno,
				     "cannot enter network namespace %s: %s",
				     name, strerror(errno));
	return 0;
}

/**
 * sluice_netns_enter() - move the calling thread into a named namespace
 * @name:	its name under /run/netns, as "ip netns add" makes them
 * @err:	"network namespace NAME does not exist", or another reason
 * @errlen:	room in @err
 *
 * The one way into a namespace by name: "sluicectl -n NETNS" and the
 * switch's generic netlink client (sluice_nl_open()) use it too.
 *
 * Return: 0 or a negative errno.
 */
int sluice_netns_enter(const char *name, char *err, size_t errlen)
{
	int fd = sluice_netns_open(name, err, errlen), ret;

	if (fd < 0)
		return fd;
	ret = sluice_netns_enter_fd(fd, name, err, errlen);
	close(fd);
	return ret;
}

/* /run/netns, a shared mount (a bind mount on itself if need be). */
static int netns_dir(char *err, size_t errlen)
{
	bool bound = false;

	if (mkdir(SLUICE_NETNS_DIR, 0755) && errno != EEXIST)
		return sluice_i_errf(err, errlen, -errno, "%s: %s",
				     SLUICE_NETNS_DIR, strerror(errno));
	while (mount("", SLUICE_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		/* EINVAL: not a mount point yet */
		if (errno != EINVAL || bound)
			return sluice_i_errf(err, errlen, -errno,
					     "cannot make %s a shared mount: %s",
					     SLUICE_NETNS_DIR, strerror(errno));
		if (mount(SLUICE_NETNS_DIR, SLUICE_NETNS_DIR, "none",
			  MS_BIND | MS_REC, NULL))
			return sluice_i_errf(err, errlen, -errno,
					     "cannot bind %s on itself: %s",
					     SLUICE_NETNS_DIR, strerror(errno));
		bound = true;
	}
	return 0;
}

/**
 * sluice_netns_create() - create a named namespace and enter it
 * @name:	the name under /run/netns, new
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * As `ip netns add`: an empty file /run/netns/NAME, unshare(CLONE_NEWNET),
 * the new namespace bind-mounted on the file.  The calling thread stays
 * in the new namespace (go back with sluice_netns_enter_fd()); on failure it
 * is back where it was, if it could get there, and nothing is left.
 *
 * Return: a file descriptor of the new namespace, -EEXIST if the name is
 * taken, or another negative errno.
 */
int sluice_netns_create(const char *name, char *err, size_t errlen)
{
	char path[sizeof(SLUICE_NETNS_DIR) + SLUICE_NETNS_NAME_MAX + 256];
	int fd, self, ret;

	ret = netns_dir(err, errlen);
	if (ret)
		return ret;
	ns_path(name, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     errno == EEXIST ?
				     "the network namespace exists" :
				     strerror(errno));
	close(fd);
	self = sluice_netns_self(err, errlen);
	if (self < 0) {
		unlink(path);
		return self;
	}
	if (unshare(CLONE_NEWNET)) {
		ret = sluice_i_errf(err, errlen, -errno,
				    "cannot create network namespace %s: %s",
				    name, strerror(errno));
		goto fail;
	}
	if (mount("/proc/thread-self/ns/net", path, "none", MS_BIND, NULL)) {
		ret = sluice_i_errf(err, errlen, -errno,
				    "cannot bind network namespace %s on %s: %s",
				    name, path, strerror(errno));
		setns(self, CLONE_NEWNET);
		goto fail;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				    strerror(errno));
		setns(self, CLONE_NEWNET);
		umount2(path, MNT_DETACH);
		goto fail;
	}
	close(self);
	return fd;
fail:
	close(self);
	unlink(path);
	return ret;
}

/**
 * sluice_netns_delete() - remove a named namespace
 * @name:	its name
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * As `ip netns del`: the bind mount goes (lazily) and the file with it; the
 * kernel frees the namespace, and the devices in it, once nothing else
 * holds it (a process still running in it keeps it).
 *
 * Return: 0, -ENOENT if there is no such namespace, another negative errno.
 */
int sluice_netns_delete(const char *name, char *err, size_t errlen)
{
	char path[sizeof(SLUICE_NETNS_DIR) + SLUICE_NETNS_NAME_MAX + 256];

	ns_path(name, path, sizeof(path));
	if (umount2(path, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		return sluice_i_errf(err, errlen, -errno, "cannot unmount %s: %s",
				     path, strerror(errno));
	if (unlink(path))
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/**
 * sluice_netns_list() - the namespaces whose names start with @prefix
 * @prefix:	"" for all
 * @names:	set to a sorted, malloc()ed array of names;
 *		sluice_netns_list_free() it
 * @n:		set to their number
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * No /run/netns is no namespace.
 *
 * Return: 0, -ENOMEM or another negative errno.
 */
int sluice_netns_list(const char *prefix, char ***names, size_t *n,
		      char *err, size_t errlen)
{
	size_t plen = strlen(prefix);
	uint64_t cap = 0, count = 0;
	char **v = NULL, *s;
	struct dirent *de;
	DIR *d;

	*names = NULL;
	*n = 0;
	d = opendir(SLUICE_NETNS_DIR);
	if (!d)
		return errno == ENOENT ? 0 :
		       sluice_i_errf(err, errlen, -errno, "%s: %s",
				     SLUICE_NETNS_DIR, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, plen))
			continue;
		s = strdup(de->d_name);
		if (!s || SLUICE_I_GROW(v, cap, count + 1)) {
			free(s);
			closedir(d);
			sluice_netns_list_free(v, count);
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "out of memory");
		}
		v[count++] = s;
	}
	closedir(d);
	if (count)
		qsort(v, count, sizeof(*v), cmp_str);
	*names = v;
	*n = count;
	return 0;
}

/* Frees what sluice_netns_list() returned. O(n). */
void sluice_netns_list_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/**
 * sluice_netns_exec() - run a program in a named namespace
 * @name:	the namespace
 * @argv:	the program and its arguments, NULL-terminated
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * As `ip netns exec`: enter the namespace, then a mount namespace of our
 * own with /sys remounted, so that /sys/class/net shows the namespace's
 * devices, and exec.  Call it from a single-threaded process.
 *
 * Return: only on failure, a negative errno.
 */
int sluice_netns_exec(const char *name, char *const argv[], char *err,
		      size_t errlen)
{
	int fd, ret;

	fd = sluice_netns_open(name, err, errlen);
	if (fd < 0)
		return fd;
	ret = sluice_netns_enter_fd(fd, name, err, errlen);
	close(fd);
	if (ret)
		return ret;
	if (unshare(CLONE_NEWNS))
		return sluice_i_errf(err, errlen, -errno,
				     "cannot create a mount namespace: %s",
				     strerror(errno));
	/* our mounts must not leak back into the parent's namespace */
	if (mount("", "/", "none", MS_SLAVE | MS_REC, NULL))
		return sluice_i_errf(err, errlen, -errno,
				     "cannot make / a slave mount: %s",
				     strerror(errno));
	if (umount2("/sys", MNT_DETACH) == 0 || errno == EINVAL)
		mount(name, "/sys", "sysfs", 0, NULL);
	execvp(argv[0], argv);
	return sluice_i_errf(err, errlen, -errno, "%s: %s", argv[0],
			     strerror(errno));
}

/**
 * sluice_sysctl_write() - set a sysctl of the calling thread's namespace
 * @key:	"net.ipv4.ip_forward" (dots become slashes, as sysctl(8)
 *		does, except in a device name given with slashes:
 *		"net/mpls/conf/l.1/input")
 * @value:	the text to write
 * @err:	"net.mpls.platform_labels: No such file or directory", say
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_sysctl_write(const char *key, const char *value, char *err,
			size_t errlen)
{
	char path[512];
	size_t len = strlen(value), i, at;
	ssize_t n;
	int fd;

	at = snprintf(path, sizeof(path), "/proc/sys/");
	for (i = 0; key[i] && at + 1 < sizeof(path); i++)
		path[at++] = strchr(key, '/') || key[i] != '.' ? key[i] : '/';
	path[at] = '\0';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", key,
				     strerror(errno));
	n = write(fd, value, len);
	if (n != (ssize_t)len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return sluice_i_errf(err, errlen, -e, "%s = %s: %s", key,
				     value, strerror(e));
	}
	if (close(fd))
		return sluice_i_errf(err, errlen, -errno, "%s = %s: %s", key,
				     value, strerror(errno));
	return 0;
}
