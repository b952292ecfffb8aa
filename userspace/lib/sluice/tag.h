/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tag sources (enum tc_sluice_tag) and the map each of them classifies by.
 */
#ifndef _SLUICE_TAG_H
#define _SLUICE_TAG_H

#include <linux/types.h>
#include <linux/sluice.h>

struct sluice_tag_info {
	const char	*name;		/* keyword of "tag": "pcp" */
	const char	*map_name;	/* keyword of its map: "pcp-map" */
	const char	*map_json;	/* JSON key of its map: "pcp_map" */
	unsigned int	values;		/* map size: TC_SLUICE_PCP_VALUES */
	unsigned int	map_attr;	/* TCA_SLUICE_PCP_MAP */
};

const struct sluice_tag_info *sluice_tag_info(unsigned int tag);
const char *sluice_tag_name(unsigned int tag);
int sluice_tag_parse(const char *name, __u8 *tag);

#endif /* _SLUICE_TAG_H */
