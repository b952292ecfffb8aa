// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl monitor [-n NETNS] [-j | --json] [--count N] [--timeout TIME]
 *
 * The switch's "events" group as it happens: one line per event (one JSON
 * object per line with -j), flushed at once, so that a script can read
 * them from a pipe.  "monitoring" comes first, once subscribed: a script
 * that waits for it misses no event it triggers afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sluice/qopt.h>
#include "jout.h"
#include "args.h"
#include "sw.h"

enum opt_id { OPT_NETNS, OPT_JSON, OPT_COUNT, OPT_TIMEOUT, N_OPTS };

/* The longest --timeout: a day is beyond any test's patience. */
#define TIMEOUT_MAX_MS	(7 * 24 * 3600 * 1000LL)

static const struct arg_opt opts[] = {
	[OPT_NETNS]	= ARG_S("--netns", 'n', "NETNS",
				"the switch of namespace NETNS (default sluicectl's own)"),
	[OPT_JSON]	= ARG_F("--json", 'j', "one JSON object per event, a line each"),
	[OPT_COUNT]	= ARG_N("--count", 0, "N", 1, UINT64_MAX,
				"stop after N events (\"lost\" does not count)"),
	[OPT_TIMEOUT]	= ARG_SEC_MS("--timeout", 1, TIMEOUT_MAX_MS,
				     "stop after TIME"),
};

static const struct args_spec spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.more = "Prints \"monitoring\" once subscribed, then one line per event;\n"
		"ends after --count events or at --timeout (exit 0 either way).",
};

struct monitor {
	bool		json;
	uint64_t	count;		/* 0: no limit */
	uint64_t	seen;
	bool		failed;		/* stdout went away */
};

static const char *const event_names[] = {
	[SLUICE_EVENT_SWITCH]	= "switch",
	[SLUICE_EVENT_MAPS]	= "maps",
	[SLUICE_EVENT_PORT_ADD]	= "port-add",
	[SLUICE_EVENT_PORT_DEL]	= "port-del",
	[SLUICE_EVENT_STORM]	= "storm",
	[SLUICE_EVENT_RESTORED]	= "restored",
};

/* The watchdog action's name, or its number from a newer kernel. */
static void print_action(uint8_t action)
{
	const char *name = sluice_wd_action_name(action);

	if (name)
		printf(" action %s", name);
	else
		printf(" action %u", action);
}

static const char *event_name(uint8_t event)
{
	if (event == SLUICE_EVENT_LOST)
		return "lost";
	if (event < ARRAY_SIZE(event_names) && event_names[event])
		return event_names[event];
	return NULL;
}

static void print_text(const struct sluice_nl_event *ev)
{
	const char *name = event_name(ev->event);
	char buf[16];

	if (name)
		fputs(name, stdout);
	else
		printf("event %u", ev->event);
	if (ev->event == SLUICE_EVENT_LOST)
		fputs(" (the kernel dropped events: the monitor fell behind)",
		      stdout);
	if (ev->has_ifname)
		printf(" %s", ev->ifname);
	if (ev->has_ifindex)
		printf(" ifindex %u", ev->ifindex);
	if (ev->has_tag_source)
		printf(" tag-source %s", sw_source(ev->tag_source, buf));
	if (ev->has_generation)
		printf(" generation %u", ev->generation);
	if (ev->has_counts)
		printf(" in %u eg %u tag %u ports %u", ev->counts.in,
		       ev->counts.eg, ev->counts.tag, ev->counts.ports);
	if (ev->has_prio)
		printf(" prio %u", ev->prio);
	if (ev->has_wd_action)
		print_action(ev->wd_action);
	if (ev->has_prio_stats)
		printf(" storms %llu restored %llu drops %llu forwarded %llu"
		       " pfc_rx %llu backlog %u qlen %u",
		       (unsigned long long)ev->prio_stats.wd_storms,
		       (unsigned long long)ev->prio_stats.wd_restored,
		       (unsigned long long)ev->prio_stats.wd_drops,
		       (unsigned long long)ev->prio_stats.wd_forwarded,
		       (unsigned long long)ev->prio_stats.pfc_rx,
		       ev->prio_stats.backlog, ev->prio_stats.qlen);
	putchar('\n');
}

