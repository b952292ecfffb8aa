/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress of long work on stderr, on a terminal only: one line redrawn in
 * place ("sluicectl: routing 120/1000 sources"), at most ten times a
 * second, ended by a newline when the work is done or fails.  The library
 * reports through its sluice_progress_fn; this is the CLI's printer.
 */
#ifndef _SLUICECTL_PROGRESS_H
#define _SLUICECTL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* What is counted: "routing", "sources"; for cli_progress()'s @arg. */
struct cli_progress {
	const char	*what;
	const char	*unit;
	double		last;	/* when last drawn, s; 0: never */
	bool		open;	/* a line is drawn and not ended */
	/* draw nothing until the work has taken this long, s (0: at once) */
	double		delay;
	double		first;	/* the first call's time, s; 0: none yet */
};

/* Whether to show progress: stderr is a terminal. */
bool cli_progress_wanted(void);
/* A sluice_progress_fn: @arg is a struct cli_progress. */
void cli_progress(void *arg, uint32_t done, uint32_t total);
/* Ends the line if one is open (before an error message, say). */
void cli_progress_end(struct cli_progress *p);

#endif /* _SLUICECTL_PROGRESS_H */
