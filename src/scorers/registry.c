/* registry.c - the table of code scorers. One line per scorer type. */
#include <string.h>

#include "scorers/scorer.h"

extern const struct scorer_ops scorer_tool_call_accuracy;
extern const struct scorer_ops scorer_word_inclusion;
extern const struct scorer_ops scorer_record_field;
extern const struct scorer_ops scorer_exec;
extern const struct scorer_ops scorer_trajectory_match;
extern const struct scorer_ops scorer_tool_errors;
extern const struct scorer_ops scorer_unanswered_calls;

const struct scorer_ops *const scorer_table[] = {
	&scorer_tool_call_accuracy,
	&scorer_word_inclusion,
	&scorer_record_field,
	&scorer_exec,
	&scorer_trajectory_match,
	&scorer_tool_errors,
	&scorer_unanswered_calls,
	NULL,
};

const struct scorer_ops *scorer_find(const char *type)
{
	for (size_t i = 0; scorer_table[i]; i++)
		if (strcmp(scorer_table[i]->type, type) == 0)
			return scorer_table[i];
	return NULL;
}