/* What a watchdog event carries of the class, under the uapi's names. */
static json_object *jprio_stats(const struct sluice_prio_stats *ps)
{
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && jadd(o, "wd_storms", jnum(ps->wd_storms)) &&
	     jadd(o, "wd_restored", jnum(ps->wd_restored)) &&
	     jadd(o, "wd_drops", jnum(ps->wd_drops)) &&
	     jadd(o, "wd_forwarded", jnum(ps->wd_forwarded)) &&
	     jadd(o, "pfc_rx", jnum(ps->pfc_rx)) &&
	     jadd(o, "xon_rx", jnum(ps->xon_rx)) &&
	     jadd(o, "packets", jnum(ps->packets)) &&
	     jadd(o, "drops", jnum(ps->drops)) &&
	     jadd(o, "backlog", jnum(ps->backlog)) &&
	     jadd(o, "qlen", jnum(ps->qlen)) &&
	     jadd(o, "paused_us", jnum(ps->paused_us));
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int print_json(const struct sluice_nl_event *ev)
{
	const char *name = event_name(ev->event);
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && jadd(o, "event", name ? json_object_new_string(name) :
					  jnum(ev->event));
	if (ok && ev->has_ifname)
		ok = jadd(o, "ifname", json_object_new_string(ev->ifname));
	if (ok && ev->has_ifindex)
		ok = jadd(o, "ifindex", jnum(ev->ifindex));
	if (ok && ev->has_tag_source)
		ok = jadd(o, "tag_source", sw_jsource(ev->tag_source));
	if (ok && ev->has_generation)
		ok = jadd(o, "generation", jnum(ev->generation));
	if (ok && ev->has_counts)
		ok = jadd(o, "map_entries", sw_jcounts(&ev->counts));
	if (ok && ev->has_prio)
		ok = jadd(o, "prio", jnum(ev->prio));
	if (ok && ev->has_wd_action) {
		const char *action = sluice_wd_action_name(ev->wd_action);

		ok = jadd(o, "action", action ? json_object_new_string(action) :
					       jnum(ev->wd_action));
	}
	if (ok && ev->has_prio_stats)
		ok = jadd(o, "stats", jprio_stats(&ev->prio_stats));
	return sw_jprint(o, ok);
}

/* Prints one event; 0 (stop) when --count is reached or stdout failed. */
static int on_event(const struct sluice_nl_event *ev, void *arg)
{
	struct monitor *m = arg;

	if (m->json) {
		if (print_json(ev))
			m->failed = true;
	} else {
		print_text(ev);
	}
	if (fflush(stdout) || ferror(stdout))
		m->failed = true;
	/* a loss is news about the monitor, not an event of the switch */
	if (ev->event != SLUICE_EVENT_LOST)
		m->seen++;
	return !m->failed && (!m->count || m->seen < m->count);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int monitor_main(const struct command *cmd, int argc, char **argv)
{
	struct monitor m = { 0 };
	const char *val[N_OPTS];
	uint64_t num[N_OPTS];
	struct args a = { .val = val, .num = num };
	char err[SLUICE_ERRLEN];
	long long timeout, deadline = 0, left;
	struct sluice_nl *nl;
	int ret;

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	m.count = num[OPT_COUNT];
	timeout = num[OPT_TIMEOUT];
	m.json = val[OPT_JSON];
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	if (sluice_nl_subscribe(nl, err, sizeof(err))) {
		sluice_nl_close(nl);
		return sw_fail(err);
	}
	if (m.json) {
		json_object *o = json_object_new_object();

		if (jprint(o, o && jadd(o, "monitoring",
					json_object_new_boolean(true))))
			m.failed = true;
	} else {
		puts("monitoring");
	}
	if (fflush(stdout))
		m.failed = true;
	if (timeout)
		deadline = now_ms() + timeout;
	while (!m.failed && (!m.count || m.seen < m.count)) {
		left = -1;
		if (timeout) {
			left = deadline - now_ms();
			if (left <= 0)
				break;
		}
		ret = sluice_nl_events(nl, left, on_event, &m, err,
				       sizeof(err));
		if (ret < 0) {
			ret = sw_fail(err);
			break;
		}
		ret = 0;
	}
	sluice_nl_close(nl);
	if (m.failed) {
		fprintf(stderr, "sluicectl: cannot write output: %s\n",
			strerror(errno));
		return EXIT_RUNTIME;
	}
	return ret;
}
