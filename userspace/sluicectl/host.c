// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl host { bolt | show | off }: a host's TCP profile toward the
 * fabric, as route metrics (sluice/host.h).
 *
 *   host bolt { --fabric NAME [HOST...] | [-n NS] --dev DEV }
 *             --rate RATE [--rtt TIME] [--mtu BYTES] [-j]
 *   host show { --fabric NAME [HOST...] | [-n NS] [--dev DEV] } [-j]
 *   host off  { --fabric NAME [HOST...] | [-n NS] --dev DEV } [-j]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/host.h>
#include <sluice/portfc.h>
#include <sluice/rate.h>
#include "cmd_fabric.h"
#include "jout.h"
#include "args.h"
#include "sluicectl.h"

static int bolt_main(const struct command *cmd, int argc, char **argv);
static int show_main(const struct command *cmd, int argc, char **argv);
static int off_main(const struct command *cmd, int argc, char **argv);

#define WHERE	"{ --fabric NAME [HOST...] | --dev DEV }"

static const struct command host_commands[] = {
	{ "bolt", bolt_main,
	  "TCP-Bolt on a host's routes: dctcp (locked), ECN, a first window of the bandwidth-delay product",
	  WHERE " --rate RATE [--rtt TIME | --ping ADDR]\n"
	  "\t[--mtu BYTES] [-j | --json]\n"
	  "\tThe round trip is --rtt, or measured: the median of 5 ICMP echoes of --mtu bytes\n"
	  "\t(default 1500), end to end across a fabric's longest path (routes loaded), or to\n"
	  "\t--ping ADDR with --dev.  The first window is ceil(RATE x RTT / 8 / (MTU - 52))\n"
	  "\tsegments, never below 10.  Applying it again changes nothing.",
	  "host" },
	{ "show", show_main, "The profile metrics in force on a host's routes",
	  "{ --fabric NAME [HOST...] | [--dev DEV] } [-j | --json]", "host" },
	{ "off", off_main,
	  "Remove the profile's metrics (congctl, features ecn, initcwnd, initrwnd) from a host's routes",
	  WHERE " [-j | --json]", "host" },
};

int host_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, host_commands, ARRAY_SIZE(host_commands), argc,
			  argv);
}

enum {
	OPT_FABRIC, OPT_DEV, OPT_RATE, OPT_RTT, OPT_MTU, OPT_PING, OPT_JSON,
	N_OPTS
};

static const struct arg_opt opts[N_OPTS] = {
	[OPT_FABRIC]	= ARG_S("--fabric", 0, "NAME", "a fabric's hosts (all, or the HOSTs named)"),
	[OPT_DEV]	= ARG_S("--dev", 0, "DEV", "the routes out of device DEV here"),
	[OPT_RATE]	= ARG_R("--rate", "RATE", 1, UINT64_MAX, "the hosts' link rate"),
	[OPT_RTT]	= ARG_RTT("--rtt", SLUICE_PORTFC_RTT_MAX_NS,
				  "the round trip; else measured"),
	[OPT_MTU]	= ARG_N("--mtu", 0, "BYTES", 68, 65535,
				"the size of the echoes that measure it, default 1500"),
	[OPT_PING]	= ARG_S("--ping", 0, "ADDR",
				"with --dev: measure the round trip to this IPv4 address"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
};

#define MAX_HOSTS	256

static const struct args_spec bolt_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = MAX_HOSTS,
	.operands = "HOST..., with --fabric: only these hosts",
};
static const struct args_spec where_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = MAX_HOSTS,
	.operands = "HOST..., with --fabric: only these hosts",
	.pick = ARGS_PICK(OPT_FABRIC, OPT_DEV, OPT_JSON),
};

struct hargs {
	const char	**val;
	char		**hosts;
	int		n_hosts;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
	struct sluice_fabric_state s;
	bool		loaded;
	/* the hosts chosen: (node, host) pairs */
	uint32_t	*node, *host;
	uint32_t	n;
};

