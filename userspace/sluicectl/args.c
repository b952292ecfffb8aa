// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl's one argument layer.  Each command has an enum of its
 * options and a table of struct arg_opt indexed by it (args.h); the
 * parser follows getopt_long(3)'s conventions:
 *
 *   --opt value, --opt=value, -o value, -ovalue, bundled flags (-jv),
 *   "--" ends the options, options and operands in any order, "-" is an
 *   operand.
 *
 * with two differences: an option's name must be given whole (getopt_long
 * takes any unambiguous prefix, so "--pa" would mean "--paths" until the
 * day another "--pa..." option is added and a script that used it breaks),
 * and an option given twice is refused unless its entry says ARG_REPEAT.
 * Every value is checked as its kind says before the command does any
 * work, and every message names the command, the option and what is
 * accepted: sluicectl route compute: --paths: "70000" is not a number
 * from 1 to 65536.  The command's --help is generated from the same table.
 *
 * It is not getopt_long itself because of those two differences: glibc's
 * has no switch for either.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include "args.h"

bool args_global_json, args_global_verbose;

/* "route compute" for a group's command, "headroom" for one of its own. */
static const char *cmd_path(const struct command *cmd, char *buf, size_t len)
{
	if (cmd->group)
		snprintf(buf, len, "%s %s", cmd->group, cmd->name);
	else
		snprintf(buf, len, "%s", cmd->name);
	return buf;
}

/* Whether the command takes option @k of the table. */
static bool picked(const struct args_spec *spec, size_t k)
{
	const int *p;

	if (!spec->pick)
		return true;
	for (p = spec->pick; *p >= 0; p++)
		if ((size_t)*p == k)
			return true;
	return false;
}

/* The @i-th option the command takes, in its pick order: false past the last. */
static bool nth(const struct args_spec *spec, size_t i, size_t *k)
{
	if (spec->pick) {
		if (spec->pick[i] < 0)
			return false;
		*k = spec->pick[i];
		return true;
	}
	*k = i;
	return i < spec->n_opts;
}

/*
 * "Usage: sluicectl route compute USAGE": the command's usage, or one made
 * of @spec's options when it has none.
 */
static void print_usage(FILE *f, const struct command *cmd,
			const struct args_spec *spec)
{
	const struct arg_opt *o;
	char path[64];
	size_t i, k;

	cmd_path(cmd, path, sizeof(path));
	fprintf(f, "Usage: sluicectl%s%s", *path ? " " : "", path);
	if (cmd->usage || !spec) {
		fprintf(f, " %s\n", cmd->usage ? cmd->usage : "");
		return;
	}
	for (i = 0; nth(spec, i, &k); i++) {
		o = &spec->opts[k];
		fprintf(f, " %s%s%s%s%s", o->flags & ARG_REQUIRED ? "" : "[",
			o->name, o->kind == ARG_FLAG ? "" : " ",
			o->kind == ARG_FLAG ? "" :
			o->metavar ? o->metavar : "WORD",
			o->flags & ARG_REQUIRED ? "" : "]");
	}
	if (spec->operands && spec->max_operands)
		fprintf(f, " %s", spec->operands);
	fputc('\n', f);
}

/* sluicectl's own options, before the command, have no command's name. */
static void vusage(const struct command *cmd, const struct args_spec *spec,
		   const char *fmt, va_list ap)
{
	char path[64];

	cmd_path(cmd, path, sizeof(path));
	fprintf(stderr, "sluicectl%s%s: ", *path ? " " : "", path);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	print_usage(stderr, cmd, spec);
}

/**
 * cmd_error() - reject a command's arguments
 * @cmd:	the command (a group's or one of its own)
 * @fmt:	what is wrong, printf style
 *
 * Prints "sluicectl CMD: <message>" and the command's usage to stderr, as
 * args_error() does for a command whose arguments are parsed.
 *
 * Return: EXIT_USAGE, to be returned from the command's main.
 */
