// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink options of the qdisc and its classes: defaults, strict parsing
 * into a candidate configuration, and dumping.  Nothing here touches the
 * live qdisc; qdisc.c commits a parsed configuration under the tree lock.
 */
#include <linux/bitops.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/mpls.h>

#include "sluice.h"

/*
 * Types and lengths only: the range of every value is checked by hand so
 * that each rejection carries a message naming what was wrong.
 */
static const struct nla_policy sluice_policy[TCA_SLUICE_MAX + 1] = {
	[TCA_SLUICE_CLASSES]	= { .type = NLA_U8 },
	[TCA_SLUICE_TAG]	= { .type = NLA_U8 },
	[TCA_SLUICE_DEFAULT]	= { .type = NLA_U8 },
	[TCA_SLUICE_LIMIT]	= { .type = NLA_U32 },
	[TCA_SLUICE_PCP_MAP]	= { .type = NLA_NESTED },
	[TCA_SLUICE_DSCP_MAP]	= { .type = NLA_NESTED },
	[TCA_SLUICE_MPLS_TC_MAP] = { .type = NLA_NESTED },
	[TCA_SLUICE_PRIO_MAP]	= { .type = NLA_NESTED },
	[TCA_SLUICE_DEFAULT_MAPS] = { .type = NLA_U8 },
	[TCA_SLUICE_RATE]	= { .type = NLA_U64 },
	[TCA_SLUICE_PFC]	= { .type = NLA_U8 },
	[TCA_SLUICE_PAUSE_RX]	= { .type = NLA_U8 },
	[TCA_SLUICE_XOFF]	= { .type = NLA_U32 },
	[TCA_SLUICE_XON]	= { .type = NLA_U32 },
	[TCA_SLUICE_HEADROOM]	= { .type = NLA_U32 },
	[TCA_SLUICE_PAUSE_TIME]	= { .type = NLA_U16 },
	[TCA_SLUICE_WD_PRIOS]	= { .type = NLA_U8 },
	[TCA_SLUICE_WD_ACTION]	= { .type = NLA_U8 },
	[TCA_SLUICE_WD_DETECT]	= { .type = NLA_U32 },
	[TCA_SLUICE_WD_RESTORE]	= { .type = NLA_U32 },
	[TCA_SLUICE_WD_POLL]	= { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC]	= { .type = NLA_U8 },
	[TCA_SLUICE_PORTFC_N]	= { .type = NLA_U8 },
	[TCA_SLUICE_PORTFC_K]	= { .type = NLA_U8 },
	[TCA_SLUICE_PORTFC_INDEX] = { .type = NLA_U8 },
	[TCA_SLUICE_PORTFC_LABEL_BASE] = { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC_XOFF_A] = { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC_XON_A] = { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC_XOFF_B] = { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC_XON_B] = { .type = NLA_U32 },
	[TCA_SLUICE_PORTFC_HQ]	= { .type = NLA_U8 },
	[TCA_SLUICE_PORTFC_HQ_DSCP] = { .type = NLA_U8 },
	[TCA_SLUICE_INT_PORT]	= { .type = NLA_U16 },
	[TCA_SLUICE_INT_NODE]	= { .type = NLA_U32 },
	[TCA_SLUICE_INT_LINK]	= { .type = NLA_U32 },
};

static const struct nla_policy sluice_class_policy[TCA_SLUICE_CLASS_MAX + 1] = {
	[TCA_SLUICE_CLASS_LIMIT] = { .type = NLA_U32 },
	[TCA_SLUICE_CLASS_ECN]	= { .type = NLA_U32 },
	[TCA_SLUICE_CLASS_QUANTUM] = { .type = NLA_U32 },
};