static void args_free(struct hargs *a)
{
	if (a->loaded)
		sluice_fabric_state_free(&a->s);
	free(a->node);
	free(a->host);
}

/* Options, and the fabric's hosts (all, or those named). */
static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, bool need_where, struct hargs *a)
{
	char msg[160];
	uint32_t u, i, h;
	int k;

	memset(a, 0, sizeof(*a));
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
	a->hosts = a->args.operands;
	a->n_hosts = a->args.n_operands;
	if (a->val[OPT_FABRIC] && a->val[OPT_DEV])
		return cmd_error(cmd, "--fabric and --dev exclude each other: a fabric's hosts, or one device here");
	if (need_where && !a->val[OPT_FABRIC] && !a->val[OPT_DEV])
		return cmd_error(cmd, "which routes? --fabric NAME (its hosts) or --dev DEV (routes out of DEV here)");
	if (a->n_hosts && !a->val[OPT_FABRIC])
		return cmd_error(cmd, "HOST names go with --fabric");
	if (a->val[OPT_PING] && !a->val[OPT_DEV])
		return cmd_error(cmd, "--ping goes with --dev (a fabric is measured end to end)");
	if (!a->val[OPT_FABRIC])
		return 0;
	if (sluice_fabric_name_check(a->val[OPT_FABRIC], msg, sizeof(msg)))
		return cmd_error(cmd, "--fabric: %s", msg);
	if (fabric_state_load(a->val[OPT_FABRIC], &a->s, false))
		return EXIT_RUNTIME;
	a->loaded = true;
	a->node = calloc(a->s.f.n_hosts + 1, sizeof(*a->node));
	a->host = calloc(a->s.f.n_hosts + 1, sizeof(*a->host));
	if (!a->node || !a->host) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	if (!a->n_hosts) {
		for (u = 0; u < a->s.g.n_nodes; u++)
			for (i = 0; i < a->s.f.hosts[u]; i++) {
				a->node[a->n] = u;
				a->host[a->n++] = i;
			}
		return 0;
	}
	for (k = 0; k < a->n_hosts; k++) {
		if (sluice_fabric_find(&a->s.f, a->hosts[k], &u, &h) ||
		    h == UINT32_MAX) {
			fprintf(stderr, "sluicectl: fabric %s has no host %s\n",
				a->s.name, a->hosts[k]);
			return EXIT_USAGE;
		}
		a->node[a->n] = u;
		a->host[a->n++] = h;
	}
	return 0;
}

static void host_label(const struct hargs *a, uint32_t k, char *buf,
		       size_t len)
{
	if (a->loaded)
		sluice_fabric_host_name(&a->s.f, a->node[k], a->host[k], buf,
					len);
	else
		snprintf(buf, len, "%s", "");
}

/*
 * Opens the rtnetlink socket of host @k (or of this namespace), and the
 * device the profile is for (0: any).
 */
static int open_host(const struct hargs *a, uint32_t k, int self,
		     struct sluice_rtnl **r, int *ifindex, char *err,
		     size_t errlen)
{
	char ns[SLUICE_NETNS_NAME_MAX];

	*ifindex = 0;
	if (!a->loaded) {
		/* the thread is in -n NETNS already: the name is looked up there */
		if (a->val[OPT_DEV]) {
			*ifindex = if_nametoindex(a->val[OPT_DEV]);
			if (!*ifindex) {
				snprintf(err, errlen, "no device %s", a->val[OPT_DEV]);
				return -ENODEV;
			}
		}
		return sluice_rtnl_open(r, err, errlen);
	}
	sluice_fabric_host_ns(&a->s.f, a->node[k], a->host[k], ns, sizeof(ns));
	/* a host's eth0 is its ifindex 2; a server's routes leave by any */
	if (!sluice_fabric_self_hosted(&a->s.f, a->node[k]))
		*ifindex = 2;
	return sluice_rtnl_open_in(ns, self, r, err, errlen);
}

