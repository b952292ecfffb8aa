// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsluice's input files (sluice/file.h): a directory is refused as such
 * by the helper and by a reader built on it, "-" is standard input, a file
 * is read whole, NUL-terminated, up to its size limit and no further.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/file.h>
#include <sluice/graph.h>
#include <sluice/interop.h>
#include "cli.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

static void test_directory(void)
{
	char want[PATH_MAX + 64], *buf = (char *)1;
	struct sluice_graph g;
	size_t len = 1;
	FILE *f = (FILE *)1;

	snprintf(want, sizeof(want), "%s: is a directory, not a file",
		 cli_path(""));
	KTAP_EXPECT_INT(sluice_file_open(cli_path(""), &f, err, sizeof(err)),
			-EISDIR);
	KTAP_EXPECT(!f);
	KTAP_EXPECT_STR(err, want);
	KTAP_EXPECT_INT(sluice_file_read(cli_path(""), 100, &buf, &len, err,
					 sizeof(err)), -EISDIR);
	KTAP_EXPECT(!buf && !len);
	KTAP_EXPECT_STR(err, want);
	/* the readers say the same */
	KTAP_EXPECT_INT(sluice_graph_read_file(&g, cli_path(""), err,
					       sizeof(err)), -EISDIR);
	KTAP_EXPECT_STR(err, want);
	KTAP_EXPECT_INT(sluice_topo_import_file(&g, SLUICE_TOPO_EDGES,
						cli_path(""), NULL, err,
						sizeof(err)), -EISDIR);
	KTAP_EXPECT_STR(err, want);
	snprintf(want, sizeof(want), "%s: No such file or directory",
		 cli_path("missing"));
	KTAP_EXPECT_INT(sluice_file_open(cli_path("missing"), &f, err,
					 sizeof(err)), -ENOENT);
	KTAP_EXPECT_STR(err, want);
	ktap_result("a directory is refused as one, a missing file by its errno");
}

static void test_read(void)
{
	const char *path = cli_path("f");
	char want[PATH_MAX + 64], *buf;
	FILE *f = fopen(path, "w"), *in;
	size_t len;

	if (f) {
		fwrite("ab\0cd", 1, 5, f);
		fclose(f);
	}
	KTAP_EXPECT_INT(sluice_file_read(path, 5, &buf, &len, err,
					 sizeof(err)), 0);
	KTAP_EXPECT(len == 5 && !memcmp(buf, "ab\0cd", 6));
	free(buf);
	snprintf(want, sizeof(want), "%s: larger than 4 bytes", path);
	KTAP_EXPECT_INT(sluice_file_read(path, 4, &buf, &len, err,
					 sizeof(err)), -E2BIG);
	KTAP_EXPECT(!buf);
	KTAP_EXPECT_STR(err, want);
	KTAP_EXPECT_INT(sluice_file_open("-", &in, err, sizeof(err)), 0);
	KTAP_EXPECT(in == stdin);
	sluice_file_close(in);
	/* closing stdin's stream is not the helper's to do */
	KTAP_EXPECT(!ferror(stdin) && fileno(stdin) == 0);
	unlink(path);
	ktap_result("read whole and NUL-terminated, up to the limit; \"-\" is stdin");
}

int main(void)
{
	cli_mkdtemp("test_file");
	ktap_plan(2);
	test_directory();
	test_read();
	cli_rmdir();
	return ktap_exit();
}
