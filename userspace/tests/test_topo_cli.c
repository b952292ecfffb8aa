// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl topo" as a user runs it: files written whole or not at all,
 * exit codes (2 usage, 1 runtime), exact messages, show -j, dot.  The
 * binary is $SLUICECTL, or the one built next to this test.
 */
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "ktap.h"

static void test_gen_show(void)
{
	json_object *o = NULL, *v;
	struct run r;

	RUN(&r, "topo", "gen", "fc", "--switches", "100", "--inter-ports", "18",
	    "--host-ports", "14", "-o", cli_path("fc.json"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT_STR(r.err, "");
	RUN(&r, "topo", "show", "-j", cli_path("fc.json"));
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	if (KTAP_EXPECT(o)) {
		KTAP_EXPECT(json_object_object_get_ex(o, "layers", &v) &&
			    !strcmp(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
				    "[3,6,6,3]"));
		KTAP_EXPECT(json_object_object_get_ex(o, "links", &v) &&
			    json_object_get_int(v) == 900);
		KTAP_EXPECT(json_object_object_get_ex(o, "host_ports", &v) &&
			    json_object_get_int(v) == 1400);
		KTAP_EXPECT(json_object_object_get_ex(o, "connected", &v) &&
			    json_object_get_boolean(v));
	}
	json_object_put(o);
	RUN(&r, "topo", "show", cli_path("fc.json"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "\nlayers 4 ports 3,6,6,3\n"));
	KTAP_EXPECT(strstr(r.out, "\nlinks 900 parallel 0\n"));
	KTAP_EXPECT(strstr(r.out, "\ndegree min 18 max 18 avg 18.00\n"));
	ktap_result("gen fc -o FILE, then show and show -j");
}

static void test_determinism(void)
{
	const char *const a = cli_path("a.json"), *b = cli_path("b.json");
	char *x, *y;
	struct run r;

	RUN(&r, "topo", "gen", "jellyfish", "--switches", "30", "--inter-ports",
	    "5", "--seed", "9", "-o", a);
	RUN(&r, "topo", "gen", "jellyfish", "--switches", "30", "--inter-ports",
	    "5", "--seed", "9", "-o", b);
	x = cli_read_all(a);
	y = cli_read_all(b);
	KTAP_EXPECT(x && y && !strcmp(x, y));
	free(y);
	RUN(&r, "topo", "gen", "jellyfish", "--switches", "30", "--inter-ports",
	    "5", "--seed", "10", "-o", b);
	y = cli_read_all(b);
	KTAP_EXPECT(x && y && strcmp(x, y));
	free(x);
	free(y);
	unlink(a);
	unlink(b);
	ktap_result("the same seed writes the same bytes");
}

static const struct {
	const char *args[12];
	int status;
	const char *err;
} bad_args[] = {
	{ { "topo", "gen", "fc", "--switches", "50", "--inter-ports", "17" }, 2,
	  "sluicectl: fc: inter-ports must be even and at least 2, not 17: each link between two layers takes a port in both\n" },
	{ { "topo", "gen", "fc", "--switches", "50" }, 2,
	  "sluicectl: fc: give --inter-ports or --layer-ports\n" },
	{ { "topo", "gen", "fc", "--inter-ports", "18" }, 2,
	  "sluicectl: --switches is required\n" },
	{ { "topo", "gen", "fc", "--switches", "x5", "--inter-ports", "18" }, 2,
	  "sluicectl: \"x5\" is not a number\n" },
	{ { "topo", "gen", "fc", "--switches", "50", "--layer-ports", "3,6,,3" }, 2,
	  "sluicectl: \"3,6,,3\" is not a list of numbers like 3,6,6,3\n" },
	{ { "topo", "gen", "fc", "--switches", "50", "--layers", "3",
	    "--layer-ports", "3,6,6,3" }, 2,
	  "sluicectl: fc: --layers 3 but --layer-ports has 4 layers\n" },
	{ { "topo", "gen", "ring", "--switches", "5", "--seed", "1" }, 2,
	  "sluicectl: unknown option \"--seed\"\n" },
	{ { "topo", "gen", "ring", "--switches", "5", "--switches", "6" }, 2,
	  "sluicectl: --switches given twice\n" },
	/* The harness appends "-o FILE": values are taken as they are. */
	{ { "topo", "gen", "ring", "--switches" }, 2,
	  "sluicectl: \"-o\" is not a number\n" },
	{ { "topo", "gen", "fattree", "--k", "5" }, 2,
	  "sluicectl: fattree: k must be even and 2 to 256, not 5\n" },
	{ { "topo", "gen", "torus" }, 2,
	  "sluicectl: unknown topology family \"torus\"\n" },
	{ { "topo", "import", "--from", "xml", "t.xml" }, 2,
	  "sluicectl: --from: \"xml\" is not graphml, gml or edges\n" },
	{ { "topo", "import", "t.gml" }, 2,
	  "sluicectl: --from FORMAT is required\n" },
};

static void test_bad_args(void)
{
	const char *args[16];
	struct run r;
	size_t i, j;
	char *nl;

	for (i = 0; i < ARRAY_SIZE(bad_args); i++) {
		for (j = 0; bad_args[i].args[j]; j++)
			args[j] = bad_args[i].args[j];
		args[j++] = "-o";
		args[j++] = cli_path("out.json");
		args[j] = NULL;
		cli_run(&r, NULL, args);
		KTAP_EXPECT_INT(r.status, bad_args[i].status);
		KTAP_EXPECT_STR(r.out, "");
		/* The message, then the usage. */
		nl = strchr(r.err, '\n');
		if (nl)
			nl[1] = '\0';
		KTAP_EXPECT_STR(r.err, bad_args[i].err);
		KTAP_EXPECT_INT(cli_files_in_dir(), 0);
	}
	ktap_result("bad arguments: exit 2, the message, no file written");
}

static void test_bad_file(void)
{
	const char *p = cli_path("bad.json");
	char want[PATH_MAX + 64];
	FILE *f = fopen(p, "w");
	struct run r;

	fputs("{\"format\":\"sluice-topology\",\"version\":1,\n"
	      "\"nodes\":[{\"name\":\"a\"}],\"links\":[{\"a\":0}]}\n", f);
	fclose(f);
	RUN(&r, "topo", "show", p);
	KTAP_EXPECT_INT(r.status, 1);
	snprintf(want, sizeof(want), "sluicectl: %s: links[0].b: missing\n", p);
	KTAP_EXPECT_STR(r.err, want);
	RUN(&r, "topo", "dot", p, "-o", cli_path("bad.dot"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(access(cli_path("bad.dot"), F_OK));
	f = fopen(p, "w");
	fputs("{\"format\":\n", f);
	fclose(f);
	RUN(&r, "topo", "show", p);
	KTAP_EXPECT_INT(r.status, 1);
	snprintf(want, sizeof(want),
		 "sluicectl: %s: line 2 column 1: invalid JSON: unexpected end of input\n", p);
	KTAP_EXPECT_STR(r.err, want);
	unlink(p);
	RUN(&r, "topo", "show");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: no topology file given\n"
			"Usage: sluicectl topo show FILE [-j | --json]\n");
	ktap_result("bad topology files: exit 1, file and field named");
}

static void test_dot(void)
{
	struct run r;

	RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", cli_path("ring.json"));
	RUN(&r, "topo", "dot", cli_path("ring.json"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "graph \"ring\" {\n\tnode [shape=box];\n"
			"\t\"s0\";\n\t\"s1\";\n\t\"s2\";\n"
			"\t\"s0\" -- \"s1\" [id=\"l0\"];\n"
			"\t\"s1\" -- \"s2\" [id=\"l1\"];\n"
			"\t\"s2\" -- \"s0\" [id=\"l2\"];\n}\n");
	unlink(cli_path("ring.json"));
	ktap_result("dot draws every node and link");
}

static void test_help(void)
{
	struct run r;

	RUN(&r, "topo", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "Usage: sluicectl topo COMMAND", 29));
	RUN(&r, "topo", "gen", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "\n  bcube "));
	RUN(&r, "topo", "gen", "fc", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "--layer-ports"));
	RUN(&r, "topo");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "topo", "gen", "ring", "--switches");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(!strncmp(r.err, "sluicectl: --switches needs a value\n", 36));
	RUN(&r, "help", "topo");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "Usage: sluicectl topo { gen", 27));
	ktap_result("--help at every level");
}

