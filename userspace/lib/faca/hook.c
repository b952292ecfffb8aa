// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook (sluice/faca_hook.h): NFQUEUE through libnetfilter_queue's
 * libmnl interface, a verdict per new flow, and the hook's life (bound
 * before the table goes in, table out before the queue goes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <libmnl/libmnl.h>
#include <linux/capability.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <nftables/libnftables.h>
#include <sluice/faca_hook.h>

#include "../graph/internal.h"
#include "hook.h"

/* Bytes of each queued packet copied to us: the longest IPv4 header (60)
 * and the ports behind it fit. */
#define COPY_RANGE	128
#define RECV_BUF	8192

struct sluice_faca_hook {
	struct mnl_socket	*nl;
	unsigned int		portid;
	uint16_t		queue;
	struct nft_ctx		*nft;
	struct nfct_handle	*ct;
	bool			installed;
	sluice_faca_choose_fn	choose;
	void			*ctx;
	void			(*report)(void *ctx, const struct sluice_faca_flow *f);
	uint8_t			in_map[65536 / 8];	/* ports the map holds */
	struct sluice_faca_hook_stats st;
	/* a verdict failed in a callback: its error, for process() */
	int			verdict_err;
	char			buf[RECV_BUF];
};

static bool map_has(const struct sluice_faca_hook *h, uint16_t port)
{
	return h->in_map[port / 8] & (1u << (port % 8));
}

static void map_set(struct sluice_faca_hook *h, uint16_t port)
{
	h->in_map[port / 8] |= 1u << (port % 8);
	h->st.map_ports++;
}

/* Whether this process has CAP_NET_ADMIN in its effective set. */
static bool net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective &
	       CAP_TO_MASK(CAP_NET_ADMIN);
}

/* Sends a queue config message and waits for its acknowledgement. */
static int queue_config(struct mnl_socket *nl, unsigned int portid,
			struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;

	nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	return mnl_cb_run(buf, n, 1, portid, NULL, NULL) < 0 ? -errno : 0;
}

/*
 * A netlink socket bound to NFQUEUE @queue, copying COPY_RANGE bytes of
 * each packet, fail-open: a full queue lets packets through unqueued.
 */
static int queue_bind(uint16_t queue, struct mnl_socket **nlp,
		      unsigned int *portid, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	int one = 1, ret;

	nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!nl)
		return sluice_i_errf(err, errlen, -errno, "cannot open a netfilter netlink socket: %s",
				     strerror(errno));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		mnl_socket_close(nl);
		return sluice_i_errf(err, errlen, ret, "cannot bind a netlink socket: %s",
				     strerror(-ret));
	}
	/* Lost messages are packets the kernel let through: no error. */
	mnl_socket_setsockopt(nl, NETLINK_NO_ENOBUFS, &one, sizeof(one));
	*portid = mnl_socket_get_portid(nl);

	nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, queue);
	nfq_nlmsg_cfg_put_cmd(nlh, AF_INET, NFQNL_CFG_CMD_BIND);
	ret = queue_config(nl, *portid, nlh);
	/* the kernel says EPERM for a queue someone holds, as for no right */
	if (ret == -EPERM && net_admin()) {
		sluice_i_errf(err, errlen, -EBUSY, "NFQUEUE %u is bound by another program (a hook already running?)",
			      queue);
		ret = -EBUSY;
		goto fail;
	}
	if (ret) {
		sluice_i_errf(err, errlen, ret, "cannot bind NFQUEUE %u: %s%s",
			      queue, strerror(-ret),
			      ret == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
		goto fail;
	}
	nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, queue);
	nfq_nlmsg_cfg_put_params(nlh, NFQNL_COPY_PACKET, COPY_RANGE);
	mnl_attr_put_u32(nlh, NFQA_CFG_FLAGS, htonl(NFQA_CFG_F_FAIL_OPEN));
	mnl_attr_put_u32(nlh, NFQA_CFG_MASK, htonl(NFQA_CFG_F_FAIL_OPEN));
	ret = queue_config(nl, *portid, nlh);
	if (ret) {
		sluice_i_errf(err, errlen, ret, "cannot configure NFQUEUE %u: %s",
			      queue, strerror(-ret));
		goto fail;
	}
	*nlp = nl;
	return 0;
