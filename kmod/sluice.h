/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_sluice internals shared by the files of the module.  The ABI lives
 * in include/uapi/linux/sluice.h; read its prose first.
 */
#ifndef _SLUICE_H
#define _SLUICE_H

#include <linux/types.h>
#include <net/sch_generic.h>
#include <uapi/linux/sluice.h>

/* A map per tag source, indexed by enum tc_sluice_tag. */
#define SLUICE_NR_MAPS		(TC_SLUICE_TAG_MAX + 1)
#define SLUICE_MAP_MAX_VALUES	TC_SLUICE_DSCP_VALUES

/*
 * Everything "tc qdisc change" can set.  A change is built in a copy of
 * this, validated as a whole, then committed under the tree lock, so a
 * rejected request leaves nothing half-applied.
 */
struct sluice_config {
	u8	nclasses;
	u8	tag;		/* enum tc_sluice_tag */
	u8	defclass;	/* class of frames without the tag */
	u8	custom_maps;	/* BIT(tag) for each map the user has set */
	u32	limit;		/* bytes per class, set for all by the qdisc */
	u8	map[SLUICE_NR_MAPS][SLUICE_MAP_MAX_VALUES];
};

struct sluice_class {
	struct qdisc_skb_head		q;	/* the FIFO */
	u32				limit;	/* bytes */
	u32				peak_backlog;
	u64				limit_drops;
	struct gnet_stats_basic_sync	bstats;	/* sent */
	struct gnet_stats_queue		qstats;	/* backlog, drops */
};

struct sluice_sched {
	struct sluice_config	cfg;
	u32			active;	/* BIT(class) for each non-empty class */
	u64			untagged;
	u64			limit_drops;
	struct sluice_class	classes[TC_SLUICE_MAX_CLASSES];
};

/* Class handles are minor numbers 1..N; class index i has minor i + 1. */
static inline struct sluice_class *sluice_class(struct sluice_sched *q,
						unsigned long arg)
{
	return &q->classes[arg - 1];
}

/* The extack message with the module's name in front, on attribute attr. */
#define SLUICE_ERR(extack, attr, msg) \
	NL_SET_ERR_MSG_ATTR(extack, attr, KBUILD_MODNAME ": " msg)

extern const struct Qdisc_class_ops sluice_class_ops;
extern struct Qdisc_ops sluice_qdisc_ops;

/* options.c */
void sluice_config_default(struct sluice_config *cfg, struct Qdisc *sch);
int sluice_config_parse(struct sluice_config *cfg, struct nlattr *opt,
			struct netlink_ext_ack *extack);
int sluice_config_dump(const struct sluice_config *cfg, struct sk_buff *skb);
int sluice_class_limit_parse(struct nlattr *opt, u32 *limit,
			     struct netlink_ext_ack *extack);

/* classify.c */
int sluice_tag_read(const struct sk_buff *skb, unsigned int tag);

#endif /* _SLUICE_H */