static const struct {
	u16	attr;
	u8	size;
} sluice_maps[SLUICE_NR_MAPS] = {
	[TC_SLUICE_TAG_PRIORITY] = { TCA_SLUICE_PRIO_MAP, TC_SLUICE_PRIO_VALUES },
	[TC_SLUICE_TAG_PCP]	= { TCA_SLUICE_PCP_MAP, TC_SLUICE_PCP_VALUES },
	[TC_SLUICE_TAG_DSCP]	= { TCA_SLUICE_DSCP_MAP, TC_SLUICE_DSCP_VALUES },
	[TC_SLUICE_TAG_MPLS_TC]	= { TCA_SLUICE_MPLS_TC_MAP,
				    TC_SLUICE_MPLS_TC_VALUES },
};

/* Spread the tag's range over the classes in order: v -> v * N / R. */
static void sluice_default_map(struct sluice_config *cfg, unsigned int tag)
{
	unsigned int size = sluice_maps[tag].size;
	unsigned int v;

	for (v = 0; v < size; v++)
		cfg->map[tag][v] = v * cfg->nclasses / size;
}

void sluice_config_default(struct sluice_config *cfg, struct Qdisc *sch)
{
	struct net_device *dev = qdisc_dev(sch);
	unsigned int tag;
	u64 limit;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nclasses = TC_SLUICE_DEFAULT_CLASSES;
	cfg->tag = TC_SLUICE_TAG_DSCP;
	/*
	 * As bfifo: a full transmit queue of MTU-sized frames, computed in
	 * 64 bits since both factors can be set large.
	 */
	limit = (u64)max_t(u32, READ_ONCE(dev->tx_queue_len), 1) *
		psched_mtu(dev);
	cfg->limit = min_t(u64, limit, TC_SLUICE_MAX_LIMIT);
	for (tag = 0; tag < SLUICE_NR_MAPS; tag++)
		sluice_default_map(cfg, tag);
	cfg->pause_rx = 1;
	cfg->pause_time = SLUICE_PAUSE_TIME;
	cfg->wd_action = TC_SLUICE_WD_DROP;
	cfg->wd_detect_ms = TC_SLUICE_WD_DETECT_DEFAULT;
	cfg->wd_restore_ms = TC_SLUICE_WD_RESTORE_DEFAULT;
	cfg->wd_poll_ms = TC_SLUICE_WD_POLL_DEFAULT;
	cfg->portfc_k = 1;
	cfg->portfc_label_base = TC_SLUICE_PORTFC_LABEL_BASE_DEFAULT;
	cfg->portfc_hq = TC_SLUICE_PORTFC_HQ_DEFAULT;
	cfg->portfc_hq_dscp = TC_SLUICE_PORTFC_DSCP_NONE;
}

/* Merge the entries of one map nest into map[], all or nothing. */
static int sluice_map_parse(u8 *map, unsigned int size, const struct nlattr *nest,
			    struct netlink_ext_ack *extack)
{
	u8 merged[SLUICE_MAP_MAX_VALUES];
	const struct tc_sluice_map_entry *e;
	DECLARE_BITMAP(seen, SLUICE_MAP_MAX_VALUES);
	const struct nlattr *attr;
	int rem;

	bitmap_zero(seen, SLUICE_MAP_MAX_VALUES);
	memcpy(merged, map, size);
	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != TCA_SLUICE_MAP_ENTRY) {
			SLUICE_ERR(extack, attr, "unknown attribute in a map");
			return -EINVAL;
		}
		if (nla_len(attr) != sizeof(*e)) {
			SLUICE_ERR(extack, attr, "map entry has the wrong size");
			return -EINVAL;
		}
		e = nla_data(attr);
		if (e->reserved) {
			SLUICE_ERR(extack, attr, "reserved field of a map entry is not zero");
			return -EINVAL;
		}
		if (e->value >= size) {
			SLUICE_ERR(extack, attr, "map entry value is beyond the tag's range");
			return -EINVAL;
		}
		if (e->tclass >= TC_SLUICE_MAX_CLASSES) {
			SLUICE_ERR(extack, attr, "map entry names a class above 31");
			return -EINVAL;
		}
		if (__test_and_set_bit(e->value, seen)) {
			SLUICE_ERR(extack, attr, "map names the same value twice");
			return -EINVAL;
		}
		merged[e->value] = e->tclass;
	}
	if (rem) {
		SLUICE_ERR(extack, nest, "trailing bytes in a map");
		return -EINVAL;
	}
	if (bitmap_empty(seen, SLUICE_MAP_MAX_VALUES)) {
		SLUICE_ERR(extack, nest, "map has no entries");
		return -EINVAL;
	}
	memcpy(map, merged, size);
	return 0;
}

