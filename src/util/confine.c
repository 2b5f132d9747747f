/* confine.c - placing a named file against its configuration's folder and the allowed paths. */
#include "util/confine.h"

#include <stdlib.h>
#include <string.h>

bool path_under(const char *real, const char *root)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;                        /* "/a/" as "/a"; "/" stays */
	if (strncmp(real, root, n) != 0)
		return false;
	if (n == 1 && root[0] == '/')
		return real[0] == '/';
	return real[n] == '\0' || real[n] == '/';
}

/* Whether real is root or under it, root resolved first. */
static bool under_resolved(const char *real, const char *root)
{
	char *r = root && *root ? realpath(root, NULL) : NULL;
	bool in = r && path_under(real, r);
	free(r);
	return in;
}

enum path_place path_place(const char *path, const char *folder, const char *const *allow,
                           size_t nallow)
{
	char *real = realpath(path, NULL);
	if (!real)
		return PATH_UNRESOLVED;
	enum path_place where = PATH_OUTSIDE;
	if (under_resolved(real, folder && *folder ? folder : "."))
		where = PATH_INSIDE;
	for (size_t i = 0; where == PATH_OUTSIDE && i < nallow; i++)
		if (under_resolved(real, allow[i]))
			where = PATH_ALLOWED;
	free(real);
	return where;
}
