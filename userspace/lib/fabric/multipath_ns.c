// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's multipath mode in the kernel: the hash sysctls of every switch
 * namespace (sluice/multipath.h has what each mode writes and why).
 * "fabric up" writes them as it makes each namespace; "route load
 * --multipath" changes them on a fabric that is up, all or nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric_nl.h>
#include "graph/internal.h"

#define POLICY	"net/ipv4/fib_multipath_hash_policy"
#define FIELDS	"net/ipv4/fib_multipath_hash_fields"

/**
 * sluice_multipath_sysctls() - set mode @mode's hash in this namespace
 * @mode:	enum sluice_multipath_mode
 * @written:	incremented by the sysctls written
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * hash writes the policy (1) only, as fabrics always did; the others their
 * fields (sluice_multipath_hash_fields()), then policy 3.
 *
 * Return: 0 or a negative errno.
 */
int sluice_multipath_sysctls(unsigned int mode, uint32_t *written, char *err,
			     size_t errlen)
{
	char v[16];
	int ret;

	if (mode != SLUICE_MP_HASH) {
		snprintf(v, sizeof(v), "%d",
			 sluice_multipath_hash_fields(mode));
		ret = sluice_sysctl_write(FIELDS, v, err, errlen);
		if (ret)
			return ret;
		++*written;
	}
	snprintf(v, sizeof(v), "%d", sluice_multipath_hash_policy(mode));
	ret = sluice_sysctl_write(POLICY, v, err, errlen);
	if (!ret)
		++*written;
	return ret;
}

/* /proc/sys/@key as it reads, newline dropped, or "" if it cannot. */
static void sysctl_text(const char *key, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* What a namespace held before: its two sysctls as they read. */
struct held {
	char	policy[16];
	char	fields[16];
};

/* Puts back namespaces 0 to @n - 1 of @f as @old says; best effort. */
static void put_back(const struct sluice_fabric *f, const struct held *old,
		     uint32_t n)
{
	char ns[SLUICE_NETNS_NAME_MAX];
	uint32_t u;

	for (u = 0; u < n; u++) {
		sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
		if (sluice_netns_enter(ns, NULL, 0))
			continue;
		if (old[u].fields[0])
			sluice_sysctl_write(FIELDS, old[u].fields, NULL, 0);
		if (old[u].policy[0])
			sluice_sysctl_write(POLICY, old[u].policy, NULL, 0);
	}
}

/**
 * sluice_fabric_multipath_set() - give every switch of a fabric that is up
 * mode @mode's hash
 * @f:		the plan
 * @mode:	enum sluice_multipath_mode
 * @err:	the first failure: which switch, and why
 * @errlen:	room in @err
 *
 * Every switch namespace (servers' too) in turn; if one fails, those
 * already changed get back what they held.  The calling thread ends in the
 * namespace it started in; call it from a single-threaded process.
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_multipath_set(const struct sluice_fabric *f,
				unsigned int mode, char *err, size_t errlen)
{
	const struct sluice_graph *g = f->g;
	char ns[SLUICE_NETNS_NAME_MAX], why[SLUICE_ERRLEN];
	struct held *old;
	uint32_t u, done = 0, written = 0;
	int self, ret = 0, back;

	if (mode >= SLUICE_MP__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "multipath mode %u unknown", mode);
	old = sluice_i_calloc(g->n_nodes ? g->n_nodes : 1, sizeof(*old));
	if (!old)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	self = sluice_netns_self(err, errlen);
	if (self < 0) {
		free(old);
		return self;
	}
	for (u = 0; u < g->n_nodes; u++) {
		sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
		ret = sluice_netns_enter(ns, why, sizeof(why));
		if (!ret) {
			sysctl_text(POLICY, old[u].policy,
				    sizeof(old[u].policy));
			sysctl_text(FIELDS, old[u].fields,
				    sizeof(old[u].fields));
			/* partly written or not, it is put back on failure */
			done = u + 1;
			ret = sluice_multipath_sysctls(mode, &written, why,
						       sizeof(why));
		}
		if (ret)
			break;
	}
	if (ret) {
		sluice_i_errf(err, errlen, ret, "switch %s: %s",
			      g->nodes[u].name, why);
		put_back(f, old, done);
	}
	back = sluice_netns_enter_fd(self, "of the caller", ret ? NULL : err,
				     ret ? 0 : errlen);
	close(self);
	free(old);
	return ret ? ret : back;
}