static int sluice_scalars_parse(struct sluice_config *cfg, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	if (tb[TCA_SLUICE_CLASSES]) {
		u8 n = nla_get_u8(tb[TCA_SLUICE_CLASSES]);

		if (n < 1 || n > TC_SLUICE_MAX_CLASSES) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_CLASSES],
				   "number of classes must be 1 to 32");
			return -EINVAL;
		}
		cfg->nclasses = n;
	}
	if (tb[TCA_SLUICE_TAG]) {
		u8 tag = nla_get_u8(tb[TCA_SLUICE_TAG]);

		if (tag > TC_SLUICE_TAG_MAX) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_TAG],
				   "unknown tag source");
			return -EINVAL;
		}
		cfg->tag = tag;
	}
	if (tb[TCA_SLUICE_DEFAULT])
		cfg->defclass = nla_get_u8(tb[TCA_SLUICE_DEFAULT]);
	if (tb[TCA_SLUICE_LIMIT]) {
		u32 limit = nla_get_u32(tb[TCA_SLUICE_LIMIT]);

		if (!limit || limit > TC_SLUICE_MAX_LIMIT) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_LIMIT],
				   "limit must be 1 byte to 128 MiB - 1");
			return -EINVAL;
		}
		cfg->limit = limit;
	}
	return 0;
}

/* The link and PFC; pfc_check() (qdisc.c) adds what needs the qdisc. */
static int sluice_pfc_parse(struct sluice_config *cfg, struct nlattr **tb,
			    struct netlink_ext_ack *extack)
{
	if (tb[TCA_SLUICE_RATE]) {
		cfg->rate = nla_get_u64(tb[TCA_SLUICE_RATE]);
		if (cfg->rate > SLUICE_MAX_RATE) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_RATE],
				   "rate must be at most 512 Gbit/s");
			return -EINVAL;
		}
	}
	if (tb[TCA_SLUICE_PFC])
		cfg->pfc = nla_get_u8(tb[TCA_SLUICE_PFC]);
	if (tb[TCA_SLUICE_PAUSE_RX]) {
		u8 on = nla_get_u8(tb[TCA_SLUICE_PAUSE_RX]);

		if (on > 1) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_PAUSE_RX],
				   "pause-rx is 0 or 1");
			return -EINVAL;
		}
		cfg->pause_rx = on;
	}
	if (tb[TCA_SLUICE_PAUSE_TIME]) {
		cfg->pause_time = nla_get_u16(tb[TCA_SLUICE_PAUSE_TIME]);
		if (!cfg->pause_time) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_PAUSE_TIME],
				   "pause time must be at least 1 quantum");
			return -EINVAL;
		}
	}
	if (tb[TCA_SLUICE_XOFF])
		cfg->xoff = nla_get_u32(tb[TCA_SLUICE_XOFF]);
	if (tb[TCA_SLUICE_XON])
		cfg->xon = nla_get_u32(tb[TCA_SLUICE_XON]);
	if (tb[TCA_SLUICE_HEADROOM])
		cfg->headroom = nla_get_u32(tb[TCA_SLUICE_HEADROOM]);
	if (cfg->xoff > TC_SLUICE_MAX_LIMIT || cfg->headroom > TC_SLUICE_MAX_LIMIT) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_XOFF] ?: tb[TCA_SLUICE_HEADROOM],
			   "xoff and headroom must be below 128 MiB");
		return -EINVAL;
	}
	if (cfg->xon > cfg->xoff) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_XON] ?: tb[TCA_SLUICE_XOFF],
			   "xon must not be above xoff");
		return -EINVAL;
	}
	return 0;
}

