/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sluicectl's one argument layer (args.c): every command describes its
 * options in a table of struct arg_opt, args_parse() reads argv with
 * getopt_long's conventions and checks every value fully before the
 * command does any work, and the command's --help is generated from the
 * same table.
 */
#ifndef _SLUICECTL_ARGS_H
#define _SLUICECTL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sluicectl.h"

enum arg_kind {
	ARG_FLAG,	/* no value */
	ARG_STR,	/* any text */
	ARG_FILE,	/* a path; "-" for stdin or stdout where the help says */
	ARG_U64,	/* a whole decimal number from .min to .max */
	ARG_TIME,	/* tc's TIME, in units of .grain_ns: .min to .max */
	ARG_RATE,	/* tc's RATE ("10gbit"), bits/s, .min to .max */
	ARG_SIZE,	/* tc's SIZE ("64k"), bytes, .min to .max */
	ARG_ENUM,	/* one of .words; num[] is its index */
};

/* .flags */
#define ARG_REPEAT	0x1	/* may be given more than once; .each sees each */
#define ARG_REQUIRED	0x2	/* must be given */

struct args;

struct arg_opt {
	const char		*name;		/* "--topo" */
	char			short_name;	/* 'o' for "-o", or 0 */
	enum arg_kind		kind;
	const char		*metavar;	/* "FILE"; NULL for a flag */
	uint64_t		min, max;	/* ARG_U64, ARG_TIME, ... */
	uint64_t		unit_ns;	/* ARG_TIME: a bare number's unit */
	uint64_t		grain_ns;	/* ARG_TIME: num[]'s unit */
	const char *const	*words;		/* ARG_ENUM, NULL-terminated */
	unsigned int		flags;
	/*
	 * ARG_REPEAT: called with each value in the order given (after it
	 * is checked as .kind says); returns 0 or EXIT_USAGE after
	 * args_error().
	 */
	int			(*each)(struct args *a, const char *value);
	const char		*help;		/* one line: what it means */
};

/*
 * Table entries, each with its help text, then any more fields:
 * ARG_N("--switches", 0, "N", 1, UINT32_MAX, "switches", .flags = ARG_REQUIRED)
 */
#define ARG_F(l, s, h, ...) \
	{ .name = (l), .short_name = (s), .kind = ARG_FLAG, .help = (h), __VA_ARGS__ }
#define ARG_S(l, s, mv, h, ...) \
	{ .name = (l), .short_name = (s), .kind = ARG_STR, .metavar = (mv), \
	  .help = (h), __VA_ARGS__ }
#define ARG_P(l, s, mv, h, ...) \
	{ .name = (l), .short_name = (s), .kind = ARG_FILE, .metavar = (mv), \
	  .help = (h), __VA_ARGS__ }
#define ARG_N(l, s, mv, lo, hi, h, ...) \
	{ .name = (l), .short_name = (s), .kind = ARG_U64, .metavar = (mv), \
	  .min = (lo), .max = (hi), .help = (h), __VA_ARGS__ }
/* a time whose bare number is milliseconds (ARG_MS) or seconds (ARG_SEC) */
#define ARG_MS(l, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_TIME, .metavar = "TIME", .min = (lo), \
	  .max = (hi), .unit_ns = 1000000, .grain_ns = 1000000, .help = (h), __VA_ARGS__ }
#define ARG_SEC(l, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_TIME, .metavar = "TIME", .min = (lo), \
	  .max = (hi), .unit_ns = 1000000000, .grain_ns = 1000000000, \
	  .help = (h), __VA_ARGS__ }
/* seconds with a fraction: a bare number is seconds, num[] milliseconds */
#define ARG_SEC_MS(l, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_TIME, .metavar = "TIME", .min = (lo), \
	  .max = (hi), .unit_ns = 1000000000, .grain_ns = 1000000, \
	  .help = (h), __VA_ARGS__ }
/* tc's TIME (a bare number is microseconds, as tc's), in ns */
#define ARG_NS(l, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_TIME, .metavar = "TIME", .min = (lo), \
	  .max = (hi), .unit_ns = 1000, .grain_ns = 1, .help = (h), __VA_ARGS__ }
