/* probe.h - whether a local Ollama server answers, and a model it has, so
 * that a proposed configuration can offer a judge that works at once. */
#ifndef TCR_JUDGE_PROBE_H
#define TCR_JUDGE_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* Where the probe asks unless $TCR_OLLAMA_URL says else (tests point it
 * at their own local server). */
#define OLLAMA_PROBE_BASE "http://localhost:11434"

struct ollama_probe {
	char base[512];         /* the server asked, without /v1 */
	char model[256];        /* the first model it lists, "" when none */
	size_t nmodels;
	bool answered;          /* a server answered with a list of models */
};

/* Asks BASE/api/tags, waiting at most timeout_ms (or $TCR_OLLAMA_TIMEOUT_MS,
 * 1..600000, for tests whose server may be slow to answer on a busy
 * machine), through no proxy.
 * Returns 0 when a server answered with its list (nmodels may be 0), -1
 * when nothing answered or the answer was no list of models. */
int judge_probe_ollama(long timeout_ms, struct ollama_probe *out);

#endif