static json_object *route_json(const struct sluice_host_route *rt)
{
	json_object *o = json_object_new_object();
	char dst[24], gw[16];

	sluice_ipv4_format(rt->dst, dst, sizeof(dst));
	snprintf(dst + strlen(dst), sizeof(dst) - strlen(dst), "/%u",
		 rt->dst_len);
	sluice_ipv4_format(rt->gateway, gw, sizeof(gw));
	if (o && jadd(o, "dst", json_object_new_string(dst)) &&
	    jadd(o, "gateway", json_object_new_string(rt->gateway ? gw : "")) &&
	    jadd(o, "dev", json_object_new_string(rt->dev)) &&
	    jadd(o, "congctl", json_object_new_string(rt->p.cc)) &&
	    jadd(o, "congctl_lock", json_object_new_boolean(rt->p.cc_lock)) &&
	    jadd(o, "ecn", json_object_new_boolean(rt->p.ecn)) &&
	    jadd(o, "initcwnd", jnum(rt->p.initcwnd)) &&
	    jadd(o, "initrwnd", jnum(rt->p.initrwnd)))
		return o;
	json_object_put(o);
	return NULL;
}

static void route_text(const char *host, const struct sluice_host_route *rt)
{
	char dst[24], gw[16], prof[128];

	if (rt->dst_len) {
		sluice_ipv4_format(rt->dst, dst, sizeof(dst));
		snprintf(dst + strlen(dst), sizeof(dst) - strlen(dst), "/%u",
			 rt->dst_len);
	} else {
		strcpy(dst, "default");
	}
	sluice_ipv4_format(rt->gateway, gw, sizeof(gw));
	sluice_host_profile_format(&rt->p, prof, sizeof(prof));
	printf("%s%s%s%s%s%s%s %s\n", host, host[0] ? ": " : "", dst,
	       rt->gateway ? " via " : "", rt->gateway ? gw : "",
	       rt->dev[0] ? " dev " : "", rt->dev, prof);
}

static int show_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN], name[SLUICE_NETNS_NAME_MAX];
	struct sluice_host_routes rs;
	json_object *arr = NULL, *o;
	struct sluice_rtnl *r;
	int self = -1, ifindex, ret;
	struct hargs a;
	uint32_t k, n, i;

	ret = parse(cmd, &where_spec, argc, argv, false, &a);
	if (ret) {
		args_free(&a);
		return ret < 0 ? 0 : ret;
	}
	if (a.val[OPT_JSON] && !(arr = json_object_new_array())) {
		fputs("sluicectl: out of memory\n", stderr);
		args_free(&a);
		return EXIT_RUNTIME;
	}
	n = a.loaded ? a.n : 1;
	if (a.loaded && (self = sluice_netns_self(err, sizeof(err))) < 0)
		goto fail;
	for (k = 0; k < n; k++) {
		host_label(&a, k, name, sizeof(name));
		ret = open_host(&a, k, self, &r, &ifindex, err, sizeof(err));
		if (ret)
			goto fail;
		ret = sluice_host_routes_read(r, ifindex, &rs, err,
					      sizeof(err));
		sluice_rtnl_close(r);
		if (ret)
			goto fail;
		for (i = 0; i < rs.n; i++) {
			if (!arr) {
				route_text(name, &rs.r[i]);
				continue;
			}
			o = route_json(&rs.r[i]);
			if (!o || (a.loaded &&
				   !jadd(o, "host", json_object_new_string(name))) ||
			    json_object_array_add(arr, o)) {
				json_object_put(o);
				sluice_host_routes_free(&rs);
				snprintf(err, sizeof(err), "out of memory");
				goto fail;
			}
		}
		sluice_host_routes_free(&rs);
	}
	if (arr)
		puts(jtext(arr));
	json_object_put(arr);
	if (self >= 0)
		close(self);
	args_free(&a);
	return 0;
