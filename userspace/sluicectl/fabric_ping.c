// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl fabric ping [--name NAME] [--count N] [--timeout SECONDS] [-j]
 *
 * All-pairs connectivity of a fabric's hosts: the library pings
 * (sluice/fabric_ping.h), this prints what came back.  Exit 0 when every
 * request was answered, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/fabric.h>
#include <sluice/fabric_ping.h>
#include "cmd_fabric.h"
#include "jout.h"
#include "args.h"
#include "sluicectl.h"

static void report(const struct sluice_ping_result *r, bool json)
{
	const struct sluice_ping_host *h = r->hosts;
	uint64_t lost = r->sent - r->received, k;
	json_object *o, *arr = NULL, *e;
	bool ok;

	if (!json) {
		printf("ping %u hosts: %llu pairs, %llu sent, %llu received, %llu lost",
		       r->n_hosts, (unsigned long long)r->pairs,
		       (unsigned long long)r->sent,
		       (unsigned long long)r->received,
		       (unsigned long long)lost);
		if (r->received)
			printf("; rtt min/avg/max %.3f/%.3f/%.3f ms",
			       r->rtt_min * 1e3, r->rtt_avg * 1e3,
			       r->rtt_max * 1e3);
		putchar('\n');
		for (k = 0; k < r->n_lost; k++)
			printf("lost %s -> %s\n", h[r->lost[k].src].name,
			       h[r->lost[k].dst].name);
		return;
	}
	o = json_object_new_object();
	ok = o && jadd(o, "hosts", jnum(r->n_hosts)) &&
	     jadd(o, "pairs", jnum(r->pairs)) &&
	     jadd(o, "sent", jnum(r->sent)) &&
	     jadd(o, "received", jnum(r->received)) &&
	     jadd(o, "lost", jnum(lost)) &&
	     jadd(o, "lost_pairs", arr = json_object_new_array());
	if (ok && r->received) {
		e = json_object_new_object();
		ok = e && jadd(e, "min", jfixed(r->rtt_min * 1e3)) &&
		     jadd(e, "avg", jfixed(r->rtt_avg * 1e3)) &&
		     jadd(e, "max", jfixed(r->rtt_max * 1e3));
		ok = jadd(o, "rtt_ms", ok ? e : NULL) && ok;
	}
	for (k = 0; ok && k < r->n_lost; k++) {
		e = json_object_new_object();
		ok = e && !json_object_array_add(arr, e) &&
		     jadd(e, "src", json_object_new_string(h[r->lost[k].src].name)) &&
		     jadd(e, "dst", json_object_new_string(h[r->lost[k].dst].name));
	}
	if (ok)
		puts(jtext(o));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
}

static const struct arg_opt opts[] = {
	ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	ARG_N("--count", 'c', "N", 1, 1000, "echoes per pair, default 1"),
	ARG_SEC("--timeout", 1, 3600,
		"how long to wait for each reply, whole seconds, default 2s",
		.short_name = 'W'),
	ARG_F("--json", 'j', "print JSON instead of text"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

int fabric_ping_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_ping_opts po = { .count = 1, .timeout = 2 };
	const char *name = SLUICE_FABRIC_DEFAULT_NAME, **val;
	struct sluice_ping_result res;
	struct sluice_fabric_state s;
	char msg[128], err[SLUICE_ERRLEN];
	int ret;
	ARGS_DECLARE(a, ARRAY_SIZE(opts));

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	val = a.val;
	if (val[0])
		name = val[0];
	if (val[1])
		po.count = a.num[1];
	if (val[2])
		po.timeout = a.num[2];
	if (sluice_fabric_name_check(name, msg, sizeof(msg)))
		return args_error(&a, "--name: %s", msg);
	if (fabric_state_load(name, &s, false))
		return EXIT_RUNTIME;
	ret = sluice_fabric_ping(&s.f, &po, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	} else {
		report(&res, val[3]);
		ret = res.n_lost ? EXIT_RUNTIME : 0;
	}
	sluice_ping_result_free(&res);
	sluice_fabric_state_free(&s);
	return ret;
}
