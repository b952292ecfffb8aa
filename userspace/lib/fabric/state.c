// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's saved state, written and read back (sluice/fabric_state.h):
 * sluicectl's commands and sluice-flowgen find a fabric's hosts from it.
 * It is written before the first namespace is made, so that "fabric down"
 * finds everything even after a crash half-way, and it holds a copy of the
 * topology, so that the fabric does not depend on the file it came from.
 * The "fabric" file reads
 *
 *	sluice-fabric 1
 *	name sluice
 *	topology /home/me/fc4.json
 *	hash ad2c6e89336629e9
 *	hosts-per-switch default
 *	qdisc yes rate 100mbit pfc 3
 *	flow-control pfc
 *	ecn 7500
 *	host-profile bolt initcwnd 42
 *	lanes 2
 *	multipath wcmp
 *	node-rate spine0=380mbit,spine1=380mbit
 *	end
 *
 * ("flow-control", "ecn", "host-profile", "lanes", "multipath" and
 * "node-rate" are left out when not set, as states written before them had
 * them; no "multipath" is hash.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/sluice.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_state.h>
#include <sluice/file.h>
#include <sluice/host.h>
#include <sluice/qopt.h>
#include <sluice/route.h>
#include "graph/internal.h"

/* $SLUICE_RUN_DIR, for tests, else /run/sluice.  O(1). */
const char *sluice_fabric_run_dir(void)
{
	const char *dir = getenv("SLUICE_RUN_DIR");

	return dir && dir[0] ? dir : SLUICE_FABRIC_RUN_DIR;
}

/* RUN_DIR/NAME/FILE (RUN_DIR/NAME without @file); -ENAMETOOLONG.  O(1). */
int sluice_fabric_state_path(const char *name, const char *file, char *buf,
			     size_t len)
{
	int n = snprintf(buf, len, "%s/%s%s%s", sluice_fabric_run_dir(), name,
			 file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The value of line "KEY value" of @line, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len) || (line[len] != ' ' && line[len]))
		return NULL;
	return line[len] ? line + len + 1 : line + len;
}

/* "NAME initcwnd N": 0 or -EINVAL. */
static int parse_profile(const char *v, struct sluice_fabric_state *s)
{
	unsigned int cwnd;
	char name[16];
	int kind, end = 0;

	if (sscanf(v, "%15s initcwnd %u%n", name, &cwnd, &end) != 2 ||
	    v[end] || cwnd > SLUICE_HOST_CWND_MAX)
		return -EINVAL;
	kind = sluice_host_profile_parse(name);
	if (kind <= 0)
		return -EINVAL;
	s->host_profile = kind;
	s->initcwnd = cwnd;
	return 0;
}

