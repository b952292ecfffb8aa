/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tag files the tests share (tests/tagfiles.c): test_tagger builds them,
 * test_switch reads them without a topology.
 */
#ifndef _SLUICE_TESTS_TAGFILES_H
#define _SLUICE_TESTS_TAGFILES_H

#include <stdio.h>

/* The tables of a ring of 4 with all shortest paths, greedy. */
extern const char ring4_tags[];

/* @text as a file to read; aborts if it cannot. */
FILE *text_file(const char *text);

#endif /* _SLUICE_TESTS_TAGFILES_H */
