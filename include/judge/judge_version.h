/* judge_version.h - the libcurl version, from the only layer that links curl. */
#ifndef TCR_JUDGE_JUDGE_VERSION_H
#define TCR_JUDGE_JUDGE_VERSION_H

const char *judge_curl_version(void);

#endif
