// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sluice qdisc's options given as --OPTION VALUE ("fabric up", "route
 * load"): turned into the words tc takes ("rate 100mbit pfc 3 ...") and
 * parsed by lib/qopt.c once per kind of port, each with its MTU.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sluice/qopt.h>
#include "cmd_fabric.h"
#include "qdisc_args.h"

/* Appends @word to the qdisc's words; false if they do not fit. */
static bool add_word(char *buf, size_t len, const char *word)
{
	size_t at = strlen(buf);
	int n = snprintf(buf + at, len - at, "%s%s", at ? " " : "", word);

	return n >= 0 && (size_t)n < len - at;
}

const char *const qdisc_tag_words[] = {
	"priority", "pcp", "dscp", "mpls-tc", NULL,
};
const char *const qdisc_onoff_words[] = { "on", "off", NULL };
const char *const qdisc_wd_action_words[] = {
	"drop", "forward", "alert", NULL,
};

/**
 * qdisc_args_words() - the qdisc's options as tc would take them
 * @cmd:	the command, for its usage errors
 * @q:		the option table's qdisc entries (QDISC_OPTS(first) + first)
 * @val:	their values, NULL where not given
 * @num:	their numbers (args_parse()): a time's milliseconds
 * @buf:	the words, "" when none is given
 * @len:	room in @buf
 *
 * A map's value is split into its entries.
 *
 * Return: 0 or EXIT_USAGE (printed).
 */
int qdisc_args_words(const struct command *cmd, const struct arg_opt *q,
		     const char *const *val, const uint64_t *num, char *buf,
		     size_t len)
{
	char value[FABRIC_QDISC_MAX], *tok, *save;
	int k;

	buf[0] = '\0';
	if ((val[QOPT_CABLE] || val[QOPT_MTU]) &&
	    (!val[QOPT_XOFF] || strcmp(val[QOPT_XOFF], "auto")))
		return cmd_error(cmd, "--cable and --mtu go with --xoff auto");
	for (k = 0; k < N_QOPTS; k++) {
		if (!val[k])
			continue;
		if (!add_word(buf, len, q[k].name + 2))
			return cmd_error(cmd, "too many qdisc options");
		/* a time as the library takes it: milliseconds */
		if (q[k].kind == ARG_TIME)
			snprintf(value, sizeof(value), "%llums",
				 (unsigned long long)num[k]);
		else
			snprintf(value, sizeof(value), "%s", val[k]);
		for (tok = strtok_r(value, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save))
			if (!add_word(buf, len, tok))
				return cmd_error(cmd, "too many qdisc options");
	}
	return 0;
}

/**
 * qdisc_args_add() - one more option, as tc takes it, after the others
 * @cmd:	the command, for its usage error
 * @buf:	the words so far (qdisc_args_words())
 * @len:	room in @buf
 * @name:	the option's word
 * @value:	its value
 *
 * Return: 0 or EXIT_USAGE (printed).
 */
int qdisc_args_add(const struct command *cmd, char *buf, size_t len,
		   const char *name, const char *value)
{
	if (!add_word(buf, len, name) || !add_word(buf, len, value))
		return cmd_error(cmd, "too many qdisc options");
	return 0;
}

/**
 * qdisc_args_parse() - the options of link ports and of host ports
 * @words:	from qdisc_args_words()
 * @q:		filled, "xoff auto" resolved with each kind's MTU
 *
 * Return: 0 or EXIT_USAGE (printed).
 */
int qdisc_args_parse(const char *words, struct sluice_fabric_qdisc *q)
{
	static const struct {
		const char	*what;
		uint32_t	mtu;
	} kinds[] = {
		{ "link ports", SLUICE_FABRIC_LINK_MTU },
		{ "host ports", SLUICE_FABRIC_HOST_MTU },
	};
	char buf[FABRIC_QDISC_MAX], *argv[FABRIC_QDISC_MAX / 2], *save;
	char err[SLUICE_ERRLEN];
	struct sluice_qopt *o;
	int argc, ret;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		o = k ? &q->host : &q->link;
		snprintf(buf, sizeof(buf), "%s", words);
		argc = 0;
		for (argv[argc] = strtok_r(buf, " ", &save); argv[argc];
		     argv[++argc] = strtok_r(NULL, " ", &save))
			;
		ret = sluice_qopt_parse(o, argc, argv, err, sizeof(err));
		if (!ret)
			ret = sluice_qopt_xoff_auto(o, kinds[k].what,
						    kinds[k].mtu, err,
						    sizeof(err));
		if (ret) {
			fprintf(stderr, "sluicectl: qdisc options: %s\n", err);
			return EXIT_USAGE;
		}
	}
	q->enabled = true;
	return 0;
}
