/* common.c - what every subcommand needs: configuration, data folder. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "cli/cli.h"
#include "judge/judge_version.h"
#include "tui/tui_version.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "judge/judge.h"
#include "judge/trust.h"
#include "review/keymap.h"
#include "tui/theme.h"

/* What --allow-path named, resolved, for the one configuration a process
 * loads. Kept for the process's life. */
#define ALLOW_MAX 64
static char *allowed[ALLOW_MAX];
static size_t nallowed;

int cli_allow_path(const char *prog, const char *path)
{
	if (nallowed == ALLOW_MAX) {
		fprintf(stderr, "%s: --allow-path: at most %d paths\n", prog, ALLOW_MAX);
		return -1;
	}
	char *real = realpath(path, NULL);
	if (!real) {
		fprintf(stderr, "%s: --allow-path %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	allowed[nallowed++] = real;
	return 0;
}

/* The first --allow-host value that is no host name, reported as the
 * configuration is loaded (each command parses its own flags). */
static const char *bad_allow_host;

bool cli_trust_option(int ch, const char *arg)
{
	if (ch == CLI_OPT_ALLOW_HOST && !judge_host_pattern_ok(arg) && !bad_allow_host)
		bad_allow_host = arg;
	else if (ch == CLI_OPT_ALLOW_HOST)
		judge_allow_host(arg);
	else if (ch == CLI_OPT_ALLOW_KEY_ENV)
		judge_allow_key_env(arg);
	else
		return false;
	return true;
}

int cli_load_config(struct config *c, const char *path)
{
	const struct config_allow allow = { (const char *const *)allowed, nallowed };
	char err[1024];
	struct stat st;
	if (bad_allow_host) {
		fprintf(stderr, "tcreview: --allow-host takes a host name (e.g. llm.example.com, "
		        "*.example.com), without scheme, port or path: got '%s'\n", bad_allow_host);
		return -1;
	}
	/* The hosts the user allowed before, beside --allow-host. */
	if (judge_allow_load_user(err, sizeof err) < 0) {
		fprintf(stderr, "tcreview: %s\n", err);
		return -1;
	}
	/* The configuration reads the judges' built-in prompts from prompts/
	 * beside the demo data. */
	const char *data = cli_datadir();
	if (data)
		judge_set_datadir(data);
	/* The screen's sections are read at load too, so that a bad key name
	 * stops every subcommand before any work (config.h says why). */
	config_set_reader("keys", keymap_conf_read);
	config_set_reader("theme", theme_conf_read);
	if (!path && stat("tcreview.yaml", &st) == 0)
		path = "tcreview.yaml";
	if (!path)
		return config_load_string(c, "(built-in)", ".", "", 0, err, sizeof err);
	if (config_load_allowing(c, path, &allow, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static bool has_demo(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof p, "%s/examples/scorers.yaml", dir);
	return stat(p, &st) == 0;
}

const char *cli_datadir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("TCREVIEW_DATADIR");
	if (env && *env)
		return env;
	/* Run from a build tree: the data sits beside the binary. */
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n > 0) {
		dir[n] = '\0';
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			if (has_demo(dir))
				return dir;
		}
	}
	if (has_demo(PKGDATADIR))
		return PKGDATADIR;
	return NULL;
}

void cli_print_version(void)
{
	printf("tcreview %s\n", PACKAGE_VERSION);
	printf("jansson %s\n", jansson_version_str());
	printf("libyaml %s\n", yaml_get_version_string());
	printf("libcurl %s\n", judge_curl_version());
	printf("ncurses %s\n", tui_curses_version());
}

int cli_setup(const char *prog, const struct config *c, const char *format, const char *expect,
              const struct format_ops **forced, struct expectations **ex)
{
	*forced = NULL;
	*ex = NULL;
	const char *fmt = format ? format : c->format;
	if (fmt && !(*forced = format_find(fmt))) {
		fprintf(stderr, "%s: unknown format '%s'\n", prog, fmt);
		fprintf(stderr, "transcript formats:");
		for (size_t i = 0; format_table[i]; i++)
			fprintf(stderr, " %s", format_table[i]->name);
		fputc('\n', stderr);
		return EXIT_USAGE;
	}
	if (expect && !c->has_expect) {
		fprintf(stderr, "%s: --expect needs expectations.match in the configuration "
		        "to know how runs and expectations are joined\n", prog);
		return EXIT_USAGE;
	}
	if (c->has_expect) {
		char err[1024];
		*ex = expect_load(&c->expect, expect ? expect : c->expect.file, err, sizeof err);
		if (!*ex) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return EXIT_INPUT;
		}
	}
	return EXIT_DONE;
}
