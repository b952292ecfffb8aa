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
#include "opts.h"
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

int fabric_ping_main(const struct command *cmd, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "--name", NULL, true }, { "--count", "-c", true },
		{ "--timeout", "-W", true }, { "--json", "-j", false },
	};
	const char *val[ARRAY_SIZE(opts)];
	struct sluice_ping_opts po = { .count = 1, .timeout = 2 };
	const char *name = SLUICE_FABRIC_DEFAULT_NAME;
	struct sluice_ping_result res;
	struct sluice_fabric_state s;
	char msg[128], err[SLUICE_ERRLEN];
	int n_files, ret;
	uint64_t v;

	ret = opts_parse(argc, argv, opts, ARRAY_SIZE(opts), 0xf, val, NULL, 0,
			 &n_files, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (val[0])
		name = val[0];
	if (val[1]) {
		if (!opts_number(val[1], 1, 1000, &v))
			return sub_usage_error(cmd, "--count: \"%s\" is not a number from 1 to 1000",
					       val[1]);
		po.count = v;
	}
	if (val[2]) {
		if (!opts_number(val[2], 1, 3600, &v))
			return sub_usage_error(cmd, "--timeout: \"%s\" is not a number of seconds from 1 to 3600",
					       val[2]);
		po.timeout = v;
	}
	if (sluice_fabric_name_check(name, msg, sizeof(msg)))
		return sub_usage_error(cmd, "--name: %s", msg);
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
