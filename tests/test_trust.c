/* test_trust.c - where a judge's requests and key may go (judge/trust.h):
 * hosts read from addresses, loopback, each provider's own hosts, the
 * user's allowances and file, credential-like variable names, the check
 * of a judge; and the request URL each provider builds from a base_url
 * written with or without the API's version (built, never sent). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "judge/judge.h"
#include "judge/provider.h"
#include "judge/trust.h"
#include "util/error.h"

static char tmpdir[64];
/* The allowances a command would hand down (judge/trust.h). */
static struct judge_trust trust;

static int setup(void **st)
{
	(void)st;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/tcr-trust-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	unsetenv("OPENAI_BASE_URL");
	unsetenv("ANTHROPIC_BASE_URL");
	unsetenv("AZURE_OPENAI_ENDPOINT");
	setenv("OPENAI_API_KEY", "sk-test", 1);
	setenv("ANTHROPIC_API_KEY", "sk-test", 1);
	setenv("AZURE_OPENAI_API_KEY", "sk-test", 1);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char path[128];
	snprintf(path, sizeof path, "%s/tcreview/allowed-hosts", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/tcreview", tmpdir);
	rmdir(path);
	rmdir(tmpdir);
	judge_trust_free(&trust);
	return 0;
}

static int reset(void **st)
{
	(void)st;
	judge_trust_free(&trust);
	return 0;
}

static void host_is(const char *url, const char *want, bool tls)
{
	struct error why = {0};
	char host[64];
	bool t;
	int rc = judge_url_host(url, host, sizeof host, &t, &why);
	if (rc != 0)
		fail_msg("%s: %s", url, why.msg);
	assert_string_equal(host, want);
	assert_int_equal(t, tls);
}

static void host_refused(const char *url, const char *why_has)
{
	struct error why = {0};
	char host[64];
	bool t;
	assert_int_equal(judge_url_host(url, host, sizeof host, &t, &why), -1);
	if (!strstr(why.msg, why_has))
		fail_msg("%s: '%s' does not say '%s'", url, why.msg, why_has);
}

static void test_url_host(void **st)
{
	(void)st;
	host_is("https://api.openai.com/v1", "api.openai.com", true);
	host_is("https://API.OpenAI.com", "api.openai.com", true);
	host_is("http://127.0.0.1:8080/v1", "127.0.0.1", false);
	host_is("http://[::1]:11434/v1", "[::1]", false);
	host_is("https://h.example?x=1", "h.example", true);
	host_is("https://h.example#frag", "h.example", true);
	/* What hides the host is refused rather than read one way by us and
	 * another by curl. */
	host_refused("https://api.openai.com@evil.example/v1", "user name");
	host_refused("https://user:pw@api.openai.com/v1", "user name");
	host_refused("https://evil.example\\@api.openai.com/", "user name");
	host_refused("https://evil.example\\.api.openai.com/", "'\\'");
	host_refused("https://api%2eopenai.com/", "'%'");
	host_refused("https://h\x9b" "2J.example/", "the byte 0x9B");
	host_refused("https://h\xc3\xa9.example/", "the byte 0xC3");
	host_refused("https:///v1", "no host");
	host_refused("https://:443/v1", "no host");
	host_refused("https://h.example:44x3/", "port");
	host_refused("http://[::1/", "closing");
	host_refused("ftp://h.example/", "http");
}

static void test_host_pattern(void **st)
{
	(void)st;
	assert_true(judge_host_pattern_ok("llm.example.com"));
	assert_true(judge_host_pattern_ok("*.example.com"));
	assert_true(judge_host_pattern_ok("[fd00::1]"));
	assert_false(judge_host_pattern_ok("https://llm.example.com"));
	assert_false(judge_host_pattern_ok("llm.example.com:8000"));
	assert_false(judge_host_pattern_ok("llm.example.com/v1"));
	assert_false(judge_host_pattern_ok(""));
	assert_false(judge_host_pattern_ok("*."));
}

static void test_loopback(void **st)
{
	(void)st;
	assert_true(judge_host_loopback("127.0.0.1"));
	assert_true(judge_host_loopback("127.255.3.4"));
	assert_true(judge_host_loopback("localhost"));
	assert_true(judge_host_loopback("[::1]"));
	assert_false(judge_host_loopback("127.0.0.256"));
	assert_false(judge_host_loopback("127.0.0"));
	assert_false(judge_host_loopback("127.0.0.1.evil.example"));
	assert_false(judge_host_loopback("localhost.evil.example"));
	assert_false(judge_host_loopback("128.0.0.1"));
	assert_false(judge_host_loopback("0.0.0.0"));
}

static void test_own_and_allowed_hosts(void **st)
{
	(void)st;
	assert_true(judge_host_trusted(&trust, PROVIDER_OPENAI, "api.openai.com"));
	assert_false(judge_host_trusted(&trust, PROVIDER_OPENAI, "api.openai.com.evil.example"));
	assert_false(judge_host_trusted(&trust, PROVIDER_OPENAI, "api.anthropic.com"));
	assert_true(judge_host_trusted(&trust, PROVIDER_ANTHROPIC, "api.anthropic.com"));
	assert_true(judge_host_trusted(&trust, PROVIDER_AZURE, "me.openai.azure.com"));
	assert_true(judge_host_trusted(&trust, PROVIDER_AZURE, "me.cognitiveservices.azure.com"));
	assert_false(judge_host_trusted(&trust, PROVIDER_AZURE, "openai.azure.com"));
	assert_false(judge_host_trusted(&trust, PROVIDER_AZURE, "evilopenai.azure.com"));
	assert_false(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
	assert_true(judge_host_trusted(&trust, PROVIDER_COMPAT, "127.0.0.1"));
	assert_true(judge_host_trusted(&trust, PROVIDER_OLLAMA, "localhost"));
	judge_allow_host(&trust, "GPU-box");
	judge_allow_host(&trust, "*.corp.example");
	assert_true(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
	assert_true(judge_host_trusted(&trust, PROVIDER_OPENAI, "llm.corp.example"));
	assert_false(judge_host_trusted(&trust, PROVIDER_OPENAI, "corp.example"));
	judge_trust_free(&trust);
	assert_false(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
}

static void test_key_env_names(void **st)
{
	(void)st;
	assert_true(judge_key_env_trusted(&trust, "OPENAI_API_KEY"));
	assert_true(judge_key_env_trusted(&trust, "MY_KEY"));
	assert_true(judge_key_env_trusted(&trust, "GROQ_TOKEN"));
	assert_true(judge_key_env_trusted(&trust, "vllm_secret"));
	assert_false(judge_key_env_trusted(&trust, "HOME"));
	assert_false(judge_key_env_trusted(&trust, "KEY"));
	assert_false(judge_key_env_trusted(&trust, "_KEY"));
	assert_false(judge_key_env_trusted(&trust, "KEYS"));
	assert_false(judge_key_env_trusted(&trust, "PATH"));
	judge_allow_key_env(&trust, "HOME");
	assert_true(judge_key_env_trusted(&trust, "HOME"));
}

static void test_user_file(void **st)
{
	(void)st;
	char *path = judge_allowed_hosts_path();
	char want[128];
	snprintf(want, sizeof want, "%s/tcreview/allowed-hosts", tmpdir);
	assert_string_equal(path, want);
	struct error err = {0};
	/* No file: nothing allowed, no error. */
	assert_int_equal(judge_allow_load_user(&trust, &err), 0);
	assert_false(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
	/* What the screen remembers is allowed now and in the next process. */
	assert_int_equal(judge_allow_remember(&trust, "gpu-box", &err), 0);
	assert_true(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs("  # a comment\n\nllm.example   # the team's\r\n", f);
	fclose(f);
	judge_trust_free(&trust);
	assert_int_equal(judge_allow_load_user(&trust, &err), 0);
	assert_true(judge_host_trusted(&trust, PROVIDER_COMPAT, "gpu-box"));
	assert_true(judge_host_trusted(&trust, PROVIDER_COMPAT, "llm.example"));
	assert_false(judge_host_trusted(&trust, PROVIDER_COMPAT, "#"));
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 077, 0);
	/* XDG_CONFIG_HOME must be absolute; else HOME's .config. */
	setenv("XDG_CONFIG_HOME", "relative", 1);
	setenv("HOME", "/home/someone", 1);
	char *p2 = judge_allowed_hosts_path();
	assert_string_equal(p2, "/home/someone/.config/tcreview/allowed-hosts");
	free(p2);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	free(path);
}

static void conf_init(struct judge_conf *j, enum provider_kind p, const char *base)
{
	memset(j, 0, sizeof *j);
	j->id = "j";
	j->model = "m";
	j->provider = p;
	j->base_url = (char *)base;
}

static void check_refused(struct judge_conf *j, const char *key, const char *has)
{
	struct error err = {0};
	const char *k;
	if (judge_trust_check(&trust, j, &k, &err) != -1)
		fail_msg("accepted: %s %s", j->base_url ? j->base_url : j->endpoint, has);
	assert_string_equal(k, key);
	if (!strstr(err.msg, has))
		fail_msg("'%s' does not say '%s'", err.msg, has);
}

static void check_accepted(struct judge_conf *j)
{
	struct error err = {0};
	const char *k;
	if (judge_trust_check(&trust, j, &k, &err) != 0)
		fail_msg("refused: %s", err);
	assert_null(j->confirm_host);
	assert_null(j->confirm_key_env);
}

static void test_judge_check(void **st)
{
	(void)st;
	struct judge_conf j;
	conf_init(&j, PROVIDER_OPENAI, NULL);
	check_accepted(&j);
	conf_init(&j, PROVIDER_OPENAI, "https://api.openai.com/v1");
	check_accepted(&j);
	conf_init(&j, PROVIDER_OPENAI, "http://127.0.0.1:9/v1");
	check_accepted(&j);
	conf_init(&j, PROVIDER_OPENAI, "https://evil.example/v1");
	check_refused(&j, "base_url", "--allow-host evil.example");
	check_refused(&j, "base_url", "$OPENAI_API_KEY");
	judge_allow_host(&trust, "evil.example");
	check_accepted(&j);
	/* Plain http carries the key in the clear: allowed or not. */
	conf_init(&j, PROVIDER_OPENAI, "http://evil.example/v1");
	check_refused(&j, "base_url", "in the clear");
	conf_init(&j, PROVIDER_OPENAI, "http://api.openai.com/v1");
	check_refused(&j, "base_url", "in the clear");
	/* A compatible server without api_key_env is sent no key: an allowed
	 * host may be plain http, but it must still be allowed. */
	conf_init(&j, PROVIDER_COMPAT, "http://gpu-box:8000/v1");
	check_refused(&j, "base_url", "--allow-host gpu-box");
	judge_allow_host(&trust, "gpu-box");
	check_accepted(&j);
	j.api_key_env = "GPU_KEY";
	check_refused(&j, "base_url", "($GPU_KEY) in the clear");
	/* The name is checked first. */
	j.api_key_env = "HOME";
	check_refused(&j, "api_key_env", "--allow-key-env HOME");
	conf_init(&j, PROVIDER_ANTHROPIC, "https://api.anthropic.com/v1");
	j.api_key_env = "GITHUB_TOKEN";
	check_accepted(&j);
	conf_init(&j, PROVIDER_ANTHROPIC, "https://models.github.example");
	j.api_key_env = "GITHUB_TOKEN";
	check_refused(&j, "base_url", "models.github.example");
	/* Azure: the endpoint is checked when base_url is not given. */
	conf_init(&j, PROVIDER_AZURE, NULL);
	j.endpoint = "https://me.openai.azure.com";
	check_accepted(&j);
	j.endpoint = "https://me.openai.azure.com@evil.example";
	check_refused(&j, "endpoint", "user name");
	j.endpoint = "https://other.example";
	check_refused(&j, "endpoint", "neither Azure OpenAI's own host nor loopback");
}

/* The screen's way: a host not allowed yet is left for the user to
 * confirm, and nothing is sent there until then. */
static void test_confirm_later(void **st)
{
	(void)st;
	struct judge_conf j;
	struct error err = {0};
	char out[300];
	const char *k;
	trust.confirm_later = true;
	conf_init(&j, PROVIDER_OPENAI, "https://llm.other.example/v1");
	assert_int_equal(judge_trust_check(&trust, &j, &k, &err), 0);
	assert_string_equal(j.confirm_host, "llm.other.example");
	assert_string_equal(judge_needs_leave(&j), "llm.other.example");
	judge_request_host(&j, out, sizeof out);
	assert_string_equal(out, "llm.other.example (not allowed yet: J asks)");
	struct judge_prompt pr = { .user = "u" };
	struct http_req req;
	assert_int_equal(provider_request(&j, &pr, &req, &err), -1);
	assert_string_equal(err.msg, "requests to llm.other.example are not allowed "
	                         "(--allow-host llm.other.example)");
	assert_int_equal(judge_allow_remember(&trust, "llm.other.example", &err), 0);
	assert_null(judge_needs_leave(&j));
	assert_int_equal(provider_request(&j, &pr, &req, &err), 0);
	http_req_free(&req);
	free(j.confirm_host);
	/* A key variable the same way, remembered in allowed-key-envs. */
	conf_init(&j, PROVIDER_OPENAI, NULL);
	j.api_key_env = "HOME";
	assert_int_equal(judge_trust_check(&trust, &j, &k, &err), 0);
	assert_string_equal(judge_needs_key_leave(&j), "HOME");
	assert_int_equal(provider_request(&j, &pr, &req, &err), -1);
	assert_string_equal(err.msg, "sending $HOME is not allowed (--allow-key-env HOME)");
	assert_int_equal(judge_allow_remember_key_env(&trust, "HOME", &err), 0);
	assert_null(judge_needs_key_leave(&j));
	free(j.confirm_key_env);
	judge_trust_free(&trust);
	assert_int_equal(judge_allow_load_user(&trust, &err), 0);
	assert_true(judge_key_env_trusted(&trust, "HOME"));
	char *kp = judge_allowed_key_envs_path();
	unlink(kp);
	free(kp);
	/* What no confirmation makes safe is still refused. */
	conf_init(&j, PROVIDER_OPENAI, "http://plain.other.example/v1");
	check_refused(&j, "base_url", "in the clear");
	trust.confirm_later = false;
}

/* Two commands' allowances in one process: what one allows, the other
 * does not, and each judge answers by the one it was checked under. */
static void test_two_trusts(void **st)
{
	(void)st;
	struct judge_trust a = { 0 }, b = { 0 };
	judge_allow_host(&a, "gpu-box");
	judge_allow_key_env(&b, "HOME");
	b.confirm_later = true;
	assert_true(judge_host_trusted(&a, PROVIDER_COMPAT, "gpu-box"));
	assert_false(judge_host_trusted(&b, PROVIDER_COMPAT, "gpu-box"));
	assert_false(judge_host_trusted(NULL, PROVIDER_COMPAT, "gpu-box"));
	assert_false(judge_key_env_trusted(&a, "HOME"));
	assert_true(judge_key_env_trusted(&b, "HOME"));
	struct judge_conf ja, jb;
	struct error err = {0};
	const char *k;
	conf_init(&ja, PROVIDER_COMPAT, "http://gpu-box:8000/v1");
	conf_init(&jb, PROVIDER_COMPAT, "http://gpu-box:8000/v1");
	assert_int_equal(judge_trust_check(&a, &ja, &k, &err), 0);
	assert_null(ja.confirm_host);
	/* b asks first where a refuses nothing and leaves nothing to ask. */
	assert_int_equal(judge_trust_check(&b, &jb, &k, &err), 0);
	assert_string_equal(judge_needs_leave(&jb), "gpu-box");
	assert_null(judge_needs_leave(&ja));
	assert_ptr_equal(ja.trust, &a);
	assert_ptr_equal(jb.trust, &b);
	/* Without confirmation b's way is a refusal; a's is unchanged. */
	b.confirm_later = false;
	free(jb.confirm_host);
	conf_init(&jb, PROVIDER_COMPAT, "http://gpu-box:8000/v1");
	assert_int_equal(judge_trust_check(&b, &jb, &k, &err), -1);
	assert_int_equal(judge_trust_check(&a, &ja, &k, &err), 0);
	judge_trust_free(&a);
	judge_trust_free(&b);
	assert_false(judge_host_trusted(&a, PROVIDER_COMPAT, "gpu-box"));
}

static void test_request_host(void **st)
{
	(void)st;
	struct judge_conf j;
	char out[300];
	conf_init(&j, PROVIDER_OPENAI, NULL);
	judge_request_host(&j, out, sizeof out);
	assert_string_equal(out, "api.openai.com");
	conf_init(&j, PROVIDER_OLLAMA, NULL);
	judge_request_host(&j, out, sizeof out);
	assert_string_equal(out, "localhost (plain http)");
	conf_init(&j, PROVIDER_ANTHROPIC, NULL);
	setenv("ANTHROPIC_BASE_URL", "https://proxy.example", 1);
	judge_request_host(&j, out, sizeof out);
	assert_string_equal(out, "proxy.example");
	unsetenv("ANTHROPIC_BASE_URL");
	conf_init(&j, PROVIDER_AZURE, NULL);
	j.endpoint = "https://me.openai.azure.com";
	judge_request_host(&j, out, sizeof out);
	assert_string_equal(out, "me.openai.azure.com");
}

/* The URL provider_request builds for a base (nothing is sent). */
static void url_is(enum provider_kind p, const char *base, const char *want)
{
	struct judge_conf j;
	conf_init(&j, p, base);
	j.model = "dep";
	j.api_version = "2024-10-21";
	struct judge_prompt pr = { .user = "u" };
	struct http_req req;
	struct error err = {0};
	if (provider_request(&j, &pr, &req, &err) != 0)
		fail_msg("%s: %s", base, err.msg);
	assert_string_equal(req.url, want);
	http_req_free(&req);
}

static void test_versioned_base(void **st)
{
	(void)st;
	/* The AI SDK writes Anthropic's base with /v1, Anthropic's SDKs without. */
	url_is(PROVIDER_ANTHROPIC, "https://api.anthropic.com", "https://api.anthropic.com/v1/messages");
	url_is(PROVIDER_ANTHROPIC, "https://api.anthropic.com/v1", "https://api.anthropic.com/v1/messages");
	url_is(PROVIDER_ANTHROPIC, "https://api.anthropic.com/v1/", "https://api.anthropic.com/v1/messages");
	url_is(PROVIDER_ANTHROPIC, "http://127.0.0.1:9/proxy", "http://127.0.0.1:9/proxy/v1/messages");
	url_is(PROVIDER_ANTHROPIC, NULL, "https://api.anthropic.com/v1/messages");
	/* Chat Completions: a base with no path is given /v1; one with a path
	 * is taken as written. */
	url_is(PROVIDER_OPENAI, NULL, "https://api.openai.com/v1/chat/completions");
	url_is(PROVIDER_OPENAI, "https://api.openai.com", "https://api.openai.com/v1/chat/completions");
	url_is(PROVIDER_OPENAI, "https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions");
	url_is(PROVIDER_COMPAT, "http://127.0.0.1:8000/", "http://127.0.0.1:8000/v1/chat/completions");
	url_is(PROVIDER_COMPAT, "http://127.0.0.1:8000/api/v1", "http://127.0.0.1:8000/api/v1/chat/completions");
	url_is(PROVIDER_COMPAT, "https://h.example/v1beta/openai",
	       "https://h.example/v1beta/openai/chat/completions");
	url_is(PROVIDER_OLLAMA, "http://localhost:11434", "http://localhost:11434/v1/chat/completions");
	url_is(PROVIDER_OLLAMA, "http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions");
	/* A host named v1 is not a path. */
	url_is(PROVIDER_ANTHROPIC, "http://v1", "http://v1/v1/messages");
	/* Azure: the resource's endpoint, or the AI SDK's base ending in /openai. */
	url_is(PROVIDER_AZURE, "https://me.openai.azure.com",
	       "https://me.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-10-21");
	url_is(PROVIDER_AZURE, "https://me.openai.azure.com/openai/",
	       "https://me.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-10-21");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_url_host, reset),
		cmocka_unit_test_setup(test_host_pattern, reset),
		cmocka_unit_test_setup(test_loopback, reset),
		cmocka_unit_test_setup(test_own_and_allowed_hosts, reset),
		cmocka_unit_test_setup(test_key_env_names, reset),
		cmocka_unit_test_setup(test_user_file, reset),
		cmocka_unit_test_setup(test_judge_check, reset),
		cmocka_unit_test_setup(test_confirm_later, reset),
		cmocka_unit_test_setup(test_two_trusts, reset),
		cmocka_unit_test_setup(test_request_host, reset),
		cmocka_unit_test_setup(test_versioned_base, reset),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