/* One line after the first: 0, or -EINVAL if it is not one we know. */
static int parse_line(const char *line, struct sluice_fabric_state *s)
{
	unsigned long long hash;
	const char *v;
	char *end;
	long h;

	if ((v = value_of(line, "name"))) {
		if (snprintf(s->name, sizeof(s->name), "%s", v) >=
		    (int)sizeof(s->name))
			return -EINVAL;
	} else if ((v = value_of(line, "topology"))) {
		snprintf(s->topo_path, sizeof(s->topo_path), "%s", v);
	} else if ((v = value_of(line, "hash"))) {
		hash = strtoull(v, &end, 16);
		if (*end || !*v)
			return -EINVAL;
		s->hash = hash;
	} else if ((v = value_of(line, "hosts-per-switch"))) {
		if (!strcmp(v, "default")) {
			s->hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
			return 0;
		}
		h = strtol(v, &end, 10);
		if (*end || !*v || h < 0 || h > SLUICE_FABRIC_HOSTS_MAX)
			return -EINVAL;
		s->hosts_per_switch = h;
	} else if ((v = value_of(line, "qdisc"))) {
		s->qdisc = !strncmp(v, "yes", 3);
		v += strncmp(v, "yes", 3) ? 2 : 3;
		snprintf(s->qdisc_args, sizeof(s->qdisc_args), "%s",
			 *v ? v + 1 : "");
	} else if ((v = value_of(line, "flow-control"))) {
		h = sluice_fabric_fc_parse(v);
		if (h < 0)
			return -EINVAL;
		s->fc = h;
	} else if ((v = value_of(line, "ecn"))) {
		h = strtol(v, &end, 10);
		if (*end || !*v || h <= 0 || h > TC_SLUICE_MAX_LIMIT)
			return -EINVAL;
		s->ecn = h;
	} else if ((v = value_of(line, "host-profile"))) {
		return parse_profile(v, s);
	} else if ((v = value_of(line, "lanes"))) {
		h = strtol(v, &end, 10);
		if (*end || !*v || h < 1 || h > SLUICE_LANES_MAX)
			return -EINVAL;
		s->lanes = h;
	} else if ((v = value_of(line, "multipath"))) {
		h = sluice_multipath_parse(v);
		if (h < 0)
			return -EINVAL;
		s->multipath = h;
	} else if ((v = value_of(line, "node-rate"))) {
		if (!*v || snprintf(s->node_rates, sizeof(s->node_rates), "%s",
				    v) >= (int)sizeof(s->node_rates))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return 0;
}

static int parse_state(FILE *f, const char *path,
		       struct sluice_fabric_state *s, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, ret = -EINVAL;

	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "sluice-fabric 1"))
				break;
		} else if (!strcmp(line, "end")) {
			ret = 0;
			break;
		} else if (parse_line(line, s)) {
			break;
		}
	}
	free(line);
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "%s:%d: not a fabric state file", path,
				     lineno);
	return 0;
}

/* The saved topology, checked against the state's hash, and its plan. */
static int plan_saved(const char *name, struct sluice_fabric_state *s,
		      char *err, size_t errlen)
{
	struct sluice_graph *g = &s->g;
	struct sluice_fabric *f = &s->f;
	char path[PATH_MAX];
	int ret;

	sluice_fabric_state_path(name, "topology.json", path, sizeof(path));
	ret = sluice_graph_read_file(g, path, err, errlen);
	if (ret)
		return ret;
	if (sluice_graph_hash(g) != s->hash) {
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "%s: the topology's hash is %016llx, the fabric's %016llx",
				    path,
				    (unsigned long long)sluice_graph_hash(g),
				    (unsigned long long)s->hash);
		sluice_graph_free(g);
		return ret;
	}
	/*
	 * An older sluicectl gave BCube servers host namespaces and took
	 * --hosts-per-switch for them: plan such a state as servers are
	 * planned now (sluice_fabric_down() still removes the old hosts).
	 */
	ret = sluice_fabric_plan(f, g, s->name, s->hosts_per_switch, err,
				 errlen);
	if (ret && s->hosts_per_switch != SLUICE_FABRIC_HOSTS_DEFAULT)
		ret = sluice_fabric_plan(f, g, s->name,
					 SLUICE_FABRIC_HOSTS_DEFAULT, err,
					 errlen);
	if (ret) {
		snprintf(path, sizeof(path), "%s", err);
		sluice_i_errf(err, errlen, ret, "fabric %s: %s", name, path);
		sluice_graph_free(g);
		return ret;
	}
	f->multipath = s->multipath;
	return 0;
}

/* The node rates name the topology's nodes, each at most --rate. */
static int check_node_rates(const char *name, struct sluice_fabric_state *s,
			    char *err, size_t errlen)
{
	char why[SLUICE_ERRLEN];
	uint64_t *rates;
	int ret;

	if (!s->node_rates[0])
		return 0;
	ret = sluice_fabric_state_link_rates(s, &rates, why, sizeof(why));
	free(rates);
	if (ret)
		sluice_i_errf(err, errlen, ret, "fabric %s: node-rate: %s",
			      name, why);
	return ret;
}