int cmd_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(cmd, NULL, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int args_error(const struct args *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(a->cmd, a->spec, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

bool args_number(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	*v = x;
	return !errno && !*end && x >= min && x <= max;
}

/* tc's TIMES (tc(8)), and ns as tc's get_time64() takes them */
static const struct {
	const char	*suffix;
	uint64_t	ns;
} time_units[] = {
	{ "s", 1000000000 }, { "sec", 1000000000 }, { "secs", 1000000000 },
	{ "ms", 1000000 }, { "msec", 1000000 }, { "msecs", 1000000 },
	{ "us", 1000 }, { "usec", 1000 }, { "usecs", 1000 },
	{ "ns", 1 }, { "nsec", 1 }, { "nsecs", 1 },
};

/**
 * args_time() - a time as tc writes it, in units of @grain_ns
 * @s:		digits, an optional fraction, an optional unit ("200ms",
 *		"1.5s", "20usec"); without a unit, @unit_ns units
 * @unit_ns:	the unit of a bare number
 * @grain_ns:	the unit of the result
 * @v:		set on success
 *
 * Return: 0; -EINVAL if @s is not a time or not a whole number of units;
 * -ERANGE if it does not fit 64 bits of nanoseconds.
 */
int args_time(const char *s, uint64_t unit_ns, uint64_t grain_ns, uint64_t *v)
{
	unsigned __int128 whole = 0, frac = 0, div = 1, ns;
	uint64_t scale = unit_ns;
	const char *p = s;
	size_t i;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > UINT64_MAX)
			return -ERANGE;
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -EINVAL;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (div >= 1000000000000000000ull)
				return -EINVAL;
			frac = frac * 10 + (*p - '0');
			div *= 10;
		}
	}
	if (*p) {
		for (i = 0; i < ARRAY_SIZE(time_units); i++)
			if (!strcmp(p, time_units[i].suffix))
				break;
		if (i == ARRAY_SIZE(time_units))
			return -EINVAL;
		scale = time_units[i].ns;
	}
	if (frac * scale % div)
		return -EINVAL;		/* below a nanosecond */
	ns = whole * scale + frac * scale / div;
	if (ns > UINT64_MAX)
		return -ERANGE;
	if (ns % grain_ns)
		return -EINVAL;
	*v = ns / grain_ns;
	return 0;
}

/* "60s", "200ms", "1500us": the largest unit that holds @ns whole. */
static const char *fmt_time(uint64_t ns, char *buf, size_t len)
{
	static const char *const names[] = { "s", "ms", "us", "ns" };
	uint64_t scale = 1000000000;
	int i;

	for (i = 0; i < 3 && (ns % scale); i++)
		scale /= 1000;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / scale),
		 names[i]);
	return buf;
}

static const char *unit_name(uint64_t unit_ns)
{
	return unit_ns == 1000000000 ? "seconds" :
	       unit_ns == 1000000 ? "milliseconds" :
	       unit_ns == 1000 ? "microseconds" : "nanoseconds";
}

/* "text, json, sai or openmetrics" */
static const char *fmt_words(const char *const *w, char *buf, size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; w[i] && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%s",
			       !i ? "" : w[i + 1] ? ", " : " or ", w[i]);
	return buf;
}

/* What @o accepts, for its help and its messages; "" if anything. */
static const char *fmt_range(const struct arg_opt *o, char *buf, size_t len)
{
	char lo[SLUICE_RATE_STRLEN], hi[SLUICE_RATE_STRLEN];

	buf[0] = '\0';
	switch (o->kind) {
	case ARG_U64:
		if (o->max == UINT64_MAX)
			snprintf(buf, len, "a number of %llu or more",
				 (unsigned long long)o->min);
		else
			snprintf(buf, len, "a number from %llu to %llu",
				 (unsigned long long)o->min,
				 (unsigned long long)o->max);
		break;
	case ARG_TIME:
		snprintf(buf, len, "a time from %s to %s%s%s (a bare number is %s)",
			 fmt_time(o->min * o->grain_ns, lo, sizeof(lo)),
			 fmt_time(o->max * o->grain_ns, hi, sizeof(hi)),
			 o->grain_ns > 1 ? " in whole " : "",
			 o->grain_ns > 1 ? unit_name(o->grain_ns) : "",
			 unit_name(o->unit_ns));
		break;
	case ARG_RATE:
		if (o->max == UINT64_MAX)
			snprintf(buf, len, "a rate of %s or more, as 100mbit or 10gbit",
				 sluice_format_rate(o->min, lo, sizeof(lo)));
		else
			snprintf(buf, len, "a rate from %s to %s",
				 sluice_format_rate(o->min, lo, sizeof(lo)),
				 sluice_format_rate(o->max, hi, sizeof(hi)));
		break;
	case ARG_SIZE:
		snprintf(buf, len, "bytes from %llu to %llu, or with a unit as 64k",
			 (unsigned long long)o->min, (unsigned long long)o->max);
		break;
	case ARG_ENUM:
		fmt_words(o->words, buf, len);
		break;
	default:
		break;
	}
	return buf;
}