fail:
	mnl_socket_close(nl);
	return ret;
}

/*
 * A hook table already there: a killed hook's is replaced; one whose queue
 * someone holds belongs to a running hook, and one that is no hook's
 * belongs to someone else.  Either is refused.
 */
static int table_check(struct sluice_faca_hook *h, char *err, size_t errlen)
{
	struct mnl_socket *nl;
	unsigned int queue, portid;
	char msg[128];
	int ret;

	ret = faca_nft_table_queue(h->nft, &queue);
	if (ret == -ENOENT)
		return 0;
	if (ret == -EEXIST)
		return sluice_i_errf(err, errlen, -EEXIST, "table ip %s exists and is not a sluice hook's: not replacing it",
				     SLUICE_FACA_HOOK_TABLE);
	if (queue == h->queue)	/* we hold it: its hook is gone */
		return 0;
	ret = queue_bind(queue, &nl, &portid, msg, sizeof(msg));
	if (ret == -EBUSY)
		return sluice_i_errf(err, errlen, -EBUSY, "a hook on NFQUEUE %u runs in this network namespace (table ip %s)",
				     queue, SLUICE_FACA_HOOK_TABLE);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "%s", msg);
	mnl_socket_close(nl);
	return 0;
}

static int install(struct sluice_faca_hook *h,
		   const struct sluice_faca_hook_cfg *cfg, char *err,
		   size_t errlen)
{
	size_t len = 4096 + cfg->n_dst * 48;
	unsigned int p;
	char *text;
	int ret;

	if (cfg->sport_min)
		len += (size_t)(cfg->sport_max - cfg->sport_min + 1) * 24;
	text = malloc(len);
	if (!text)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	ret = sluice_faca_hook_ruleset(cfg, text, len);
	if (ret < 0) {
		free(text);
		return sluice_i_errf(err, errlen, ret, "the hook's configuration is not valid");
	}
	ret = faca_nft_run(h->nft, text, err, errlen);
	free(text);
	if (ret)
		return ret;
	h->installed = true;
	for (p = cfg->sport_min; cfg->sport_min && p <= cfg->sport_max; p++)
		map_set(h, p);
	return 0;
}

int sluice_faca_hook_open(struct sluice_faca_hook **hp,
			  const struct sluice_faca_hook_cfg *cfg,
			  sluice_faca_choose_fn choose, void *ctx, char *err,
			  size_t errlen)
{
	struct sluice_faca_hook *h;
	char buf[4096];
	int ret;

	*hp = NULL;
	if (!choose)
		return sluice_i_errf(err, errlen, -EINVAL, "no chooser");
	if (sluice_faca_hook_ruleset(cfg, buf, sizeof(buf)) == -EINVAL)
		return sluice_i_errf(err, errlen, -EINVAL, "the hook's configuration is not valid");
	h = calloc(1, sizeof(*h));
	if (!h)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	h->queue = cfg->queue;
	h->choose = choose;
	h->ctx = ctx;
	h->report = cfg->report;
	ret = queue_bind(cfg->queue, &h->nl, &h->portid, err, errlen);
	if (ret)
		goto fail;
	h->nft = faca_nft_new(err, errlen);
	if (!h->nft) {
		ret = -ENOMEM;
		goto fail;
	}
	h->ct = faca_ct_open(err, errlen);
	if (!h->ct) {
		ret = -EIO;
		goto fail;
	}
	ret = table_check(h, err, errlen);
	if (!ret)
		ret = install(h, cfg, err, errlen);
	if (ret)
		goto fail;
	*hp = h;
	return 0;
fail:
	sluice_faca_hook_close(h);	/* nothing installed: removes nothing */
	return ret;
}

int sluice_faca_hook_fd(const struct sluice_faca_hook *h)
{
	return mnl_socket_get_fd(h->nl);
}

