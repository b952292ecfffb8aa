/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Splits a command line on spaces into an argv, as a shell would for the
 * simple words the tests use.
 */
#ifndef _SLUICE_TEST_WORDS_H
#define _SLUICE_TEST_WORDS_H

#define WORDS_MAX	256

struct words {
	int	argc;
	char	*argv[WORDS_MAX + 1];
	char	buf[4096];
};

void words_split(struct words *w, const char *line);

#endif /* _SLUICE_TEST_WORDS_H */
