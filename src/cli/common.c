/* common.c - what every subcommand needs: configuration, data folder. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include <nettle/version.h>
#include <utf8proc.h>
#include <zip.h>

#include "cli/cli.h"
#include "config/allowed_paths.h"
#include "config/layers.h"
#include "judge/judge_version.h"
#include "tui/tui_version.h"
#include "runs/expect.h"
#include "runs/runs_conf.h"
#include "util/jsonpath.h"
#include "runs/format.h"
#include "util/jdoc.h"
#include "judge/judge.h"
#include "judge/trust.h"
#include "review/keymap.h"
#include "tui/theme.h"
#include "util/error.h"

static const char *find_datadir(char *dir, size_t n);

void cli_context_init(struct cli_context *x)
{
	memset(x, 0, sizeof *x);
	x->datadir = find_datadir(x->datadir_found, sizeof x->datadir_found);
}

void cli_context_free(struct cli_context *x)
{
	for (size_t i = 0; i < x->nallowed; i++)
		free(x->allowed[i]);
	judge_trust_free(&x->trust);
	cli_declared_reset(x);
	memset(x, 0, sizeof *x);
}

struct dataset_opts cli_dataset_opts(const struct cli_context *x)
{
	return (struct dataset_opts){ .declared = &x->use, .walk_quiet = x->walk_quiet };
}

int cli_dataset_open(const struct cli_context *x, struct dataset *ds, char *const *paths,
                     size_t npaths, struct error *err)
{
	const struct dataset_opts in = cli_dataset_opts(x);
	return dataset_open_with(ds, &in, paths, npaths, err);
}

int cli_allow_path(struct cli_context *x, const char *prog, const char *path)
{
	if (x->nallowed == CLI_ALLOW_MAX) {
		fprintf(stderr, "%s: --allow-path: at most %d paths\n", prog, CLI_ALLOW_MAX);
		return -1;
	}
	char *real = realpath(path, NULL);
	if (!real) {
		fprintf(stderr, "%s: --allow-path %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	x->allowed[x->nallowed++] = real;
	return 0;
}

static const char *prog_name = "tcreview";

void cli_set_prog(const char *argv0)
{
	if (argv0 && *argv0)
		prog_name = argv0;
}

bool cli_task_option_ok(const char *prog, const char *spec)
{
	if (!*spec)             /* --task "": no key from the command line */
		return true;
	char path[RUN_ID_PATH_MAX];
	size_t n = run_id_spec_count(spec);
	for (size_t i = 0; i < n; i++) {
		const char *why = "too long";
		if (!run_id_spec_part(spec, i, path, sizeof path) || !jsonpath_valid(path, &why)) {
			fprintf(stderr, "%s: --task '%s': path %zu: %s\n", prog, spec, i + 1, why);
			return false;
		}
	}
	if (!n)
		fprintf(stderr, "%s: --task names no path\n", prog);
	return n > 0;
}