/* A watchdog time in ms, within TC_SLUICE_WD_MIN_MS..TC_SLUICE_WD_MAX_MS. */
static int sluice_wd_time_parse(u32 *ms, const struct nlattr *attr,
				struct netlink_ext_ack *extack)
{
	if (!attr)
		return 0;
	*ms = nla_get_u32(attr);
	if (*ms < TC_SLUICE_WD_MIN_MS || *ms > TC_SLUICE_WD_MAX_MS) {
		SLUICE_ERR(extack, attr,
			   "watchdog times must be 10 to 60000 ms");
		return -EINVAL;
	}
	return 0;
}

/*
 * The PFC watchdog; pfc_check() (qdisc.c) adds what needs the qdisc, and
 * sluice_classes_check() the priorities' classes.
 */
static int sluice_wd_parse(struct sluice_config *cfg, struct nlattr **tb,
			   struct netlink_ext_ack *extack)
{
	int err;

	if (tb[TCA_SLUICE_WD_PRIOS])
		cfg->wd_prios = nla_get_u8(tb[TCA_SLUICE_WD_PRIOS]);
	if (tb[TCA_SLUICE_WD_ACTION]) {
		cfg->wd_action = nla_get_u8(tb[TCA_SLUICE_WD_ACTION]);
		if (cfg->wd_action > TC_SLUICE_WD_ACTION_MAX) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_WD_ACTION],
				   "unknown watchdog action");
			return -EINVAL;
		}
	}
	err = sluice_wd_time_parse(&cfg->wd_detect_ms, tb[TCA_SLUICE_WD_DETECT],
				   extack) ?:
	      sluice_wd_time_parse(&cfg->wd_restore_ms, tb[TCA_SLUICE_WD_RESTORE],
				   extack) ?:
	      sluice_wd_time_parse(&cfg->wd_poll_ms, tb[TCA_SLUICE_WD_POLL], extack);
	if (err)
		return err;
	if (cfg->wd_poll_ms > cfg->wd_detect_ms) {
		SLUICE_ERR(extack,
			   tb[TCA_SLUICE_WD_POLL] ?: tb[TCA_SLUICE_WD_DETECT],
			   "watchdog poll must not be above the detection time");
		return -EINVAL;
	}
	return 0;
}

/* The thresholds of one PortFC queue type, over the current ones. */
static int sluice_portfc_thresholds_parse(struct sluice_config *cfg,
					  struct nlattr **tb, unsigned int type,
					  int xoff_attr, int xon_attr,
					  struct netlink_ext_ack *extack)
{
	if (tb[xoff_attr])
		cfg->portfc_xoff[type] = nla_get_u32(tb[xoff_attr]);
	if (tb[xon_attr])
		cfg->portfc_xon[type] = nla_get_u32(tb[xon_attr]);
	if (cfg->portfc_xoff[type] > TC_SLUICE_MAX_LIMIT) {
		SLUICE_ERR(extack, tb[xoff_attr],
			   "portfc xoff thresholds must be below 128 MiB");
		return -EINVAL;
	}
	if (cfg->portfc_xon[type] > cfg->portfc_xoff[type]) {
		SLUICE_ERR(extack, tb[xon_attr] ?: tb[xoff_attr],
			   "a portfc xon threshold must not be above its xoff");
		return -EINVAL;
	}
	return 0;
}

/*
 * PortFC (uapi: "PortFC"): its settings, and the class count they imply;
 * sluice_portfc_check() (portfc.c) adds what needs the qdisc.
 */