/* Checks @s as @o's kind says; num is its number.  0 or EXIT_USAGE. */
static int check_value(struct args *a, const struct arg_opt *o,
		       const char *s, uint64_t *num)
{
	char range[256];
	__u64 r;
	__u32 z;
	int i;

	switch (o->kind) {
	case ARG_U64:
		if (args_number(s, o->min, o->max, num))
			return 0;
		break;
	case ARG_TIME:
		if (!args_time(s, o->unit_ns, o->grain_ns, num) &&
		    *num >= o->min &&
		    *num <= o->max)
			return 0;
		break;
	case ARG_RATE:
		if (!sluice_parse_rate(s, &r) && r >= o->min && r <= o->max) {
			*num = r;
			return 0;
		}
		break;
	case ARG_SIZE:
		if (!sluice_parse_size(s, &z) && z >= o->min && z <= o->max) {
			*num = z;
			return 0;
		}
		break;
	case ARG_ENUM:
		for (i = 0; o->words[i]; i++)
			if (!strcmp(s, o->words[i])) {
				*num = i;
				return 0;
			}
		return args_error(a, "%s: \"%s\" is not %s", o->name, s,
				  fmt_range(o, range, sizeof(range)));
	case ARG_FILE:
		if (*s)
			return 0;
		return args_error(a, "%s: the file name is empty", o->name);
	default:
		return 0;
	}
	return args_error(a, "%s: \"%s\" is not %s", o->name, s,
			  fmt_range(o, range, sizeof(range)));
}

/* Option @k given (with @value, NULL for a flag).  0 or EXIT_USAGE. */
static int take(struct args *a, size_t k, const char *value)
{
	const struct arg_opt *o = &a->spec->opts[k];
	uint64_t num = 0;
	int ret;

	if (a->val[k] && !(o->flags & ARG_REPEAT))
		return args_error(a, "%s given twice", o->name);
	if (o->kind == ARG_FLAG) {
		a->val[k] = "";
		a->num[k]++;
		return 0;
	}
	ret = check_value(a, o, value, &num);
	if (ret)
		return ret;
	a->val[k] = value;
	a->num[k] = num;
	return o->each ? o->each(a, value) : 0;
}

/* A global option given before the command, for the command's own. */
static int take_global(struct args *a, const char *name, char letter)
{
	size_t k;

	for (k = 0; k < a->spec->n_opts; k++)
		if (picked(a->spec, k) && !strcmp(a->spec->opts[k].name, name))
			break;
	if (k == a->spec->n_opts)
		return args_error(a, "-%c (before the command): this command has no %s",
				  letter, name);
	if (!a->val[k]) {
		a->val[k] = "";
		a->num[k] = 1;
	}
	return 0;
}

/* @arg is "--name" or "--name=value": the index of name in the table. */
static size_t find_long(const struct args_spec *spec, const char *arg)
{
	size_t len = strcspn(arg, "="), k;

	for (k = 0; k < spec->n_opts; k++)
		if (picked(spec, k) && strlen(spec->opts[k].name) == len &&
		    !strncmp(spec->opts[k].name, arg, len))
			return k;
	return k;
}

static size_t find_short(const struct args_spec *spec, char c)
{
	size_t k;

	for (k = 0; k < spec->n_opts; k++)
		if (picked(spec, k) && spec->opts[k].short_name == c)
			return k;
	return k;
}

enum { GO_ON, HELP, FAIL };

/* A "--name[=value]" at argv[*i]. */
static int parse_long(struct args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');
	size_t k;

	if (!strcmp(arg, "--help"))
		return HELP;
	k = find_long(a->spec, arg);
	if (k == a->spec->n_opts) {
		args_error(a, "unknown option \"%.*s\"", (int)strcspn(arg, "="),
			   arg);
		return FAIL;
	}
	if (a->spec->opts[k].kind == ARG_FLAG) {
		if (eq) {
			args_error(a, "%s takes no value", a->spec->opts[k].name);
			return FAIL;
		}
		return take(a, k, NULL) ? FAIL : GO_ON;
	}
	if (!eq && *i + 1 == argc) {
		args_error(a, "%s needs a value", a->spec->opts[k].name);
		return FAIL;
	}
	return take(a, k, eq ? eq + 1 : argv[++*i]) ? FAIL : GO_ON;
}

/* "-j", "-jv", "-ofile", "-o file" at argv[*i]. */
static int parse_short(struct args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	const struct arg_opt *o;
	size_t k;
	int j;

	for (j = 1; arg[j]; j++) {
		if (arg[j] == 'h')
			return HELP;
		k = find_short(a->spec, arg[j]);
		if (k == a->spec->n_opts) {
			args_error(a, "unknown option \"-%c\"", arg[j]);
			return FAIL;
		}
		o = &a->spec->opts[k];
		if (o->kind == ARG_FLAG) {
			if (take(a, k, NULL))
				return FAIL;
			continue;
		}
		if (arg[j + 1])
			return take(a, k, arg + j + 1) ? FAIL : GO_ON;
		if (*i + 1 == argc) {
			args_error(a, "-%c (%s) needs a value", arg[j], o->name);
			return FAIL;
		}
		return take(a, k, argv[++*i]) ? FAIL : GO_ON;
	}
	return GO_ON;
}

