// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl int { probe | echo }: in-band telemetry probes by hand
 * (sluice/int.h): send probes down the path a source port takes and print
 * what each sluice port recorded, or answer other hosts' probes.
 *
 *   int probe --to ADDR [--port PORT] [--sport PORT] [--records N]
 *             [--prio { P | own }] [--tos TOS] [--count N]
 *             [--interval TIME] [--timeout TIME] [-j]
 *   int echo  [--port PORT] [--count N] [--timeout TIME] [-j]
 *   int decode [--port PORT] [-j] FILE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <sluice/int.h>
#include <sluice/portfc.h>
#include "jout.h"
#include "args.h"
#include "sluicectl.h"

static int probe_main(const struct command *cmd, int argc, char **argv);
static int echo_main(const struct command *cmd, int argc, char **argv);
static int decode_main(const struct command *cmd, int argc, char **argv);

static const struct command int_commands[] = {
	{ "probe", probe_main,
	  "Send INT probes from a source port and print each sluice port's record",
	  "--to ADDR [--port PORT] [--sport PORT] [--records N] [--prio { P | own }]\n"
	  "\t[--tos TOS] [--count N] [--interval TIME] [--timeout TIME] [-j | --json]\n"
	  "\tA probe is a UDP datagram to ADDR:PORT (default 7771, the ports' int-port)\n"
	  "\twith room for N records (1..32, default 8), sent from --sport (default: any),\n"
	  "\tso it takes the path that port's flows take; an echo responder at ADDR\n"
	  "\t(sluicectl int echo) sends it back.  Each port records the backlog of the\n"
	  "\tclass PFC priority P (0..7) maps to there (default: the probe's own class), its total\n"
	  "\tbacklog, bytes sent, a timestamp and its rate.  --tos sets the probe's IP\n"
	  "\tTOS byte (its class), default 0.  --count probes (default 1), --interval\n"
	  "\tapart (default 100ms); each waits --timeout (default 1s) for its echo.",
	  "int" },
	{ "echo", echo_main,
	  "Answer INT probes: send each back to its sender, and print what it recorded",
	  "[--port PORT] [--count N] [--timeout TIME] [-j | --json]\n"
	  "\tListens on UDP PORT (default 7771) until --count probes are answered (default:\n"
	  "\tno limit) or --timeout passes (default: none).  Datagrams that are not probes\n"
	  "\tare counted and not answered.  With -j, one JSON object per line and probe.",
	  "int" },
	{ "decode", decode_main,
	  "Read the probes in a capture (tcpdump -w) and print their records",
	  "[--port PORT] [-j | --json] FILE\n"
	  "\tFILE is a pcap file (\"-\": standard input) of Ethernet frames, or of Linux cooked\n"
	  "\tframes (tcpdump -i any).  Each IPv4 UDP datagram to PORT (default 7771), after up\n"
	  "\tto two VLAN tags or under an MPLS label stack, that holds a probe is printed with\n"
	  "\tits frame number, addresses and records; other frames are counted.",
	  "int" },
};

int int_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, int_commands, ARRAY_SIZE(int_commands), argc,
			  argv);
}

enum {
	OPT_TO, OPT_PORT, OPT_SPORT, OPT_RECORDS, OPT_PRIO, OPT_TOS, OPT_COUNT,
	OPT_INTERVAL, OPT_TIMEOUT, OPT_JSON, N_OPTS
};

/* The longest interval or timeout taken: an hour. */
#define TIME_MAX_NS	3600000000000ull

static const struct arg_opt opts[N_OPTS] = {
	[OPT_TO]	= ARG_S("--to", 0, "ADDR", "the IPv4 address to probe (required)"),
	[OPT_PORT]	= ARG_N("--port", 0, "PORT", 1, 65535,
				"the probes' UDP port, default 7771 (the ports' int-port)"),
	[OPT_SPORT]	= ARG_N("--sport", 0, "PORT", 1, 65535,
				"the source port, whose flows' path the probe takes; default any"),
	[OPT_RECORDS]	= ARG_N("--records", 0, "N", 1, SLUICE_INT_MAX_RECS,
				"room for N records, default 8"),
	[OPT_PRIO]	= ARG_S("--prio", 0, "{ P | own }",
				"the PFC priority (0..7) whose class's backlog is recorded, default own"),
	[OPT_TOS]	= ARG_N("--tos", 0, "TOS", 0, 255, "the probe's IP TOS byte, default 0"),
	[OPT_COUNT]	= ARG_N("--count", 0, "N", 1, UINT32_MAX,
				"probe: how many, default 1; echo: stop after N answered"),
	[OPT_INTERVAL]	= ARG_NS("--interval", 0, TIME_MAX_NS,
				 "between probes, default 100ms"),
	[OPT_TIMEOUT]	= ARG_NS("--timeout", 1, TIME_MAX_NS,
				 "probe: the wait for each echo, default 1s; echo: when to stop"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
};

static const struct args_spec probe_spec = ARGS_SPEC(opts, 0, 0, NULL);
static const struct args_spec echo_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_PORT, OPT_COUNT, OPT_TIMEOUT, OPT_JSON),
};
static const struct args_spec decode_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 1,
	.operands = "FILE, a pcap capture (\"-\": stdin)",
	.pick = ARGS_PICK(OPT_PORT, OPT_JSON),
};

