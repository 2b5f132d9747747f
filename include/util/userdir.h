/* userdir.h - the folders of the user's own files (allowed hosts, the
 * exec scorer's cache), found by the XDG base directory rules. */
#ifndef TCR_UTIL_USERDIR_H
#define TCR_UTIL_USERDIR_H

/* $XDG_VAR/tcreview when that variable holds an absolute path (the rules
 * ignore a relative one), else $HOME/HOME_SUB/tcreview: for example
 * user_dir("XDG_CACHE_HOME", ".cache"). Malloc'd; NULL when neither is set. */
char *user_dir(const char *xdg_var, const char *home_sub);
/* LEAF in the user's configuration folder: $XDG_CONFIG_HOME/tcreview/LEAF,
 * else $HOME/.config/tcreview/LEAF. Malloc'd; NULL when neither is set. */
char *user_config_file(const char *leaf);
/* mkdir -p: makes every missing folder of `dir`, private to the user
 * (0700). Returns 0, or -1 with errno set. */
int make_dirs(const char *dir);

#endif