/*
 * -o FILE and what FILE is: a symbolic link stays one (its target is
 * replaced), a FIFO and a device are written in place and stay what they
 * are, a directory and a link to a missing file are refused.  Before, the
 * temporary file was renamed over whatever FILE was: -o /dev/null as root
 * left /dev/null a regular file.
 */
static void test_out_nodes(void)
{
	/* cli_path() has four buffers in turn: copies. */
	char target[PATH_MAX], link[PATH_MAX], fifo[PATH_MAX], null[PATH_MAX];
	char full[PATH_MAX], dangling[PATH_MAX], buf[4096], *text;
	struct stat st;
	struct run r;
	ssize_t n;
	int fd;

	snprintf(target, sizeof(target), "%s", cli_path("target.json"));
	snprintf(link, sizeof(link), "%s", cli_path("link.json"));
	snprintf(fifo, sizeof(fifo), "%s", cli_path("fifo"));
	snprintf(null, sizeof(null), "%s", cli_path("null"));
	snprintf(full, sizeof(full), "%s", cli_path("full"));
	snprintf(dangling, sizeof(dangling), "%s", cli_path("dangling.json"));
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	KTAP_EXPECT(fd >= 0 && write(fd, "old\n", 4) == 4);
	if (fd >= 0)
		close(fd);
	KTAP_EXPECT(!symlink("target.json", link));
	RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", link);
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!lstat(link, &st) && S_ISLNK(st.st_mode));
	text = cli_read_all(target);
	KTAP_EXPECT(text && strstr(text, "\"links\""));
	free(text);

	KTAP_EXPECT(!mkfifo(fifo, 0600));
	/* A reader first, so that the writer's open does not block. */
	fd = open(fifo, O_RDONLY | O_NONBLOCK);
	KTAP_EXPECT(fd >= 0);
	RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", fifo);
	KTAP_EXPECT_INT(r.status, 0);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	KTAP_EXPECT(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	KTAP_EXPECT(strstr(buf, "\"links\""));
	if (fd >= 0)
		close(fd);
	KTAP_EXPECT(!lstat(fifo, &st) && S_ISFIFO(st.st_mode));

	/* Devices of our own (root only): null and full, as in /dev. */
	if (!mknod(null, S_IFCHR | 0666, makedev(1, 3)) &&
	    !mknod(full, S_IFCHR | 0666, makedev(1, 7))) {
		RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", null);
		KTAP_EXPECT_INT(r.status, 0);
		KTAP_EXPECT(!lstat(null, &st) && S_ISCHR(st.st_mode));
		RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", full);
		KTAP_EXPECT_INT(r.status, 1);
		KTAP_EXPECT(strstr(r.err, "No space left on device"));
		KTAP_EXPECT(!lstat(full, &st) && S_ISCHR(st.st_mode));
	} else {
		ktap_diag("not root: the device cases were not run");
	}

	RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", cli_path(""));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, ": is a directory: give a file name\n"));
	KTAP_EXPECT(!symlink("missing.json", dangling));
	RUN(&r, "topo", "gen", "ring", "--switches", "3", "-o", dangling);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, ": a symbolic link to a missing file: give the file itself\n"));
	KTAP_EXPECT(!lstat(dangling, &st) && S_ISLNK(st.st_mode));
	ktap_result("-o onto a link, a FIFO, a device, a directory");
}