/* a round trip: the same from 1 ns */
#define ARG_RTT(l, hi, h, ...) \
	{ .name = (l), .kind = ARG_TIME, .metavar = "TIME", .min = 1, \
	  .max = (hi), .unit_ns = 1000, .grain_ns = 1, .help = (h), __VA_ARGS__ }
#define ARG_R(l, mv, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_RATE, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), __VA_ARGS__ }
#define ARG_Z(l, mv, lo, hi, h, ...) \
	{ .name = (l), .kind = ARG_SIZE, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), __VA_ARGS__ }
#define ARG_E(l, s, w, h, ...) \
	{ .name = (l), .short_name = (s), .kind = ARG_ENUM, .words = (w), \
	  .help = (h), __VA_ARGS__ }

/* Options many commands have, in the same words. */
#define ARG_JSON	ARG_F("--json", 'j', "print JSON instead of text")
#define ARG_VERBOSE	ARG_F("--verbose", 'v', "say what is being done, on stderr")
#define ARG_OUTPUT	ARG_P("--output", 'o', "FILE", \
			      "write to FILE (whole or not at all) instead of stdout")

struct args_spec {
	const struct arg_opt	*opts;
	size_t			n_opts;
	/*
	 * The indices of @opts this command takes, ended by -1; NULL: all.
	 * Commands of a group share one table and each picks its options.
	 */
	const int		*pick;
	int			min_operands, max_operands;	/* -1: any */
	const char		*operands;	/* help: what they are */
	const char		*more;		/* help: a paragraph after */
	/* stop at the first operand, as before a command: "+" in getopt */
	bool			in_order;
	/* prints the help instead of args_help() (sluicectl's own) */
	void			(*help)(FILE *f);
};

/* A pick list: ARGS_PICK(OPT_TOPO, OPT_OUT) */
#define ARGS_PICK(...)	((const int []){ __VA_ARGS__, -1 })

#define ARGS_SPEC(o, lo, hi, what) \
	{ .opts = (o), .n_opts = ARRAY_SIZE(o), .min_operands = (lo), \
	  .max_operands = (hi), .operands = (what) }

/* What args_parse() found; the caller provides val[] and num[]. */
struct args {
	const struct command	*cmd;
	const struct args_spec	*spec;
	/* each option's value ("" for a flag), NULL if not given */
	const char		**val;
	/* ARG_U64/TIME/RATE/SIZE's number, ARG_ENUM's index, a flag's count */
	uint64_t		*num;
	char			**operands;	/* the rest, in order */
	int			n_operands;
	int			exit;		/* when args_parse() is true */
	void			*ctx;		/* for .each */
};

/* struct args @a with room for @n options: ARGS_DECLARE(a, N_OPTS); */
#define ARGS_DECLARE(a, n) \
	const char *a##_val[n]; \
	uint64_t a##_num[n]; \
	struct args a = { .val = a##_val, .num = a##_num }

/*
 * args_parse() - read argv[1..] as @spec says
 *
 * Return: false to go on; true when the command is done and returns
 * a->exit: 0 after --help, EXIT_USAGE after a message.
 */
bool args_parse(const struct command *cmd, const struct args_spec *spec,
		int argc, char **argv, struct args *a);

/* "sluicectl GROUP CMD: MESSAGE" and the usage to stderr; EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int args_error(const struct args *a, const char *fmt, ...);

/* The generated help of @cmd (usage, what it does, its options). */
void args_help(FILE *f, const struct command *cmd,
	       const struct args_spec *spec);

/* A TIME (tc's syntax; a bare number in @unit_ns) in @grain_ns units. */
int args_time(const char *s, uint64_t unit_ns, uint64_t grain_ns, uint64_t *v);
/* A whole decimal number from @min to @max: digits only, no sign. */
bool args_number(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/* Given before the command ("sluicectl -j version"), main.c. */
extern bool args_global_json, args_global_verbose;

#endif /* _SLUICECTL_ARGS_H */