/* Parsed options, every one checked before anything is sent. */
struct iargs {
	const char	**val;
	uint32_t	to;
	uint16_t	port, sport;
	uint8_t		records, prio, tos;
	uint64_t	count;
	__u64		interval_ns, timeout_ns;
	bool		json;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
};

static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, struct iargs *a)
{
	bool probe = spec == &probe_spec;
	struct in_addr in;
	uint64_t v;

	memset(a, 0, sizeof(*a));
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
	a->port = a->val[OPT_PORT] ? a->num[OPT_PORT] : SLUICE_INT_PORT_DEFAULT;
	a->sport = a->num[OPT_SPORT];
	a->records = a->val[OPT_RECORDS] ? a->num[OPT_RECORDS] : 8;
	a->prio = SLUICE_INT_PRIO_OWN;
	a->tos = a->num[OPT_TOS];
	a->interval_ns = a->val[OPT_INTERVAL] ? a->num[OPT_INTERVAL] :
			 100000000ull;
	a->timeout_ns = a->val[OPT_TIMEOUT] ? a->num[OPT_TIMEOUT] :
			probe ? 1000000000ull : 0;
	a->count = a->val[OPT_COUNT] ? a->num[OPT_COUNT] : probe ? 1 : 0;
	a->json = a->val[OPT_JSON];
	if (probe) {
		if (!a->val[OPT_TO])
			return args_error(&a->args, "--to ADDR: where to probe");
		if (inet_pton(AF_INET, a->val[OPT_TO], &in) != 1)
			return args_error(&a->args, "--to: \"%s\" is not an IPv4 address",
					  a->val[OPT_TO]);
		a->to = in.s_addr;
	}
	if (a->val[OPT_PRIO] && strcmp(a->val[OPT_PRIO], "own")) {
		/* the ports record PFC priorities' classes: 0..7 */
		if (!args_number(a->val[OPT_PRIO], 0, 7, &v))
			return args_error(&a->args, "--prio: \"%s\" is not a PFC priority (0..7) or \"own\"",
					  a->val[OPT_PRIO]);
		a->prio = v;
	}
	return 0;
}

