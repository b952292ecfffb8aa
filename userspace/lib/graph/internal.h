/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's graph and topology code (not installed).
 */
#ifndef _SLUICE_LIB_GRAPH_INTERNAL_H
#define _SLUICE_LIB_GRAPH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Writes a message into @err and returns @ret (a negative errno), so that a
 * check reads "return sluice_i_errf(err, errlen, -EINVAL, ...)".
 */
__attribute__((format(printf, 4, 5)))
int sluice_i_errf(char *err, size_t errlen, int ret, const char *fmt, ...);

/* calloc() of @n elements of @size that fails cleanly on overflow. */
void *sluice_i_calloc(size_t n, size_t size);
/* Room for @need elements in *@arr, doubling *@cap; 0 or -ENOMEM. */
int sluice_i_grow(void **arr, size_t size, uint64_t *cap, uint64_t need);
#define SLUICE_I_GROW(arr, cap, need) \
	sluice_i_grow((void **)&(arr), sizeof(*(arr)), &(cap), (need))

#endif /* _SLUICE_LIB_GRAPH_INTERNAL_H */