/* The flow a queued IPv4 packet starts; false if it is not TCP/UDP. */
static bool flow_parse(const uint8_t *p, size_t len, struct sluice_faca_flow *f)
{
	uint16_t port;
	size_t ihl;

	if (len < 20 || p[0] >> 4 != 4)
		return false;
	ihl = (p[0] & 0x0f) * 4u;
	f->proto = p[9];
	if (ihl < 20 || len < ihl + 4 ||
	    (f->proto != IPPROTO_TCP && f->proto != IPPROTO_UDP))
		return false;
	memcpy(&f->saddr, p + 12, 4);
	memcpy(&f->daddr, p + 16, 4);
	memcpy(&port, p + ihl, 2);
	f->sport = ntohs(port);
	memcpy(&port, p + ihl + 2, 2);
	f->dport = ntohs(port);
	return true;
}

static int verdict(struct sluice_faca_hook *h, uint32_t id, uint32_t mark)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nfq_nlmsg_put(buf, NFQNL_MSG_VERDICT, h->queue);
	nfq_nlmsg_verdict_put(nlh, id, NF_ACCEPT);
	if (mark)
		nfq_nlmsg_verdict_put_mark(nlh, mark);
	return mnl_socket_sendto(h->nl, nlh, nlh->nlmsg_len) < 0 ? -errno : 0;
}

/*
 * One flow: the chooser's port, into the map if the map lacks it, then
 * the verdict.  The verdict is processed while sendto() runs (the packet
 * goes on through postrouting's NAT in the kernel's verdict path), so
 * when this returns the flow's binding is made and the next choice sees
 * it in conntrack.
 */
static void decide(struct sluice_faca_hook *h, struct sluice_faca_flow *f)
{
	char msg[160];	/* nft's words: the flow's report carries the errno */
	int ret;

	f->new_sport = f->sport;
	ret = h->choose(h->ctx, f->saddr, f->daddr, f->sport, f->dport,
			f->proto, &f->new_sport);
	if (!ret && !f->new_sport)
		ret = -EINVAL;
	if (ret) {
		f->new_sport = f->sport;
		f->outcome = SLUICE_FACA_REFUSED;
		f->error = ret;
		h->st.refused++;
		return;
	}
	if (f->new_sport == f->sport) {
		f->outcome = SLUICE_FACA_KEPT;
		h->st.kept++;
		return;
	}
	if (!map_has(h, f->new_sport)) {
		ret = faca_nft_map_add(h->nft, f->new_sport, msg, sizeof(msg));
		if (ret) {
			f->new_sport = f->sport;
			f->outcome = SLUICE_FACA_FAILED;
			f->error = ret;
			h->st.failed++;
			return;
		}
		map_set(h, f->new_sport);
	}
	f->outcome = SLUICE_FACA_REWRITTEN;
	h->st.rewritten++;
}

static int queued(const struct nlmsghdr *nlh, void *data)
{
	struct sluice_faca_hook *h = data;
	struct nlattr *attr[NFQA_MAX + 1] = { NULL };
	struct nfqnl_msg_packet_hdr *ph;
	struct sluice_faca_flow f = { 0 };
	uint32_t mark = 0;
	int ret;

	if (nfq_nlmsg_parse(nlh, attr) < 0 || !attr[NFQA_PACKET_HDR])
		return MNL_CB_OK;	/* not a packet: nothing to answer */
	ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
	h->st.queued++;
	if (!attr[NFQA_PAYLOAD] ||
	    !flow_parse(mnl_attr_get_payload(attr[NFQA_PAYLOAD]),
			mnl_attr_get_payload_len(attr[NFQA_PAYLOAD]), &f)) {
		h->st.failed++;
	} else {
		decide(h, &f);
		if (f.outcome == SLUICE_FACA_REWRITTEN)
			mark = SLUICE_FACA_HOOK_MARK | f.new_sport;
	}
	ret = verdict(h, ntohl(ph->packet_id), mark);
	if (ret) {
		h->verdict_err = ret;
		return MNL_CB_ERROR;
	}
	if (h->report && f.proto)
		h->report(h->ctx, &f);
	return MNL_CB_OK;
}