static int sluice_portfc_parse(struct sluice_config *cfg, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	static const int attrs[] = {
		TCA_SLUICE_PORTFC_N, TCA_SLUICE_PORTFC_K,
		TCA_SLUICE_PORTFC_INDEX, TCA_SLUICE_PORTFC_LABEL_BASE,
		TCA_SLUICE_PORTFC_XOFF_A, TCA_SLUICE_PORTFC_XON_A,
		TCA_SLUICE_PORTFC_XOFF_B, TCA_SLUICE_PORTFC_XON_B,
		TCA_SLUICE_PORTFC_HQ, TCA_SLUICE_PORTFC_HQ_DSCP,
	};
	unsigned int i, classes;
	int err;

	if (tb[TCA_SLUICE_PORTFC]) {
		cfg->portfc = nla_get_u8(tb[TCA_SLUICE_PORTFC]);
		if (cfg->portfc > TC_SLUICE_PORTFC_ROLE_MAX) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC],
				   "unknown portfc role");
			return -EINVAL;
		}
	}
	if (!cfg->portfc) {
		for (i = 0; i < ARRAY_SIZE(attrs); i++) {
			if (!tb[attrs[i]])
				continue;
			SLUICE_ERR(extack, tb[attrs[i]],
				   "portfc options need a portfc role");
			return -EINVAL;
		}
		return 0;
	}
	if (tb[TCA_SLUICE_PORTFC_N])
		cfg->portfc_n = nla_get_u8(tb[TCA_SLUICE_PORTFC_N]);
	if (cfg->portfc_n < 2 || cfg->portfc_n > TC_SLUICE_PORTFC_MAX_N) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_N] ?: tb[TCA_SLUICE_PORTFC],
			   "portfc needs portfc-n, 2 to 16");
		return -EINVAL;
	}
	if (tb[TCA_SLUICE_PORTFC_K])
		cfg->portfc_k = nla_get_u8(tb[TCA_SLUICE_PORTFC_K]);
	if (cfg->portfc_k > TC_SLUICE_PORTFC_MAX_K) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_K],
			   "portfc-k must be 0 to 4");
		return -EINVAL;
	}
	if (tb[TCA_SLUICE_PORTFC_INDEX])
		cfg->portfc_index = nla_get_u8(tb[TCA_SLUICE_PORTFC_INDEX]);
	if (cfg->portfc_index >= cfg->portfc_n) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_INDEX] ?: tb[TCA_SLUICE_PORTFC_N],
			   "portfc-index must be below portfc-n");
		return -EINVAL;
	}
	if (tb[TCA_SLUICE_PORTFC_LABEL_BASE])
		cfg->portfc_label_base = nla_get_u32(tb[TCA_SLUICE_PORTFC_LABEL_BASE]);
	if (cfg->portfc_label_base + cfg->portfc_n - 1 >
	    (MPLS_LS_LABEL_MASK >> MPLS_LS_LABEL_SHIFT)) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_LABEL_BASE] ?: tb[TCA_SLUICE_PORTFC_N],
			   "portfc labels must be 20-bit labels");
		return -EINVAL;
	}
	err = sluice_portfc_thresholds_parse(cfg, tb, SLUICE_PORTFC_QA,
					     TCA_SLUICE_PORTFC_XOFF_A,
					     TCA_SLUICE_PORTFC_XON_A, extack) ?:
	      sluice_portfc_thresholds_parse(cfg, tb, SLUICE_PORTFC_QB,
					     TCA_SLUICE_PORTFC_XOFF_B,
					     TCA_SLUICE_PORTFC_XON_B, extack);
	if (err)
		return err;
	if (tb[TCA_SLUICE_PORTFC_HQ]) {
		cfg->portfc_hq = nla_get_u8(tb[TCA_SLUICE_PORTFC_HQ]);
		if (cfg->portfc_hq & ~TC_SLUICE_PORTFC_HQ_DEFAULT) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_HQ],
				   "portfc-hq names an unknown kind of frame");
			return -EINVAL;
		}
	}
	if (tb[TCA_SLUICE_PORTFC_HQ_DSCP]) {
		cfg->portfc_hq_dscp = nla_get_u8(tb[TCA_SLUICE_PORTFC_HQ_DSCP]);
		if (cfg->portfc_hq_dscp >= TC_SLUICE_DSCP_VALUES &&
		    cfg->portfc_hq_dscp != TC_SLUICE_PORTFC_DSCP_NONE) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_HQ_DSCP],
				   "portfc-hq-dscp must be 0 to 63, or 255 for none");
			return -EINVAL;
		}
	}
	classes = sluice_portfc_classes(cfg);
	if (classes > TC_SLUICE_MAX_CLASSES) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_PORTFC_N] ?: tb[TCA_SLUICE_PORTFC],
			   "a portfc server port needs (k + 1) n + 2 classes: more than 32");
		return -EINVAL;
	}
	if (tb[TCA_SLUICE_CLASSES] && nla_get_u8(tb[TCA_SLUICE_CLASSES]) != classes) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_CLASSES],
			   "portfc sets the classes: n + 2 at a switch port, (k + 1) n + 2 at a server port");
		return -EINVAL;
	}
	cfg->nclasses = classes;
	return 0;
}

