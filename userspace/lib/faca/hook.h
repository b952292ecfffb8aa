/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the hook's files (not installed): hook.c (the queue and the
 * verdicts), hook_nft.c (the table, through libnftables), hook_ct.c (the
 * conntrack lookups, through libnetfilter-conntrack).
 */
#ifndef _SLUICE_LIB_FACA_HOOK_H
#define _SLUICE_LIB_FACA_HOOK_H

#include <stddef.h>
#include <stdint.h>

struct nft_ctx;
struct nfct_handle;

/* The table's comment, which names the queue of the hook that owns it. */
#define FACA_HOOK_COMMENT_PREFIX	"sluice faca hook, queue "

/* An nftables context that keeps output and errors for us. */
struct nft_ctx *faca_nft_new(char *err, size_t errlen);
/* Runs @cmd; on failure @err gets nft's first error line. */
int faca_nft_run(struct nft_ctx *nft, const char *cmd, char *err,
		 size_t errlen);
/*
 * The queue the hook table in place names: 0 and *@queue, -ENOENT if
 * there is no table, -EEXIST if a table of that name is not a hook's.
 */
int faca_nft_table_queue(struct nft_ctx *nft, unsigned int *queue);
int faca_nft_table_delete(struct nft_ctx *nft, char *err, size_t errlen);
/* Adds the element SLUICE_FACA_HOOK_MARK | @port : @port to the map. */
int faca_nft_map_add(struct nft_ctx *nft, uint16_t port, char *err,
		     size_t errlen);

struct nfct_handle *faca_ct_open(char *err, size_t errlen);
void faca_ct_close(struct nfct_handle *ct);
/*
 * How many flows rewritten to a port of @ports (a bitmap of 65536 bits)
 * still need their translation, or -errno.
 */
int faca_ct_count_open(struct nfct_handle *ct, const uint8_t *ports);
/* 1 if a conntrack entry has the tuple (either direction), 0 if none. */
int faca_ct_tuple_taken(struct nfct_handle *ct, uint8_t proto, uint32_t src,
			uint16_t sport, uint32_t dst, uint16_t dport);

#endif /* _SLUICE_LIB_FACA_HOOK_H */
