/* http.h - one HTTP request as a provider builds it (no curl types here),
 * so requests can be checked in tests without a network. */
#ifndef TCR_JUDGE_HTTP_H
#define TCR_JUDGE_HTTP_H

#include <stddef.h>

struct http_req {
	char *url;
	char **headers;             /* "Name: value" */
	size_t nheaders;
	char *body;
	size_t key_header;          /* index of the header holding the key, or SIZE_MAX */
};
void http_req_free(struct http_req *req);
/* The request as text for debug output, the key's header shown as
 * "Name: ***" (malloc'd). */
char *http_req_describe(const struct http_req *req);

#endif