size_t cli_tty_columns(int fd)
{
	struct winsize ws;
	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

const char *cli_task_spec(const char *task_opt, const struct config *c)
{
	if (task_opt && *task_opt)
		return task_opt;
	return c && c->compare_task && *c->compare_task ? c->compare_task : NULL;
}

const char *cli_prog(void)
{
	return prog_name;
}

/* A bad --allow-host value is reported as the configuration is loaded
 * (each command parses its own flags). */
bool cli_trust_option(struct cli_context *x, int ch, const char *arg)
{
	if (ch == CLI_OPT_ALLOW_HOST && !judge_host_pattern_ok(arg) && !x->bad_allow_host)
		x->bad_allow_host = arg;
	else if (ch == CLI_OPT_ALLOW_HOST)
		judge_allow_host(&x->trust, arg);
	else if (ch == CLI_OPT_ALLOW_KEY_ENV)
		judge_allow_key_env(&x->trust, arg);
	else
		return false;
	return true;
}

/* The screen's sections are read at load too, so that a bad key name
 * stops every subcommand before any work (config.h says why). */
static const struct config_section_reader screen_readers[] = {
	{ "keys", keymap_conf_read },
	{ "theme", theme_conf_read },
	{ NULL, NULL },
};

struct config_opts cli_config_opts(struct cli_context *x, struct config_allow *allow)
{
	*allow = (struct config_allow){ (const char *const *)x->allowed, x->nallowed };
	/* The configuration reads the judges' built-in prompts from prompts/
	 * beside the demo data. */
	return (struct config_opts){
		.allow = allow, .readers = screen_readers, .trust = &x->trust, .datadir = x->datadir,
	};
}

int cli_load_config_err(struct cli_context *x, struct config *c, const char *path,
                        const char *first_input, struct error *err)
{
	memset(c, 0, sizeof *c);
	if (x->bad_allow_host) {
		error_set(err, ERR_FAILED, "tcreview: --allow-host takes a host name (e.g. llm.example.com, "
		         "*.example.com), without scheme, port or path: got '%s'", x->bad_allow_host);
		return -1;
	}
	/* The hosts the user allowed before, beside --allow-host. Loaded once:
	 * a reload keeps what the screen added since. */
	struct error why = {0};
	if (!x->user_trust_read && judge_allow_load_user(&x->trust, &why) < 0) {
		error_set(err, ERR_FAILED, "tcreview: %s", why.msg);
		return -1;
	}
	x->user_trust_read = true;
	struct config_allow allow;
	const struct config_opts opts = cli_config_opts(x, &allow);
	return config_load_layered(c, &opts, path, first_input, err);
}

int cli_load_config(struct cli_context *x, struct config *c, const char *path,
                    const char *first_input)
{
	struct error err = {0};
	if (cli_load_config_err(x, c, path, first_input, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

/* `git config --get user.name`, the name a person already gave their
 * tools; false when git is missing or has none. */
static bool git_user_name(char *buf, size_t n)
{
	extern char **environ;
	int fds[2];
	if (n < 2 || pipe(fds) < 0)
		return false;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	char *args[] = { "git", "config", "--get", "user.name", NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	size_t len = 0;
	if (rc == 0) {
		ssize_t r;
		while (len + 1 < n && (r = read(fds[0], buf + len, n - 1 - len)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break;
			len += (size_t)r;
		}
	}
	close(fds[0]);
	int status = 1;
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	return rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && len > 0;
}

const char *cli_reviewer(const struct config *c, const char *given, char *buf, size_t n)
{
	if (given && *given)
		return given;
	if (c && c->reviewer)
		return c->reviewer;
	if (git_user_name(buf, n))
		return buf;
	const char *u = getenv("USER");
	if (u && *u)
		return u;
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_name ? pw->pw_name : "reviewer";
}

int cli_print_config_files(const char *given, const char *first_input)
{
	struct config_files f;
	config_locate(given, first_input, &f);
	static const char *const how[] = {
		[CONFIG_BUILTIN] = "none found",
		[CONFIG_GIVEN] = "given with -c",
		[CONFIG_HERE] = "found in the current folder",
		[CONFIG_BESIDE] = "found beside the first input",
	};
	printf("The configuration files, in the order they are read (the later wins where\n"
	       "both say something):\n\n");
	printf("  1. the user's:    %s (%s)\n", f.user ? f.user : "(no HOME, none)",
	       f.user_exists ? "read" : "not there");
	printf("                    theme, keys, reviewer, judges, formats, wherever you review;\n"
	       "                    $XDG_CONFIG_HOME/tcreview/config.yaml, else\n"
	       "                    ~/.config/tcreview/config.yaml\n");
	if (f.project)
		printf("  2. the project's: %s (%s)\n", f.project, how[f.origin]);
	else
		printf("  2. the project's: none: the built-in checks tool-errors and unanswered-calls\n"
		       "                    score the runs (`tcreview init FILE` writes one)\n");
	printf("                    -c FILE, else tcreview.yaml in the current folder, else\n"
	       "                    tcreview.yaml beside the first input (in it, for a folder)\n");
	/* What the user allowed it to read outside its folder (tcreview init
	 * records a ground-truth file it was given). */
	char **outside = NULL;
	struct error err = {0};
	size_t n = 0;
	if (f.project && config_allowed_for(f.project, &outside, &n, &err) < 0)
		printf("                    %s\n", err.msg);
	for (size_t i = 0; i < n; i++) {
		printf("                    may read outside its folder (your allowed-paths): %s\n",
		       outside[i]);
		free(outside[i]);
	}
	free(outside);
	config_files_free(&f);
	return EXIT_DONE;
}

static bool has_demo(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof p, "%s/examples/scorers.yaml", dir);
	return stat(p, &st) == 0;
}

/* The folder of the bundled data: the environment's, else found and
 * written into dir (n_dir bytes). */
static const char *find_datadir(char *dir, size_t n_dir)
{
	const char *env = getenv("TCREVIEW_DATADIR");
	if (env && *env)
		return env;
	/* Run from a build tree: the data sits beside the binary. */
	ssize_t n = readlink("/proc/self/exe", dir, n_dir - 1);
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
	/* curses_version() already starts with the library's name */
	const char *curses = tui_curses_version();
	printf("%s%s\n", strncmp(curses, "ncurses", 7) ? "ncurses " : "", curses);
	printf("simdjson %s\n", jdoc_parser_version());
	printf("utf8proc %s\n", utf8proc_version());
	printf("libzip %s\n", zip_libzip_version());
	printf("nettle %d.%d\n", nettle_version_major(), nettle_version_minor());
}

int cli_setup(struct cli_context *x, const char *prog, const struct config *c,
              const char *format, const char *expect, const struct format_ops **forced,
              struct expectations **ex)
{
	*forced = NULL;
	*ex = NULL;
	const char *fmt = format ? format : c->format;
	bool declared;
	int rc = cli_declare_formats(x, prog, c, fmt, &declared);
	if (rc != EXIT_DONE)
		return rc;
	if (fmt && !declared && !(*forced = format_find(fmt))) {
		cli_unknown_format(&x->declared, prog, fmt);
		return EXIT_USAGE;
	}
	if (expect && !c->has_expect) {
		fprintf(stderr, "%s: --expect needs expectations.match in the configuration "
		        "to know how runs and expectations are joined\n", prog);
		return EXIT_USAGE;
	}
	struct error err = {0};
	if (cli_load_expect(c, expect, ex, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_INPUT;
	}
	return EXIT_DONE;
}

int cli_load_expect(const struct config *c, const char *expect, struct expectations **ex,
                    struct error *err)
{
	*ex = NULL;
	if (!c->has_expect)
		return 0;
	*ex = expect_load(&c->expect, expect ? expect : c->expect.file, err);
	return *ex ? 0 : -1;
}
