/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the line-oriented text files libsluice writes (the route file,
 * the tag file; internal, not installed): lines with their numbers for
 * messages, and the exact pieces a writer's output is made of - the
 * writer's spelling is the only one accepted (no sign, padding, leading
 * zero or other case).  Static inline, like parse.h, so that each reader
 * keeps its short names.
 */
#ifndef _SLUICE_LIB_TEXT_H
#define _SLUICE_LIB_TEXT_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "graph/internal.h"

struct text_reader {
	FILE		*f;
	const char	*name;		/* the file's, for messages */
	uint64_t	lineno;
	int		ret;		/* a line refused by text_next() */
	bool		eof;		/* text_next() found the end */
	bool		partial;	/* the last line had no newline */
	uint64_t	partial_line;
	char		*line;		/* free() it when done */
	size_t		cap;
	char		*err;
	size_t		errlen;
};

/*
 * The file ended early: "NAME:LINE: the file ends before "end":
 * truncated? (@detail)", or "... ends in the middle of the line ..." when
 * its last line has no newline (every writer ends its lines), or "NAME: the
 * file is empty".  @detail, what the reader expected, may be NULL.  Every
 * reader's files end with "end", so a file cut short anywhere says so.
 * Returns -EINVAL, or the refusal text_next() already made.
 */
static inline int text_truncated(struct text_reader *t, const char *detail)
{
	uint64_t line = t->partial ? t->partial_line : t->lineno;

	if (t->ret)
		return t->ret;
	if (t->eof && !t->partial && line == 1)
		return sluice_i_errf(t->err, t->errlen, -EINVAL,
				     "%s: the file is empty", t->name);
	return sluice_i_errf(t->err, t->errlen, -EINVAL,
			     "%s:%llu: the file ends %s: truncated?%s%s%s",
			     t->name, (unsigned long long)line,
			     t->partial ? "in the middle of the line" :
			     "before \"end\"",
			     detail ? " (" : "", detail ? detail : "",
			     detail ? ")" : "");
}

/*
 * Refuses the current line: "NAME:LINE: message" in the reader's err,
 * unless text_next() already refused the line (its message stands).  At
 * the end of the file, or on a last line without its newline, the file
 * was cut short: text_truncated() says so, with the message as detail.
 * Returns -EINVAL, or the refusal already made.
 */
__attribute__((format(printf, 2, 3)))
static inline int text_bad(struct text_reader *t, const char *fmt, ...)
{
	char msg[SLUICE_ERRLEN];
	va_list ap;

	if (t->ret)
		return t->ret;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->eof || t->partial)
		return text_truncated(t, msg);
	return sluice_i_errf(t->err, t->errlen, -EINVAL, "%s:%llu: %s",
			     t->name, (unsigned long long)t->lineno, msg);
}

/*
 * The next line without its newline, or NULL at the end of the file.  The
 * line count goes on at the end, so that a message about a missing line
 * names the line that is missing; a last line without its newline is
 * remembered, as a sign of a file cut short (text_truncated()).  A NUL byte would cut the line short
 * unseen, a CR would show up as a stray byte in some field: both make the
 * line NULL too, with t->ret and the message set.
 */
static inline char *text_next(struct text_reader *t)
{
	ssize_t n = getline(&t->line, &t->cap, t->f);

	t->lineno++;
	if (n < 0) {
		t->eof = !ferror(t->f);
		return NULL;
	}
	if (n && t->line[n - 1] == '\n') {
		t->line[--n] = '\0';
	} else {
		t->partial = true;
		t->partial_line = t->lineno;
	}
	if (strlen(t->line) != (size_t)n) {
		t->ret = text_bad(t, "a NUL byte in the line");
		return NULL;
	}
	if (n && t->line[n - 1] == '\r') {
		t->ret = text_bad(t, "the line ends with a carriage return (DOS line ends?)");
		return NULL;
	}
	return t->line;
}

/* A decimal number up to @max without sign or leading zeros; advances. */
static inline bool text_u64(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0, top = max / 10;
	unsigned int last = max % 10;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		/* x * 10 + d > max, without dividing for each digit */
		if (x > top || (x == top && d > last))
			return false;
		x = x * 10 + d;
	}
	*s = p;
	*v = x;
	return true;
}

static inline bool text_u32(const char **s, uint32_t *v)
{
	uint64_t x;

	if (!text_u64(s, UINT32_MAX, &x))
		return false;
	*v = x;
	return true;
}

/* The literal @w, exactly; advances past it. */
static inline bool text_lit(const char **s, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*s, w, n))
		return false;
	*s += n;
	return true;
}

/* Up to the next space or the end of the line, shorter than @size. */
static inline bool text_word(const char **s, char *buf, size_t size)
{
	size_t n = strcspn(*s, " ");

	if (!n || n >= size)
		return false;
	memcpy(buf, *s, n);
	buf[n] = '\0';
	*s += n;
	return true;
}

/* A hash: 16 lower-case hex digits. */
static inline bool text_hash(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int i;

	for (i = 0; i < 16; i++, p++) {
		if (*p >= '0' && *p <= '9')
			x = x << 4 | (uint64_t)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			x = x << 4 | (uint64_t)(*p - 'a' + 10);
		else
			return false;
	}
	*s = p;
	*v = x;
	return true;
}

#endif /* _SLUICE_LIB_TEXT_H */