/*
 * import and export as a user runs them: a GML file in the Topology Zoo's
 * style (its labels have spaces: named by id, and told so), an edge list
 * out, and a bad file: exit 1, its line, nothing written.
 */
static void test_import_export(void)
{
	char gml[PATH_MAX], json[PATH_MAX], want[PATH_MAX + 128];
	struct run r;
	FILE *f;

	snprintf(gml, sizeof(gml), "%s", cli_path("zoo.gml"));
	snprintf(json, sizeof(json), "%s", cli_path("zoo.json"));
	f = fopen(gml, "w");
	if (f) {
		fputs("graph [\n  Network \"Tiny\"\n"
		      "  node [ id 0 label \"New Town\" Latitude 52.1 ]\n"
		      "  node [ id 1 label \"Old Town\" ]\n"
		      "  node [ id 2 label \"Port\" ]\n"
		      "  edge [ source 0 target 1 LinkSpeedRaw 1E10 ]\n"
		      "  edge [ source 1 target 2 ]\n]\n", f);
		fclose(f);
	}
	RUN(&r, "topo", "import", "--from", "gml", gml, "-o", json);
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "");
	snprintf(want, sizeof(want),
		 "sluicectl: %s: the labels are not all sluice names (letters, digits, -_.:/), or repeat: the nodes are named by their ids\n",
		 gml);
	KTAP_EXPECT_STR(r.err, want);
	RUN(&r, "topo", "export", "--to", "edges", json);
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "# 3 nodes, then 2 links (host ports, kinds, tiers and layers are not in an edge list)\n"
			"0\n1\n2\n0 1\n1 2\n");
	unlink(json);
	f = fopen(gml, "w");
	if (f) {
		fputs("graph [\n  node [ id 0 ]\n  edge [ source 0 target 0 ]\n]\n", f);
		fclose(f);
	}
	RUN(&r, "topo", "import", "--from", "gml", gml, "-o", json);
	KTAP_EXPECT_INT(r.status, 1);
	snprintf(want, sizeof(want),
		 "sluicectl: %s: line 3: edge from \"0\" to itself: a link joins two nodes\n",
		 gml);
	KTAP_EXPECT_STR(r.err, want);
	KTAP_EXPECT(access(json, F_OK));
	unlink(gml);
	ktap_result("import a Zoo-style GML, export an edge list; a bad file: exit 1, its line, nothing written");
}

static void (*const tests[])(void) = {
	test_gen_show,
	test_determinism,
	test_bad_args,
	test_bad_file,
	test_dot,
	test_help,
	test_out_nodes,
	test_import_export,
};

int main(void)
{
	size_t i;

	cli_init();
	ktap_plan(ARRAY_SIZE(tests));
	cli_mkdtemp("test_topo_cli");
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		tests[i]();
		unlink(cli_path("fc.json"));
	}
	cli_rmdir();
	return ktap_exit();
}