fail:
	fprintf(stderr, "sluicectl: %s%s%s\n", a.loaded ? name : "",
		a.loaded ? ": " : "", err);
	json_object_put(arr);
	if (self >= 0)
		close(self);
	args_free(&a);
	return EXIT_RUNTIME;
}

static void print_applied(const char *what, const struct hargs *a,
			  uint32_t hosts, const struct sluice_host_apply *res,
			  const struct sluice_host_profile *p, uint64_t rtt_ns,
			  const char *how, uint64_t rate, bool json)
{
	char prof[128];
	json_object *o;

	if (p)
		sluice_host_profile_format(p, prof, sizeof(prof));
	if (!json) {
		if (p)
			printf("round trip %.3f ms (%s); rate %llu bit/s\n",
			       rtt_ns / 1e6, how, (unsigned long long)rate);
		printf("%s: %u route%s on %u host%s%s%s, %u changed, %u unchanged%s%s\n",
		       what, res->routes, res->routes == 1 ? "" : "s", hosts,
		       hosts == 1 ? "" : "s", a->loaded ? " of fabric " : "",
		       a->loaded ? a->s.name : "", res->changed,
		       res->unchanged, p ? ": " : "", p ? prof : "");
		return;
	}
	o = json_object_new_object();
	if (o && jadd(o, "profile", json_object_new_string(what)) &&
	    jadd(o, "hosts", jnum(hosts)) && jadd(o, "routes", jnum(res->routes)) &&
	    jadd(o, "changed", jnum(res->changed)) &&
	    jadd(o, "unchanged", jnum(res->unchanged)) &&
	    (!p || (jadd(o, "rate", jnum(rate)) &&
		    jadd(o, "rtt_ns", jnum(rtt_ns)) &&
		    jadd(o, "rtt_measured", json_object_new_string(how)) &&
		    jadd(o, "congctl", json_object_new_string(p->cc)) &&
		    jadd(o, "ecn", json_object_new_boolean(p->ecn)) &&
		    jadd(o, "initcwnd", jnum(p->initcwnd)) &&
		    jadd(o, "initrwnd", jnum(p->initrwnd)))))
		puts(jtext(o));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
}

/*
 * Applies @p (NULL: off) to the fabric's chosen hosts, a host at a time
 * (sluice_fabric_host_profile()), or to the routes out of --dev here.
 */
static int apply(const struct hargs *a, const struct sluice_host_profile *p,
		 struct sluice_host_apply *res, uint32_t *hosts, char *err,
		 size_t errlen)
{
	struct sluice_rtnl *r;
	int ifindex, ret;

	if (a->loaded)
		return sluice_fabric_host_profile(&a->s.f, a->node, a->host,
						  a->n, p, res, hosts, err,
						  errlen);
	memset(res, 0, sizeof(*res));
	*hosts = 0;
	ret = open_host(a, 0, -1, &r, &ifindex, err, errlen);
	if (ret)
		return ret;
	ret = sluice_host_profile_apply(r, ifindex, p, res, err, errlen);
	sluice_rtnl_close(r);
	if (!ret)
		*hosts = 1;
	return ret;
}

/*
 * A fabric's state says the profile its hosts have (fabric show), when
 * every host was given it; a profile on some hosts only is not a fabric's.
 */
static int save_profile(struct hargs *a, const struct sluice_host_profile *p)
{
	if (!a->loaded || (a->n_hosts && p))
		return 0;
	a->s.host_profile = p ? SLUICE_HOST_PROFILE_BOLT :
			    SLUICE_HOST_PROFILE_OFF;
	a->s.initcwnd = p ? p->initcwnd : 0;
	return fabric_state_save(&a->s);
}

