// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tag sources of enum tc_sluice_tag: their names and their maps.  This
 * table is the one place that ties a name to a uapi number.
 */
#include <errno.h>
#include <string.h>
#include <sluice/tag.h>

static const struct sluice_tag_info tags[] = {
	[TC_SLUICE_TAG_PRIORITY] = {
		.name		= "priority",
		.map_name	= "prio-map",
		.map_json	= "prio_map",
		.values		= TC_SLUICE_PRIO_VALUES,
		.map_attr	= TCA_SLUICE_PRIO_MAP,
	},
	[TC_SLUICE_TAG_PCP] = {
		.name		= "pcp",
		.map_name	= "pcp-map",
		.map_json	= "pcp_map",
		.values		= TC_SLUICE_PCP_VALUES,
		.map_attr	= TCA_SLUICE_PCP_MAP,
	},
	[TC_SLUICE_TAG_DSCP] = {
		.name		= "dscp",
		.map_name	= "dscp-map",
		.map_json	= "dscp_map",
		.values		= TC_SLUICE_DSCP_VALUES,
		.map_attr	= TCA_SLUICE_DSCP_MAP,
	},
	[TC_SLUICE_TAG_MPLS_TC] = {
		.name		= "mpls-tc",
		.map_name	= "mpls-tc-map",
		.map_json	= "mpls_tc_map",
		.values		= TC_SLUICE_MPLS_TC_VALUES,
		.map_attr	= TCA_SLUICE_MPLS_TC_MAP,
	},
};

_Static_assert(sizeof(tags) / sizeof(tags[0]) == __TC_SLUICE_TAG_MAX,
	       "every tag source needs an entry");

/**
 * sluice_tag_info() - names and map geometry of a tag source
 * @tag:	enum tc_sluice_tag
 *
 * Return: the description, or NULL if @tag is not a known source (a newer
 * kernel may report one).
 */
const struct sluice_tag_info *sluice_tag_info(unsigned int tag)
{
	return tag <= TC_SLUICE_TAG_MAX ? &tags[tag] : NULL;
}

/**
 * sluice_tag_name() - the keyword of a tag source
 * @tag:	enum tc_sluice_tag
 *
 * Return: "priority", "pcp", "dscp" or "mpls-tc"; NULL if @tag is unknown.
 */
const char *sluice_tag_name(unsigned int tag)
{
	const struct sluice_tag_info *ti = sluice_tag_info(tag);

	return ti ? ti->name : NULL;
}

/**
 * sluice_tag_parse() - the tag source named by a keyword
 * @name:	"priority", "pcp", "dscp" or "mpls-tc", exactly
 * @tag:	the enum tc_sluice_tag, set only on success
 *
 * Return: 0 or -EINVAL.
 */
int sluice_tag_parse(const char *name, __u8 *tag)
{
	unsigned int i;

	for (i = 0; i <= TC_SLUICE_TAG_MAX; i++) {
		if (!strcmp(name, tags[i].name)) {
			*tag = i;
			return 0;
		}
	}
	return -EINVAL;
}