/**
 * sluice_fabric_state_read() - fabric @name's state, its topology and plan
 * @name:	the fabric's name
 * @s:		the "fabric" file's fields, the topology and its plan (hosts,
 *		namespaces); sluice_fabric_state_free() it
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0, -ENOENT if the fabric has no state, or another negative errno
 * (a bad name, file or topology), the topology and plan then left empty.
 */
int sluice_fabric_state_read(const char *name, struct sluice_fabric_state *s,
			     char *err, size_t errlen)
{
	char path[PATH_MAX];
	FILE *file;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = sluice_fabric_name_check(name, err, errlen);
	if (ret)
		return ret;
	sluice_fabric_state_path(name, "fabric", path, sizeof(path));
	file = fopen(path, "r");
	if (!file && errno == ENOENT)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "no fabric %s (no %s): sluicectl fabric up",
				     name, path);
	if (!file)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	ret = parse_state(file, path, s, err, errlen);
	fclose(file);
	if (!ret && strcmp(s->name, name))
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "%s names fabric \"%s\"", path, s->name);
	if (!ret)
		ret = plan_saved(name, s, err, errlen);
	if (!ret) {
		ret = check_node_rates(name, s, err, errlen);
		if (ret)
			sluice_fabric_state_free(s);
	}
	return ret;
}

/* Frees what sluice_fabric_state_read() read.  O(the topology's size). */
void sluice_fabric_state_free(struct sluice_fabric_state *s)
{
	sluice_fabric_free(&s->f);
	sluice_graph_free(&s->g);
}

/**
 * sluice_fabric_state_print() - write a state's "fabric" file
 * @s:	the state
 * @f:	where to
 *
 * What sluice_fabric_state_read() reads back (the top of the file has the
 * layout).
 */
void sluice_fabric_state_print(const struct sluice_fabric_state *s, FILE *f)
{
	fprintf(f, "sluice-fabric 1\nname %s\ntopology %s\nhash %016llx\n",
		s->name, s->topo_path, (unsigned long long)s->hash);
	if (s->hosts_per_switch == SLUICE_FABRIC_HOSTS_DEFAULT)
		fputs("hosts-per-switch default\n", f);
	else
		fprintf(f, "hosts-per-switch %d\n", s->hosts_per_switch);
	fprintf(f, "qdisc %s%s%s\n", s->qdisc ? "yes" : "no",
		s->qdisc_args[0] ? " " : "", s->qdisc_args);
	if (s->fc != SLUICE_FABRIC_FC_NONE)
		fprintf(f, "flow-control %s\n", sluice_fabric_fc_name(s->fc));
	if (s->ecn)
		fprintf(f, "ecn %u\n", s->ecn);
	if (s->host_profile)
		fprintf(f, "host-profile %s initcwnd %u\n",
			sluice_host_profile_name(s->host_profile),
			s->initcwnd);
	if (s->lanes)
		fprintf(f, "lanes %u\n", s->lanes);
	if (s->multipath != SLUICE_MP_HASH)
		fprintf(f, "multipath %s\n", sluice_multipath_name(s->multipath));
	if (s->node_rates[0])
		fprintf(f, "node-rate %s\n", s->node_rates);
	fputs("end\n", f);
}

/* The "rate" of the state's qdisc options, bits/s; 0 if none. */
static int qdisc_rate(const struct sluice_fabric_state *s, uint64_t *rate,
		      char *err, size_t errlen)
{
	char buf[SLUICE_FABRIC_QDISC_MAX], *argv[SLUICE_FABRIC_QDISC_MAX / 2];
	char *save, why[SLUICE_ERRLEN];
	struct sluice_qopt o;
	int argc = 0;

	*rate = 0;
	if (!s->qdisc)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s->qdisc_args);
	for (argv[argc] = strtok_r(buf, " ", &save); argv[argc];
	     argv[++argc] = strtok_r(NULL, " ", &save))
		;
	memset(&o, 0, sizeof(o));
	if (sluice_qopt_parse(&o, argc, argv, why, sizeof(why)))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the qdisc options \"%s\": %s",
				     s->qdisc_args, why);
	*rate = o.present & SLUICE_QOPT_RATE ? o.rate : 0;
	return 0;
}

