// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options of the commands that take many ("route", "tag", "analyze"): each
 * command has an enum of its options and a table of struct opt indexed by
 * it; opts_parse() fills what was given, and the command checks what the
 * values mean.  One loop, so that every command treats a repeated option,
 * a missing value, an option another command takes and --help the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

/**
 * opts_parse() - sort argv into options and file arguments
 * @argc:	arguments, argv[0] the command's name
 * @argv:	the arguments
 * @opts:	the command's options, @n of them
 * @n:		how many
 * @allowed:	OPT_BIT() of each option this command takes
 * @val:	@n entries, set to each option's value ("" for a flag),
 *		NULL for those not given
 * @files:	room for @max_files arguments that are not options ("-" is
 *		one), NULL if the command takes none
 * @max_files:	that room
 * @n_files:	set to how many there were
 * @msg:	the problem, on -EINVAL
 * @msglen:	room in @msg
 *
 * Return: 0; 1 if --help (or -h, help) was among the arguments; -EINVAL
 * with @msg ("unknown option \"-x\"", "--topo given twice", "--topo needs
 * a value", "unexpected argument \"x\"", "too many files").
 */
int opts_parse(int argc, char **argv, const struct opt *opts, size_t n,
	       uint64_t allowed, const char **val, const char **files,
	       int max_files, int *n_files, char *msg, size_t msglen)
{
	size_t k;
	int i;

	memset(val, 0, n * sizeof(*val));
	*n_files = 0;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (is_help(arg))
			return 1;
		if (arg[0] != '-' || !arg[1]) {
			if (!files) {
				snprintf(msg, msglen,
					 "unexpected argument \"%s\"", arg);
				return -EINVAL;
			}
			if (*n_files == max_files) {
				snprintf(msg, msglen, "too many files");
				return -EINVAL;
			}
			files[(*n_files)++] = arg;
			continue;
		}
		for (k = 0; k < n; k++)
			if (!strcmp(arg, opts[k].name) ||
			    (opts[k].alt && !strcmp(arg, opts[k].alt)))
				break;
		if (k == n || !(allowed & OPT_BIT(k))) {
			snprintf(msg, msglen, "unknown option \"%s\"", arg);
			return -EINVAL;
		}
		if (val[k]) {
			snprintf(msg, msglen, "%s given twice", arg);
			return -EINVAL;
		}
		val[k] = "";
		if (opts[k].value) {
			if (++i == argc) {
				snprintf(msg, msglen, "%s needs a value", arg);
				return -EINVAL;
			}
			val[k] = argv[i];
		}
	}
	return 0;
}

/* A whole decimal number from @min to @max: digits only, no sign. */
bool opts_number(const char *s, uint64_t min, uint64_t max, uint64_t *v)
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
