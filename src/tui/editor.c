/* editor.c - a text edited in the user's editor ($VISUAL, else $EDITOR, else vi, as git chooses), the screen suspended meanwhile.
 *
 * The editor runs through the shell with the file as its argument, as git
 * runs it, so "code --wait" or "emacs -nw" work as the user wrote them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui_int.h"
#include "util/readfile.h"
#include "util/xalloc.h"

static const char *editor_command(void)
{
	const char *e = getenv("VISUAL");
	if (!e || !*e)
		e = getenv("EDITOR");
	return e && *e ? e : "vi";
}

/* The editor's run: 0 when it exited with 0. */
static int run_editor(const char *cmd, const char *path, struct error *err)
{
	pid_t pid = fork();
	if (pid < 0)
		return error_set(err, ERR_FAILED, "cannot start the editor: %s", strerror(errno));
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "exec $0 \"$@\"", cmd, path, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return error_set(err, ERR_FAILED, "the editor: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return error_set(err, ERR_FAILED, "the editor (%s) did not exit cleanly; nothing saved", cmd);
	return 0;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

char *editor_edit(struct tui *t, const char *text, const char *suffix, struct error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/tcreview-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	if (fd < 0) {
		error_set(err, ERR_FAILED, "cannot make a file to edit in %s: %s",
		          dir && *dir ? dir : "/tmp", strerror(errno));
		return NULL;
	}
	if (write_all(fd, text, strlen(text)) < 0) {
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	bool screen = !t->term.headless;
	if (screen) {
		def_prog_mode();
		endwin();
	}
	int rc = run_editor(editor_command(), path, err);
	if (screen) {
		reset_prog_mode();
		clearok(curscr, TRUE);
		refresh();
	}
	struct strbuf sb = STRBUF_INIT;
	if (rc == 0 && read_regular_file(&sb, path, READ_CAP_CONFIG, err) < 0)
		rc = -1;
	unlink(path);
	if (rc < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