/*
 * The kernel answers a verdict it cannot apply (its packet dropped
 * meanwhile, e.g. with its device) with an error: counted, not fatal.
 */
static int verdict_refused(const struct nlmsghdr *nlh, void *data)
{
	struct sluice_faca_hook *h = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(*e)) && e->error)
		h->st.refused_verdicts++;
	return MNL_CB_OK;
}

int sluice_faca_hook_process(struct sluice_faca_hook *h, char *err,
			     size_t errlen)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = verdict_refused,
	};
	uint64_t before = h->st.queued;
	ssize_t n;
	int ret;

	for (;;) {
		n = recv(mnl_socket_get_fd(h->nl), h->buf, sizeof(h->buf),
			 MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sluice_i_errf(err, errlen, -errno, "NFQUEUE %u: %s",
					     h->queue, strerror(errno));
		h->verdict_err = 0;
		ret = mnl_cb_run2(h->buf, n, 0, h->portid, queued, h, ctl,
				  NLMSG_MIN_TYPE);
		if (ret < 0 && h->verdict_err)
			return sluice_i_errf(err, errlen, h->verdict_err, "NFQUEUE %u: cannot send a verdict: %s",
					     h->queue, strerror(-h->verdict_err));
		if (ret < 0)
			return sluice_i_errf(err, errlen, -errno, "NFQUEUE %u: %s",
					     h->queue, strerror(errno));
	}
	return h->st.queued - before;
}

int sluice_faca_hook_port_taken(struct sluice_faca_hook *h, uint32_t saddr,
				uint32_t daddr, uint16_t sport, uint16_t dport,
				uint8_t proto)
{
	/* NAT looks up the new flow's reply: from the destination to us */
	return faca_ct_tuple_taken(h->ct, proto, daddr, dport, saddr, sport);
}

void sluice_faca_hook_stats(const struct sluice_faca_hook *h,
			    struct sluice_faca_hook_stats *st)
{
	*st = h->st;
}

/* Packets still queued go on with their own port. */
static int let_through(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr[NFQA_MAX + 1] = { NULL };
	struct nfqnl_msg_packet_hdr *ph;

	if (nfq_nlmsg_parse(nlh, attr) < 0 || !attr[NFQA_PACKET_HDR])
		return MNL_CB_OK;
	ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
	verdict(data, ntohl(ph->packet_id), 0);
	return MNL_CB_OK;
}

/*
 * Unbinding drops what waits for a verdict (TCP would wait a second to
 * send its SYN again): everything queued before the table went is let
 * through first.
 */
static void drain(struct sluice_faca_hook *h)
{
	ssize_t n;

	while ((n = recv(mnl_socket_get_fd(h->nl), h->buf, sizeof(h->buf),
			 MSG_DONTWAIT)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			mnl_cb_run(h->buf, n, 0, h->portid, let_through, h);
}

int sluice_faca_hook_close(struct sluice_faca_hook *h)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], msg[160];
	struct nlmsghdr *nlh;
	unsigned int queue;
	int open = 0;

	if (!h)
		return 0;
	/*
	 * Without the table, nothing more is queued to a closing socket; but
	 * with our NAT chain gone, the flows we rewrote would lose their
	 * translation (the kernel registers NAT's hooks only while some NAT
	 * chain exists): while any is open, leave the table as a killed hook
	 * would, bypassed.
	 */
	if (h->installed && !faca_nft_table_queue(h->nft, &queue) &&
	    queue == h->queue) {
		open = faca_ct_count_open(h->ct, h->in_map);
		if (!open)
			faca_nft_table_delete(h->nft, msg, sizeof(msg));
	}
	if (h->nl) {
		drain(h);
		nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, h->queue);
		nfq_nlmsg_cfg_put_cmd(nlh, AF_INET, NFQNL_CFG_CMD_UNBIND);
		mnl_socket_sendto(h->nl, nlh, nlh->nlmsg_len);
		mnl_socket_close(h->nl);
	}
	faca_ct_close(h->ct);
	if (h->nft)
		nft_ctx_free(h->nft);
	free(h);
	return open;
}
