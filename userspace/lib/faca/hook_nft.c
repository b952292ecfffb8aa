// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook's table through libnftables: installing the text hook_rules.c
 * writes, a port into the map, the table's owner, its removal.  Errors
 * are nft's own first line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <nftables/libnftables.h>
#include <sluice/faca_hook.h>

#include "../graph/internal.h"
#include "../parse.h"
#include "hook.h"

struct nft_ctx *faca_nft_new(char *err, size_t errlen)
{
	struct nft_ctx *nft = nft_ctx_new(NFT_CTX_DEFAULT);

	if (!nft) {
		sluice_i_errf(err, errlen, -ENOMEM, "cannot create an nftables context");
		return NULL;
	}
	if (nft_ctx_buffer_output(nft) || nft_ctx_buffer_error(nft)) {
		nft_ctx_free(nft);
		sluice_i_errf(err, errlen, -ENOMEM, "cannot buffer nftables' output");
		return NULL;
	}
	return nft;
}

int faca_nft_run(struct nft_ctx *nft, const char *cmd, char *err,
		 size_t errlen)
{
	const char *msg;
	size_t n;

	if (!nft_run_cmd_from_buffer(nft, cmd))
		return 0;
	/* nft's own first line ("Error: ..."); the rest quotes the command */
	msg = nft_ctx_get_error_buffer(nft);
	if (!msg || !*msg)
		msg = "failed";
	n = strcspn(msg, "\n");
	return sluice_i_errf(err, errlen, -EIO, "nftables: %.*s", (int)n, msg);
}

int faca_nft_table_queue(struct nft_ctx *nft, unsigned int *queue)
{
	static const char tag[] = "comment \"" FACA_HOOK_COMMENT_PREFIX;
	const char *out, *c;
	unsigned long q;
	char *end;

	if (nft_run_cmd_from_buffer(nft, "list table ip " SLUICE_FACA_HOOK_TABLE))
		return -ENOENT;
	out = nft_ctx_get_output_buffer(nft);
	c = out ? strstr(out, tag) : NULL;
	if (!c || parse_decimal(c + strlen(tag), &end, &q) || *end != '"' ||
	    q > UINT16_MAX)
		return -EEXIST;
	*queue = q;
	return 0;
}

int faca_nft_table_delete(struct nft_ctx *nft, char *err, size_t errlen)
{
	return faca_nft_run(nft, "delete table ip " SLUICE_FACA_HOOK_TABLE,
			    err, errlen);
}

int faca_nft_map_add(struct nft_ctx *nft, uint16_t port, char *err,
		     size_t errlen)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "add element ip %s ports { 0x%08x : %u }",
		 SLUICE_FACA_HOOK_TABLE, SLUICE_FACA_HOOK_MARK | port, port);
	return faca_nft_run(nft, cmd, err, errlen);
}