/**
 * sluice_fabric_state_link_rates() - the rate of each link of a fabric
 * @s:		a state, read
 * @link_rate:	set to n_links rates by link id, bits/s (0: unshaped);
 *		free() it
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * --rate, or the lower node rate of a link's ends (sluice_fabric_link_rates()).
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_state_link_rates(const struct sluice_fabric_state *s,
				   uint64_t **link_rate, char *err,
				   size_t errlen)
{
	uint64_t rate;
	int ret;

	*link_rate = NULL;
	ret = qdisc_rate(s, &rate, err, errlen);
	return ret ? ret : sluice_fabric_link_rates(&s->g, rate, s->node_rates,
						    link_rate, err, errlen);
}

/**
 * sluice_fabric_state_multipath() - what a fabric's routes need of mode
 * @mode
 * @s:		a state, read
 * @mode:	the fabric's mode (@s->multipath), or the one it is to get
 * @mp:		set to @mode and, for wcmp, @link_rate
 * @link_rate:	set to the links' rates for wcmp (free() it), else NULL
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (wcmp on a fabric whose links have no --rate) or
 * what sluice_fabric_state_link_rates() returns.
 */
int sluice_fabric_state_multipath(const struct sluice_fabric_state *s,
				  unsigned int mode,
				  struct sluice_multipath *mp,
				  uint64_t **link_rate, char *err,
				  size_t errlen)
{
	int ret;

	memset(mp, 0, sizeof(*mp));
	mp->mode = mode;
	*link_rate = NULL;
	if (mode != SLUICE_MP_WCMP)
		return 0;
	ret = sluice_fabric_state_link_rates(s, link_rate, err, errlen);
	if (!ret && s->g.n_links && !(*link_rate)[0]) {
		free(*link_rate);
		*link_rate = NULL;
		return sluice_i_errf(err, errlen, -EINVAL,
				     "wcmp weighs each path by its slowest link: fabric %s's links have no rate (fabric up --rate)",
				     s->name);
	}
	mp->link_rate = *link_rate;
	return ret;
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_state(const void *arg, FILE *f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	sluice_fabric_state_print(arg, f);
	return 0;
}

static int write_topo(const void *arg, FILE *f, char *err, size_t errlen)
{
	return sluice_graph_write(arg, f, err, errlen);
}

/**
 * sluice_fabric_state_write() - save a fabric's state, the topology first
 * @s:		the state, its topology loaded
 * @err:	the reason on failure
 * @errlen:	room in @err
 *
 * Makes RUN_DIR/NAME (and RUN_DIR) if missing, then writes topology.json
 * and the "fabric" file, each whole or not at all (sluice_file_write()).
 *
 * Return: 0, -ENAMETOOLONG, or what mkdir() or sluice_file_write()
 * failed with.
 */
int sluice_fabric_state_write(const struct sluice_fabric_state *s, char *err,
			      size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int ret;

	if (sluice_fabric_state_path(s->name, NULL, dir, sizeof(dir)) ||
	    sluice_fabric_state_path(s->name, "topology.json", path,
				     sizeof(path)))
		return sluice_i_errf(err, errlen, -ENAMETOOLONG,
				     "%s/%s: path too long",
				     sluice_fabric_run_dir(), s->name);
	ret = mkdir_p(dir);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "%s: %s", dir,
				     strerror(-ret));
	ret = sluice_file_write(path, write_topo, &s->g, err, errlen);
	if (ret)
		return ret;
	sluice_fabric_state_path(s->name, "fabric", path, sizeof(path));
	return sluice_file_write(path, write_state, s, err, errlen);
}