/*
 * In-band telemetry: any port, node and link are valid (port 0 turns
 * stamping off); sluice_int_check() (int.c) adds what needs the qdisc.
 */
static void sluice_int_parse(struct sluice_config *cfg, struct nlattr **tb)
{
	if (tb[TCA_SLUICE_INT_PORT])
		cfg->int_port = nla_get_u16(tb[TCA_SLUICE_INT_PORT]);
	if (tb[TCA_SLUICE_INT_NODE])
		cfg->int_node = nla_get_u32(tb[TCA_SLUICE_INT_NODE]);
	if (tb[TCA_SLUICE_INT_LINK])
		cfg->int_link = nla_get_u32(tb[TCA_SLUICE_INT_LINK]);
}

/* Every class a configuration names must exist. */
static int sluice_classes_check(const struct sluice_config *cfg, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	unsigned int prios = min_t(unsigned int, cfg->nclasses, SLUICE_NR_PRIOS);
	unsigned int tag, v;

	/* A PortFC port's watchdog watches all its data classes. */
	if (!cfg->portfc && cfg->wd_prios & ~(BIT(prios) - 1)) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_WD_PRIOS] ?: tb[TCA_SLUICE_CLASSES],
			   "watchdog names a priority beyond the number of classes");
		return -EINVAL;
	}
	if (cfg->defclass >= cfg->nclasses) {
		SLUICE_ERR(extack, tb[TCA_SLUICE_DEFAULT] ?: tb[TCA_SLUICE_CLASSES],
			   "default class must be below the number of classes");
		return -EINVAL;
	}
	for (tag = 0; tag < SLUICE_NR_MAPS; tag++) {
		for (v = 0; v < sluice_maps[tag].size; v++) {
			if (cfg->map[tag][v] < cfg->nclasses)
				continue;
			SLUICE_ERR(extack,
				   tb[sluice_maps[tag].attr] ?: tb[TCA_SLUICE_CLASSES],
				   "a map names a class beyond the number of classes");
			return -EINVAL;
		}
	}
	return 0;
}

static int sluice_maps_parse(struct sluice_config *cfg, struct nlattr **tb,
			     struct netlink_ext_ack *extack)
{
	u8 reset = 0;
	unsigned int tag;
	int err;

	if (tb[TCA_SLUICE_DEFAULT_MAPS]) {
		reset = nla_get_u8(tb[TCA_SLUICE_DEFAULT_MAPS]);
		if (reset & ~(BIT(SLUICE_NR_MAPS) - 1)) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_DEFAULT_MAPS],
				   "default maps name an unknown map");
			return -EINVAL;
		}
		cfg->custom_maps &= ~reset;
	}
	for (tag = 0; tag < SLUICE_NR_MAPS; tag++) {
		struct nlattr *nest = tb[sluice_maps[tag].attr];

		/*
		 * A default map follows the class count, also when this
		 * request sets some of its entries: the others must be
		 * defaults for the new count.
		 */
		if (!(cfg->custom_maps & BIT(tag)))
			sluice_default_map(cfg, tag);
		if (!nest)
			continue;
		if (reset & BIT(tag)) {
			SLUICE_ERR(extack, nest,
				   "a map cannot be both reset to default and set");
			return -EINVAL;
		}
		err = sluice_map_parse(cfg->map[tag], sluice_maps[tag].size, nest,
				       extack);
		if (err)
			return err;
		cfg->custom_maps |= BIT(tag);
	}
	return 0;
}