static int bolt_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN], how[256];
	struct sluice_host_profile p;
	struct sluice_host_apply res;
	uint64_t rtt_ns = 0;
	__u64 rate, given;
	uint32_t mtu = 1500, hosts;
	struct hargs a;
	int ret;

	ret = parse(cmd, &bolt_spec, argc, argv, true, &a);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	if (!a.val[OPT_RATE]) {
		cmd_error(cmd, "--rate RATE is needed: the hosts' link rate (as tc writes it: 10mbit, 25gbit)");
		goto out;
	}
	rate = a.num[OPT_RATE];
	if (a.val[OPT_MTU])
		mtu = a.num[OPT_MTU];
	given = a.num[OPT_RTT];
	if (a.val[OPT_RTT] && a.val[OPT_PING]) {
		cmd_error(cmd, "--rtt gives the round trip, --ping measures it: one of them");
		goto out;
	}
	if (!a.val[OPT_RTT] && a.val[OPT_DEV] && !a.val[OPT_PING]) {
		cmd_error(cmd, "the round trip: --rtt TIME, or --ping ADDR to measure it");
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (a.val[OPT_RTT]) {
		rtt_ns = given;
		snprintf(how, sizeof(how), "given");
	} else if (a.val[OPT_PING]) {
		struct in_addr in;
		uint32_t dst;

		if (inet_pton(AF_INET, a.val[OPT_PING], &in) != 1) {
			ret = cmd_error(cmd, "--ping: \"%s\" is not an IPv4 address",
					      a.val[OPT_PING]);
			goto out;
		}
		dst = ntohl(in.s_addr);
		if (sluice_echo_rtt("", dst, mtu, 5, 2.0, &rtt_ns, err,
				    sizeof(err)))
			goto fail;
		snprintf(how, sizeof(how), "median of 5 echoes of %u bytes to %s",
			 mtu, a.val[OPT_PING]);
	} else if (sluice_fabric_rtt(&a.s.f, true, mtu, &rtt_ns, how,
				     sizeof(how), err, sizeof(err))) {
		snprintf(err + strlen(err), sizeof(err) - strlen(err),
			 " (are the routes loaded? or give --rtt)");
		goto fail;
	}
	if (sluice_host_profile_bolt(&p, rate, rtt_ns, mtu, err, sizeof(err)))
		goto fail;
	if (apply(&a, &p, &res, &hosts, err, sizeof(err)))
		goto fail;
	print_applied("bolt", &a, hosts, &res, &p, rtt_ns, how, rate,
		      a.val[OPT_JSON]);
	if (p.initcwnd > sluice_host_first_flight(p.initcwnd, mtu) &&
	    !a.val[OPT_JSON])
		printf("note: the first round trip carries %u segments, not %u: a SYN-ACK offers at most %u bytes (its window is never scaled); the window grows from the first ACK\n",
		       sluice_host_first_flight(p.initcwnd, mtu), p.initcwnd,
		       SLUICE_HOST_SYN_WINDOW);
	ret = save_profile(&a, &p) ? EXIT_RUNTIME : 0;
	goto out;
fail:
	fprintf(stderr, "sluicectl: %s\n", err);
out:
	args_free(&a);
	return ret < 0 ? 0 : ret;
}

static int off_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN];
	struct sluice_host_apply res;
	uint32_t hosts;
	struct hargs a;
	int ret;

	ret = parse(cmd, &where_spec, argc, argv, true, &a);
	if (ret) {
		args_free(&a);
		return ret < 0 ? 0 : ret;
	}
	ret = apply(&a, NULL, &res, &hosts, err, sizeof(err));
	if (ret)
		fprintf(stderr, "sluicectl: %s\n", err);
	else
		print_applied("off", &a, hosts, &res, NULL, 0, NULL, 0,
			      a.val[OPT_JSON]);
	if (!ret && save_profile(&a, NULL))
		ret = EXIT_RUNTIME;
	args_free(&a);
	return ret ? EXIT_RUNTIME : 0;
}
