// SPDX-License-Identifier: GPL-2.0
/*
 * The sluicectl binary as a user runs it: exit codes, where messages go,
 * and the JSON it prints.  The binary is $SLUICECTL, or the one built next
 * to this test.
 */
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../sluicectl/version.h"
#include "ktap.h"

static char sluicectl[PATH_MAX + 32];

struct run {
	int	status;		/* exit code, or -1 if it did not exit */
	char	out[8192];
	char	err[8192];
};

static void find_sluicectl(void)
{
	const char *env = getenv("SLUICECTL");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env) {
		snprintf(sluicectl, sizeof(sluicectl), "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(sluicectl, sizeof(sluicectl), "%s/../sluicectl/sluicectl", self);
}

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * Runs sluicectl with @args (NULL-terminated).  Output goes to files, not
 * pipes, so that neither stream can block the other.  With @out_path, stdout
 * goes there instead.
 */
static void run(struct run *r, const char *out_path, const char *const *args)
{
	char *argv[16] = { sluicectl };
	FILE *out = tmpfile(), *err = tmpfile();
	int i, status, out_fd;
	pid_t pid;

	if (!out || !err) {
		perror("tmpfile");
		exit(1);
	}

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		out_fd = out_path ? open(out_path, O_WRONLY) : fileno(out);
		dup2(out_fd, STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		execv(sluicectl, argv);
		_exit(127);
	}
	r->status = -1;
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
}

#define RUN(r, ...) run((r), NULL, (const char *const []){ __VA_ARGS__, NULL })

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void test_help(void)
{
	static const char *const forms[] = { "--help", "-h", "help" };
	char first[sizeof(((struct run *)0)->out)] = "";
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		RUN(&r, forms[i]);
		KTAP_EXPECT_INT(r.status, 0);
		KTAP_EXPECT_STR(r.err, "");
		KTAP_EXPECT(starts_with(r.out, "Usage: sluicectl COMMAND"));
		KTAP_EXPECT(strstr(r.out, "\n  help "));
		KTAP_EXPECT(strstr(r.out, "\n  version "));
		if (i == 0)
			snprintf(first, sizeof(first), "%s", r.out);
		else
			KTAP_EXPECT_STR(r.out, first);
	}
	ktap_result("--help, -h and help list the commands");
}

static void test_help_command(void)
{
	struct run r;

	RUN(&r, "help", "version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "Usage: sluicectl version [-j | --json]\n\n"
			"Print the version of sluicectl.\n");
	RUN(&r, "help", "frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: unknown command \"frobnicate\"\n"));
	ktap_result("help COMMAND");
}

static void test_unknown_command(void)
{
	struct run r;

	RUN(&r, "frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT_STR(r.err, "sluicectl: unknown command \"frobnicate\"\n"
			"Run \"sluicectl --help\" for the list of commands.\n");
	RUN(&r, "--frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: unknown option \"--frobnicate\"\n"));
	ktap_result("unknown command or option exits 2");
}

static void test_no_command(void)
{
	struct run r;

	run(&r, NULL, (const char *const []){ NULL });
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT(starts_with(r.err, "Usage: sluicectl COMMAND"));
	ktap_result("no command exits 2 with the usage");
}

static void test_version(void)
{
	struct run r;

	RUN(&r, "version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "sluicectl " SLUICE_VERSION "\n");
	RUN(&r, "--version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "sluicectl " SLUICE_VERSION "\n");
	RUN(&r, "version", "extra");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: unexpected argument \"extra\"\n"
			"Usage: sluicectl version [-j | --json]\n");
	ktap_result("version");
}

static void expect_version_json(const char *text)
{
	json_object *obj, *ver;

	obj = json_tokener_parse(text);
	if (!KTAP_EXPECT(obj && json_object_is_type(obj, json_type_object))) {
		ktap_diag("not a JSON object: %s", text);
		json_object_put(obj);
		return;
	}
	KTAP_EXPECT_INT(json_object_object_length(obj), 1);
	if (KTAP_EXPECT(json_object_object_get_ex(obj, "version", &ver)) &&
	    KTAP_EXPECT(json_object_is_type(ver, json_type_string)))
		KTAP_EXPECT_STR(json_object_get_string(ver), SLUICE_VERSION);
	json_object_put(obj);
}

static void test_version_json(void)
{
	struct run r;

	RUN(&r, "version", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out, "{\"version\":\"" SLUICE_VERSION "\"}\n");
	expect_version_json(r.out);
	RUN(&r, "version", "--json");
	KTAP_EXPECT_INT(r.status, 0);
	expect_version_json(r.out);
	RUN(&r, "--version", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	expect_version_json(r.out);
	ktap_result("version -j is JSON");
}

/* Output that cannot be written is a runtime error, not a silent success. */
static void test_write_error(void)
{
	struct run r;

	if (access("/dev/full", W_OK)) {
		ktap_result("write error exits 1 # SKIP no /dev/full");
		return;
	}
	run(&r, "/dev/full", (const char *const []){ "--help", NULL });
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: cannot write output: "));
	ktap_result("write error exits 1");
}

static void (*const tests[])(void) = {
	test_help,
	test_help_command,
	test_unknown_command,
	test_no_command,
	test_version,
	test_version_json,
	test_write_error,
};

int main(void)
{
	size_t i;

	find_sluicectl();
	ktap_plan(ARRAY_SIZE(tests));
	if (access(sluicectl, X_OK))
		ktap_diag("cannot run %s", sluicectl);
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
