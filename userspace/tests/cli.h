/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running the sluicectl binary from a unit test, as a user runs it.  The
 * binary is $SLUICECTL, or the one built next to the tests; another
 * binary of the project (sluice-flowgen) with cli_init_binary().
 */
#ifndef _SLUICE_TESTS_CLI_H
#define _SLUICE_TESTS_CLI_H

#include <limits.h>

struct run {
	int	status;		/* exit code, or -1 if it did not exit */
	char	out[16384];
	char	err[8192];
};

/* The path of the binary under test, set by cli_init(). */
extern char sluicectl[PATH_MAX + 32];

void cli_init(void);
void cli_init_binary(const char *env, const char *rel);
void cli_run(struct run *r, const char *out_path, const char *const *args);
/*
 * Runs "sluicectl @group ARGS..." (@args NULL-terminated, at most 10) and
 * expects a usage error (exit 2) whose message holds @msg.
 */
void cli_expect_usage(const char *group, const char *const *args,
		      const char *msg);

/* A scratch directory for the test's files, and paths in it. */
void cli_mkdtemp(const char *test);
const char *cli_path(const char *name);
void cli_rmdir(void);
int cli_files_in_dir(void);
/* The whole file, malloc()ed, or NULL. */
char *cli_read_all(const char *path);

/* RUN(&r, "topo", "show", file): runs sluicectl with those arguments. */
#define RUN(r, ...) cli_run((r), NULL, (const char *const []){ __VA_ARGS__, NULL })

#endif /* _SLUICE_TESTS_CLI_H */