/**
 * args_parse() - read a command's arguments
 * @cmd:	the command, for its messages and its help
 * @spec:	its options and operands
 * @argc:	arguments, argv[0] the command's name
 * @argv:	the arguments; reordered: the operands end up first
 * @a:		val and num set by the caller, with room for @spec's
 *		options; the rest is filled
 *
 * Return: false to go on; true when the command is done and returns
 * a->exit: 0 after printing the help (-h, --help), EXIT_USAGE after
 * printing what is wrong.
 */
bool args_parse(const struct command *cmd, const struct args_spec *spec,
		int argc, char **argv, struct args *a)
{
	bool only_operands = false;
	int i, ret = GO_ON;
	size_t k;

	a->cmd = cmd;
	a->spec = spec;
	a->operands = argv + 1;
	a->n_operands = 0;
	a->exit = EXIT_USAGE;
	memset(a->val, 0, spec->n_opts * sizeof(*a->val));
	memset(a->num, 0, spec->n_opts * sizeof(*a->num));
	for (i = 1; i < argc && ret == GO_ON; i++) {
		const char *arg = argv[i];

		if (!only_operands && !strcmp(arg, "--")) {
			only_operands = true;
		} else if (only_operands || arg[0] != '-' || !arg[1]) {
			if (spec->in_order) {
				a->operands = argv + i;
				a->n_operands = argc - i;
				break;
			}
			/* operands move down over the options already read */
			a->operands[a->n_operands++] = argv[i];
		} else if (arg[1] == '-') {
			ret = parse_long(a, argc, argv, &i);
		} else {
			ret = parse_short(a, argc, argv, &i);
		}
	}
	if (ret == HELP) {
		if (spec->help)
			spec->help(stdout);
		else
			args_help(stdout, cmd, spec);
		a->exit = 0;
		return true;
	}
	if (ret == FAIL)
		return true;
	if (!spec->in_order && ((args_global_json && take_global(a, "--json", 'j')) ||
	    (args_global_verbose && take_global(a, "--verbose", 'v'))))
		return true;
	if (spec->max_operands >= 0 && a->n_operands > spec->max_operands) {
		args_error(a, "unexpected argument \"%s\"",
			   a->operands[spec->max_operands]);
		return true;
	}
	for (k = 0; k < spec->n_opts; k++)
		if ((spec->opts[k].flags & ARG_REQUIRED) && !a->val[k] &&
		    picked(spec, k)) {
			args_error(a, "%s is required", spec->opts[k].name);
			return true;
		}
	if (a->n_operands < spec->min_operands) {
		args_error(a, "missing %s", spec->operands);
		return true;
	}
	return false;
}

#define HELP_COLUMN	28

/**
 * args_help() - a command's help, from its table
 * @f:		where to
 * @cmd:	the command: its usage line and what it does
 * @spec:	its options: each with its value, what it accepts and means
 */
void args_help(FILE *f, const struct command *cmd,
	       const struct args_spec *spec)
{
	char left[96], range[256];
	const struct arg_opt *o;
	size_t i, k;
	int n;

	print_usage(f, cmd, spec);
	fprintf(f, "\n%s.\n", cmd->help);
	if (spec->operands && spec->max_operands)
		fprintf(f, "\nArguments: %s.\n", spec->operands);
	fputs("\nOptions:\n", f);
	for (i = 0; nth(spec, i, &k); i++) {
		o = &spec->opts[k];
		n = snprintf(left, sizeof(left), "  %c%c%s%s%s%s",
			     o->short_name ? '-' : ' ',
			     o->short_name ? o->short_name : ' ',
			     o->short_name ? ", " : "  ", o->name,
			     o->kind == ARG_FLAG ? "" : " ",
			     o->kind == ARG_FLAG ? "" :
			     o->metavar ? o->metavar : "WORD");
		fputs(left, f);
		if (n >= HELP_COLUMN - 1)
			fprintf(f, "\n%*s", HELP_COLUMN, "");
		else
			fprintf(f, "%*s", HELP_COLUMN - n, "");
		fmt_range(o, range, sizeof(range));
		fprintf(f, "%s%s%s%s\n", o->help, *range ? " [" : "", range,
			*range ? "]" : "");
	}
	fprintf(f, "  -h, --help%*sprint this help and exit\n",
		HELP_COLUMN - 12, "");
	if (spec->more)
		fprintf(f, "\n%s\n", spec->more);
}
