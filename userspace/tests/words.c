// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "words.h"

void words_split(struct words *w, const char *line)
{
	char *word, *save;

	if (strlen(line) >= sizeof(w->buf)) {
		fprintf(stderr, "words_split: line too long\n");
		abort();
	}
	strcpy(w->buf, line);
	w->argc = 0;
	for (word = strtok_r(w->buf, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		if (w->argc == WORDS_MAX) {
			fprintf(stderr, "words_split: too many words\n");
			abort();
		}
		w->argv[w->argc++] = word;
	}
	w->argv[w->argc] = NULL;
}