/**
 * sluice_fabric_state_remove() - remove fabric @name's saved state
 * @name:	the fabric's name
 * @err:	the reason on failure
 * @errlen:	room in @err
 *
 * RUN_DIR/NAME, its "fabric" and topology.json; what is already missing
 * is no error.
 *
 * Return: 0 or the negative errno unlink() or rmdir() failed with.
 */
int sluice_fabric_state_remove(const char *name, char *err, size_t errlen)
{
	static const char *const files[] = { "fabric", "topology.json" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		sluice_fabric_state_path(name, files[i], path, sizeof(path));
		if (unlink(path) && errno != ENOENT)
			return sluice_i_errf(err, errlen, -errno, "%s: %s",
					     path, strerror(errno));
	}
	sluice_fabric_state_path(name, NULL, path, sizeof(path));
	if (rmdir(path) && errno != ENOENT)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	return 0;
}

/**
 * sluice_fabric_state_up() - save fabric @s's state, then bring it up
 * @s:		planned (sluice_fabric_plan() into @s->f), its fields set
 * @q:		every port's qdisc, or NULL for none
 * @st:		filled with what was made, or NULL
 * @err:	the reason on failure, naming the fabric
 * @errlen:	room in @err
 *
 * What "fabric up" and every experiment do: refuse a fabric whose state is
 * already saved (-EEXIST: it is up, or a crash left it; "fabric down"
 * clears it), write the state before the first namespace is made, so that
 * a crash half-way leaves what "fabric down" needs, then make the fabric.
 * On failure nothing is left: sluice_fabric_up() removes what it made, and
 * the state goes.
 *
 * Return: 0, -EEXIST, or the negative errno of the step that failed.
 */
int sluice_fabric_state_up(struct sluice_fabric_state *s,
			   const struct sluice_fabric_qdisc *q,
			   struct sluice_fabric_stats *st, char *err,
			   size_t errlen)
{
	struct sluice_fabric_stats ignored;
	char path[PATH_MAX], why[SLUICE_ERRLEN];
	int ret;

	ret = sluice_fabric_state_path(s->name, "fabric", path, sizeof(path));
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "fabric %s: its state's path is too long",
				     s->name);
	if (!access(path, F_OK))
		return sluice_i_errf(err, errlen, -EEXIST,
				     "fabric %s is up (%s/%s)", s->name,
				     sluice_fabric_run_dir(), s->name);
	ret = sluice_fabric_state_write(s, err, errlen);
	if (ret)
		return ret;
	ret = sluice_fabric_up(&s->f, q, st ? st : &ignored, why, sizeof(why));
	if (ret) {
		sluice_i_errf(err, errlen, ret, "fabric %s: %s", s->name, why);
		/* the reason to report is the first one */
		sluice_fabric_state_remove(s->name, why, sizeof(why));
	}
	return ret;
}

/**
 * sluice_fabric_state_down() - take fabric @s down and remove its state
 * @s:		a fabric of this machine, its state read or just brought up
 * @removed:	set to the namespaces removed, or NULL
 * @err:	the reason on failure, naming the fabric
 * @errlen:	room in @err
 *
 * The state goes only once the fabric is down, so that a failure leaves
 * "fabric down" something to try again with.
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_state_down(const struct sluice_fabric_state *s,
			     uint32_t *removed, char *err, size_t errlen)
{
	char why[SLUICE_ERRLEN];
	uint32_t n;
	int ret;

	ret = sluice_fabric_down(&s->f, removed ? removed : &n, why,
				 sizeof(why));
	if (ret)
		return sluice_i_errf(err, errlen, ret, "fabric %s: %s", s->name,
				     why);
	return sluice_fabric_state_remove(s->name, err, errlen);
}