static json_object *hop_json(const struct sluice_int_hop *h, uint64_t tx_ns)
{
	json_object *o = json_object_new_object();

	if (o && jadd(o, "node", jnum(h->node)) &&
	    jadd(o, "ifindex", jnum(h->ifindex)) &&
	    jadd(o, "link", jnum(h->link)) &&
	    jadd(o, "class", jnum(h->class)) &&
	    jadd(o, "backlog", jnum(h->backlog)) &&
	    jadd(o, "port_backlog", jnum(h->port_backlog)) &&
	    jadd(o, "paused", json_object_new_boolean(h->paused)) &&
	    jadd(o, "tx_bytes", jnum(h->tx_bytes)) &&
	    jadd(o, "ts_ns", jnum(h->ts_ns)) &&
	    jadd(o, "since_tx_ns", json_object_new_int64((int64_t)(h->ts_ns - tx_ns))) &&
	    jadd(o, "rate", jnum(h->rate)))
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *probe_json(const struct sluice_int_probe *p,
			       uint16_t sport, const uint64_t *rtt_ns)
{
	json_object *o = json_object_new_object(), *hops;
	unsigned int i;

	if (!o || !jadd(o, "seq", jnum(p->seq)) ||
	    (sport && !jadd(o, "sport", jnum(sport))) ||
	    (rtt_ns && !jadd(o, "rtt_ns", jnum(*rtt_ns))) ||
	    !jadd(o, "records", jnum(p->nrec)) ||
	    !jadd(o, "hops", jnum(p->nused)) ||
	    !jadd(o, "full", json_object_new_boolean(p->flags & SLUICE_INT_F_FULL)) ||
	    !jadd(o, "prio", p->prio == SLUICE_INT_PRIO_OWN ?
		  json_object_new_string("own") : jnum(p->prio)) ||
	    !jadd(o, "tx_ns", jnum(p->tx_ns)) ||
	    !jadd(o, "echo_ns", jnum(p->echo_ns)))
		goto fail;
	hops = json_object_new_array();
	if (!jadd(o, "path", hops))
		goto fail;
	for (i = 0; i < p->nused; i++)
		if (json_object_array_add(hops, hop_json(&p->hop[i], p->tx_ns)))
			goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

static void probe_print(const struct sluice_int_probe *p, uint16_t sport,
			const uint64_t *rtt_ns)
{
	const struct sluice_int_hop *h;
	unsigned int i;

	printf("probe %u", p->seq);
	if (sport)
		printf(" from port %u", sport);
	printf(": %u hop%s", p->nused, p->nused == 1 ? "" : "s");
	if (p->flags & SLUICE_INT_F_FULL)
		printf(" (stack of %u full: more ports than records)", p->nrec);
	if (rtt_ns)
		printf(", round trip %.3f ms", *rtt_ns / 1e6);
	putchar('\n');
	if (!p->nused)
		return;
	printf("  %3s %8s %7s %8s %5s %9s %9s %6s %14s %10s %12s\n", "hop",
	       "node", "ifindex", "link", "class", "backlog", "port", "paused",
	       "tx_bytes", "+us", "rate");
	for (i = 0; i < p->nused; i++) {
		h = &p->hop[i];
		printf("  %3u %8u %7u %8u %5u %9u %9u %6s %14llu %10.1f %12llu\n",
		       i + 1, h->node, h->ifindex, h->link, h->class,
		       h->backlog, h->port_backlog, h->paused ? "yes" : "no",
		       (unsigned long long)h->tx_bytes,
		       (double)(int64_t)(h->ts_ns - p->tx_ns) / 1e3,
		       (unsigned long long)h->rate);
	}
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int probe_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_int_req req;
	struct sluice_int_probe p;
	json_object *all = NULL;
	uint64_t k, rtt, lost = 0;
	char err[256];
	struct iargs a;
	int fd, ret;

	ret = parse(cmd, &probe_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	fd = sluice_int_socket(a.sport, a.tos, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (a.json && !(all = json_object_new_array())) {
		close(fd);
		return jprint(NULL, false);
	}
	req = (struct sluice_int_req){
		.dst = a.to, .port = a.port, .nrec = a.records,
		.prio = a.prio, .timeout_ns = a.timeout_ns,
	};
	for (k = 0; k < a.count; k++) {
		if (k)
			sleep_ns(a.interval_ns);
		req.seq = k + 1;
		ret = sluice_int_ping(fd, &req, &p, &rtt, err, sizeof(err));
		if (ret == -ETIMEDOUT) {
			lost++;
			fprintf(stderr, "sluicectl: probe %u: no echo from %s:%u within %s\n",
				req.seq, a.val[OPT_TO], a.port,
				a.val[OPT_TIMEOUT] ? a.val[OPT_TIMEOUT] : "1s");
			continue;
		}
		if (ret) {
			fprintf(stderr, "sluicectl: %s\n", err);
			close(fd);
			json_object_put(all);
			return EXIT_RUNTIME;
		}
		if (!a.json)
			probe_print(&p, a.sport, &rtt);
		else if (json_object_array_add(all, probe_json(&p, a.sport, &rtt)))
			lost = ~0ull;	/* out of memory: jprint says so */
	}
	close(fd);
	if (a.json && (ret = jprint(all, lost != ~0ull)))
		return ret;
	return lost ? EXIT_RUNTIME : 0;
}

static int echo_main(const struct command *cmd, int argc, char **argv)
{
	uint64_t answered = 0, refused = 0, deadline = 0, now, left;
	struct sluice_int_probe p;
	uint32_t from;
	uint16_t port;
	json_object *o;
	char err[256];
	struct iargs a;
	int fd, ret;

	ret = parse(cmd, &echo_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	fd = sluice_int_socket(a.port, 0, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (a.timeout_ns)
		deadline = sluice_int_now() + a.timeout_ns;
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = 0;
	while ((!a.count || answered < a.count)) {
		left = 0;
		if (deadline) {
			now = sluice_int_now();
			if (now >= deadline)
				break;
			left = deadline - now;
		}
		ret = sluice_int_echo_one(fd, left, &p, &from, &port, err,
					  sizeof(err));
		if (ret == -ETIMEDOUT) {
			ret = 0;
			break;
		}
		if (ret == -EBADMSG || ret == -EPROTO || ret == -EINVAL) {
			refused++;
			continue;
		}
		if (ret) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
			break;
		}
		answered++;
		if (!a.json) {
			printf("from %s:%u ", inet_ntoa((struct in_addr){ from }),
			       ntohs(port));
			probe_print(&p, 0, NULL);
			continue;
		}
		o = probe_json(&p, ntohs(port), NULL);
		if (!o || !jadd(o, "from", json_object_new_string(
				inet_ntoa((struct in_addr){ from })))) {
			json_object_put(o);
			fputs("sluicectl: out of memory\n", stderr);
			ret = EXIT_RUNTIME;
			break;
		}
		puts(jtext(o));
		json_object_put(o);
	}
	close(fd);
	fprintf(stderr, "sluicectl: %llu probe%s answered, %llu datagram%s not probes\n",
		(unsigned long long)answered, answered == 1 ? "" : "s",
		(unsigned long long)refused, refused == 1 ? "" : "s");
	return ret;
}

/* Linux cooked capture (v1): 16 bytes, the protocol in the last two. */
#define SLL_HDR		16

static int decode_main(const struct command *cmd, int argc, char **argv)
{
	uint64_t frames = 0, probes = 0, bad = 0, others = 0;
	char errbuf[PCAP_ERRBUF_SIZE], from[16], to[16];
	json_object *all = NULL, *o;
	struct sluice_int_probe p;
	struct sluice_int_frame f;
	struct pcap_pkthdr *h;
	const uint8_t *data;
	char **files;
	int ret, dlt;
	size_t skip = 0;
	struct iargs a;
	pcap_t *pc;

	ret = parse(cmd, &decode_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	files = a.args.operands;
	if (a.args.n_operands != 1)
		return args_error(&a.args, "which capture? FILE (\"-\": standard input)");
	pc = pcap_open_offline(files[0], errbuf);
	if (!pc) {
		fprintf(stderr, "sluicectl: %s: %s\n", files[0], errbuf);
		return EXIT_RUNTIME;
	}
	dlt = pcap_datalink(pc);
	if (dlt == DLT_LINUX_SLL) {
		/*
		 * From byte 2 on, a cooked header reads as an Ethernet one:
		 * 12 bytes of no interest, then the protocol.
		 */
		skip = SLL_HDR - 14;
	} else if (dlt != DLT_EN10MB) {
		fprintf(stderr, "sluicectl: %s: link type %s: only Ethernet and Linux cooked (v1) captures hold probes here\n",
			files[0], pcap_datalink_val_to_name(dlt) ?: "unknown");
		pcap_close(pc);
		return EXIT_RUNTIME;
	}
	if (a.val[OPT_JSON] && !(all = json_object_new_array())) {
		pcap_close(pc);
		return jprint(NULL, false);
	}
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		frames++;
		if (h->caplen < skip ||
		    sluice_int_frame_find(data + skip, h->caplen - skip, a.port,
					  &f)) {
			others++;
			continue;
		}
		if (sluice_int_probe_parse(data + skip + f.offset, f.len, &p)) {
			bad++;
			continue;
		}
		probes++;
		inet_ntop(AF_INET, &f.saddr, from, sizeof(from));
		inet_ntop(AF_INET, &f.daddr, to, sizeof(to));
		if (!all) {
			printf("frame %llu, %s:%u > %s:%u", (unsigned long long)frames,
			       from, f.sport, to, f.dport);
			if (f.vlans || f.labels)
				printf(" (%u VLAN tag%s, %u label%s)", f.vlans,
				       f.vlans == 1 ? "" : "s", f.labels,
				       f.labels == 1 ? "" : "s");
			printf(", ");
			probe_print(&p, 0, NULL);
			continue;
		}
		o = probe_json(&p, f.sport, NULL);
		if (!o || !jadd(o, "frame", jnum(frames)) ||
		    !jadd(o, "from", json_object_new_string(from)) ||
		    !jadd(o, "to", json_object_new_string(to)) ||
		    !jadd(o, "vlans", jnum(f.vlans)) ||
		    !jadd(o, "labels", jnum(f.labels)) ||
		    json_object_array_add(all, o)) {
			json_object_put(o);
			json_object_put(all);
			pcap_close(pc);
			return jprint(NULL, false);
		}
	}
	if (ret == PCAP_ERROR) {
		fprintf(stderr, "sluicectl: %s: %s\n", files[0], pcap_geterr(pc));
		json_object_put(all);
		pcap_close(pc);
		return EXIT_RUNTIME;
	}
	pcap_close(pc);
	fprintf(stderr, "sluicectl: %llu frame%s, %llu probe%s, %llu malformed, %llu other%s\n",
		(unsigned long long)frames, frames == 1 ? "" : "s",
		(unsigned long long)probes, probes == 1 ? "" : "s",
		(unsigned long long)bad, (unsigned long long)others,
		others == 1 ? "" : "s");
	return all ? jprint(all, true) : 0;
}