/*
 * Parse opt over cfg, which holds the current (or default) configuration.
 * On error cfg is garbage and the caller must not commit it.
 */
int sluice_config_parse(struct sluice_config *cfg, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_SLUICE_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_SLUICE_MAX, opt, sluice_policy, extack);
	if (err < 0)
		return err;
	err = sluice_scalars_parse(cfg, tb, extack);
	if (err)
		return err;
	err = sluice_portfc_parse(cfg, tb, extack);
	if (err)
		return err;
	err = sluice_maps_parse(cfg, tb, extack);
	if (err)
		return err;
	err = sluice_pfc_parse(cfg, tb, extack);
	if (err)
		return err;
	err = sluice_wd_parse(cfg, tb, extack);
	if (err)
		return err;
	sluice_int_parse(cfg, tb);
	return sluice_classes_check(cfg, tb, extack);
}

static int sluice_map_dump(const u8 *map, unsigned int size, int attr,
			   struct sk_buff *skb)
{
	struct tc_sluice_map_entry e = {};
	struct nlattr *nest;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	for (e.value = 0; e.value < size; e.value++) {
		e.tclass = map[e.value];
		if (nla_put(skb, TCA_SLUICE_MAP_ENTRY, sizeof(e), &e))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Fills the already opened TCA_OPTIONS nest; the caller cancels on error. */
int sluice_config_dump(const struct sluice_config *cfg, struct sk_buff *skb)
{
	unsigned int tag;

	if (nla_put_u8(skb, TCA_SLUICE_CLASSES, cfg->nclasses) ||
	    nla_put_u8(skb, TCA_SLUICE_TAG, cfg->tag) ||
	    nla_put_u8(skb, TCA_SLUICE_DEFAULT, cfg->defclass) ||
	    nla_put_u32(skb, TCA_SLUICE_LIMIT, cfg->limit) ||
	    nla_put_u8(skb, TCA_SLUICE_DEFAULT_MAPS,
		       ~cfg->custom_maps & (BIT(SLUICE_NR_MAPS) - 1)) ||
	    nla_put_u64_64bit(skb, TCA_SLUICE_RATE, cfg->rate,
			      TCA_SLUICE_PAD) ||
	    nla_put_u8(skb, TCA_SLUICE_PFC, cfg->pfc) ||
	    nla_put_u8(skb, TCA_SLUICE_PAUSE_RX, cfg->pause_rx) ||
	    nla_put_u32(skb, TCA_SLUICE_XOFF, cfg->xoff) ||
	    nla_put_u32(skb, TCA_SLUICE_XON, cfg->xon) ||
	    nla_put_u32(skb, TCA_SLUICE_HEADROOM, cfg->headroom) ||
	    nla_put_u16(skb, TCA_SLUICE_PAUSE_TIME, cfg->pause_time) ||
	    nla_put_u8(skb, TCA_SLUICE_WD_PRIOS, cfg->wd_prios) ||
	    nla_put_u8(skb, TCA_SLUICE_WD_ACTION, cfg->wd_action) ||
	    nla_put_u32(skb, TCA_SLUICE_WD_DETECT, cfg->wd_detect_ms) ||
	    nla_put_u32(skb, TCA_SLUICE_WD_RESTORE, cfg->wd_restore_ms) ||
	    nla_put_u32(skb, TCA_SLUICE_WD_POLL, cfg->wd_poll_ms))
		return -EMSGSIZE;
	for (tag = 0; tag < SLUICE_NR_MAPS; tag++) {
		if (sluice_map_dump(cfg->map[tag], sluice_maps[tag].size,
				    sluice_maps[tag].attr, skb))
			return -EMSGSIZE;
	}
	/* PortFC only where it is on: older readers see what they knew. */
	if (cfg->portfc &&
	    (nla_put_u8(skb, TCA_SLUICE_PORTFC, cfg->portfc) ||
	     nla_put_u8(skb, TCA_SLUICE_PORTFC_N, cfg->portfc_n) ||
	     nla_put_u8(skb, TCA_SLUICE_PORTFC_K, cfg->portfc_k) ||
	     nla_put_u8(skb, TCA_SLUICE_PORTFC_INDEX, cfg->portfc_index) ||
	     nla_put_u32(skb, TCA_SLUICE_PORTFC_LABEL_BASE,
			 cfg->portfc_label_base) ||
	     nla_put_u32(skb, TCA_SLUICE_PORTFC_XOFF_A,
			 cfg->portfc_xoff[SLUICE_PORTFC_QA]) ||
	     nla_put_u32(skb, TCA_SLUICE_PORTFC_XON_A,
			 cfg->portfc_xon[SLUICE_PORTFC_QA]) ||
	     nla_put_u32(skb, TCA_SLUICE_PORTFC_XOFF_B,
			 cfg->portfc_xoff[SLUICE_PORTFC_QB]) ||
	     nla_put_u32(skb, TCA_SLUICE_PORTFC_XON_B,
			 cfg->portfc_xon[SLUICE_PORTFC_QB]) ||
	     nla_put_u8(skb, TCA_SLUICE_PORTFC_HQ, cfg->portfc_hq) ||
	     nla_put_u8(skb, TCA_SLUICE_PORTFC_HQ_DSCP, cfg->portfc_hq_dscp)))
		return -EMSGSIZE;
	/* INT only where any of it is set, for the same reason. */
	if ((cfg->int_port || cfg->int_node || cfg->int_link) &&
	    (nla_put_u16(skb, TCA_SLUICE_INT_PORT, cfg->int_port) ||
	     nla_put_u32(skb, TCA_SLUICE_INT_NODE, cfg->int_node) ||
	     nla_put_u32(skb, TCA_SLUICE_INT_LINK, cfg->int_link)))
		return -EMSGSIZE;
	return 0;
}

/* The options of "tc class change": over the current values in *o. */
int sluice_class_opts_parse(struct nlattr *opt, struct sluice_class_opts *o,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_SLUICE_CLASS_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_SLUICE_CLASS_MAX, opt,
			       sluice_class_policy, extack);
	if (err < 0)
		return err;
	if (tb[TCA_SLUICE_CLASS_LIMIT]) {
		o->limit = nla_get_u32(tb[TCA_SLUICE_CLASS_LIMIT]);
		if (!o->limit || o->limit > TC_SLUICE_MAX_LIMIT) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_CLASS_LIMIT],
				   "limit must be 1 byte to 128 MiB - 1");
			return -EINVAL;
		}
	}
	if (tb[TCA_SLUICE_CLASS_ECN]) {
		o->ecn = nla_get_u32(tb[TCA_SLUICE_CLASS_ECN]);
		if (o->ecn > TC_SLUICE_MAX_LIMIT) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_CLASS_ECN],
				   "ecn threshold must be below 128 MiB");
			return -EINVAL;
		}
	}
	if (tb[TCA_SLUICE_CLASS_QUANTUM]) {
		o->quantum = nla_get_u32(tb[TCA_SLUICE_CLASS_QUANTUM]);
		if (o->quantum && (o->quantum < TC_SLUICE_MIN_QUANTUM ||
				   o->quantum > TC_SLUICE_MAX_LIMIT)) {
			SLUICE_ERR(extack, tb[TCA_SLUICE_CLASS_QUANTUM],
				   "quantum must be 0 (strict) or 256 bytes to 128 MiB - 1");
			return -EINVAL;
		}
	}
	return 0;
}
