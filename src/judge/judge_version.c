/* judge_version.c - the libcurl version, reported by the layer that uses curl. */
#include <curl/curl.h>

#include "judge/judge_version.h"

const char *judge_curl_version(void)
{
	return curl_version_info(CURLVERSION_NOW)->version;
}
