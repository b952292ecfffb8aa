// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A client of the "sluice" generic netlink family (sluice/switch.h), on
 * libnl-genl-3.
 *
 * Requests go out with NETLINK_EXT_ACK, so that a rejection comes back
 * with the kernel's message, and NETLINK_CAP_ACK, so that the error does
 * not echo a MAP_LOAD of a megabyte.  libnl (3.7) hands the error callback
 * the struct nlmsgerr only; the message header sits right before it in the
 * receive buffer, and its NLM_F_CAPPED and NLM_F_ACK_TLVS flags say where
 * the extended ack attributes start.  A dump's error comes in NLMSG_DONE
 * instead: an int, then the attributes.
 *
 * Replies are copied into plain structs.  Binary structs are append-only
 * (uapi): a shorter attribute from an older kernel leaves the rest zero,
 * a longer one from a newer kernel is cut to what this library knows.
 * Attributes this library does not know are skipped.
 *
 * A connection names a namespace once, at sluice_nl_open(): the socket is
 * created inside it and keeps it, and the calling thread returns to its
 * own namespace.  Device names are resolved through the same socket
 * (SIOCGIFINDEX on a socket asks the socket's namespace), so a caller
 * never has to enter the namespace itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <sluice/fabric_nl.h>
#include <sluice/switch.h>
#include "graph/internal.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* How often a dump that a concurrent change interrupted is tried. */
#define DUMP_TRIES	5
/* Room for the attribute that says which generation a load expects. */
#define LOAD_SLACK	64

struct sluice_nl {
	struct nl_sock	*sk;
	int		family;
	int		events;		/* the "events" group's id */
	bool		subscribed;
};

/* What one request's replies said. */
struct req {
	struct sluice_nl *nl;
	/* called with each reply's attributes; an errno on failure */
	int		(*parse)(struct req *r, struct nlattr *attrs, int len,
				 uint32_t flags);
	void		*arg;
	bool		done;
	bool		intr;		/* NLM_F_DUMP_INTR seen */
	int		error;		/* the kernel's errno */
	int		parse_error;	/* ours, from @parse */
	char		ext[SLUICE_ERRLEN];	/* extack message */
	/* NLMSGERR_ATTR_OFFS: the offending attribute's offset, or -1 */
	int64_t		offs;
};

/* Takes @a's payload into @dst (@size bytes), zero-filled beyond it. */
static void copy_struct(void *dst, size_t size, const struct nlattr *a)
{
	size_t n = nla_len(a);

	memset(dst, 0, size);
	memcpy(dst, nla_data(a), n < size ? n : size);
}

static bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (nla_len(a) < (int)sizeof(uint32_t))
		return false;
	*v = nla_get_u32(a);
	return true;
}

static bool get_u8(const struct nlattr *a, uint8_t *v)
{
	if (nla_len(a) < 1)
		return false;
	*v = nla_get_u8(a);
	return true;
}

/* A string attribute into @buf: NUL-terminated within its length. */
static bool get_name(const struct nlattr *a, char buf[SLUICE_IFNAMSIZ])
{
	const char *s = nla_data(a);
	int n = nla_len(a);

	if (n < 1 || !memchr(s, '\0', n) || strlen(s) >= SLUICE_IFNAMSIZ)
		return false;
	strcpy(buf, s);
	return true;
}

/* The extended ack attributes at @attrs: the message into r->ext, the
 * offending attribute's offset into r->offs.
 */
static void take_ext(struct req *r, struct nlattr *attrs, int len)
{
	struct nlattr *a;
	const char *s;
	int rem;

	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) == NLMSGERR_ATTR_OFFS &&
		    nla_len(a) >= (int)sizeof(uint32_t))
			r->offs = nla_get_u32(a);
		if (nla_type(a) != NLMSGERR_ATTR_MSG || nla_len(a) < 1)
			continue;
		s = nla_data(a);
		snprintf(r->ext, sizeof(r->ext), "%.*s", nla_len(a), s);
	}
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *h = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct req *r = arg;
	size_t off = sizeof(*e);

	(void)who;
	r->error = -e->error;
	r->done = true;
	/* uncapped, the whole request follows before the attributes */
	if (!(h->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    h->nlmsg_len >= NLMSG_HDRLEN + off)
		take_ext(r, (struct nlattr *)((char *)e + NLMSG_ALIGN(off)),
			 h->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(off));
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

/* NLMSG_DONE: the end of a dump, or the error that ended it. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct req *r = arg;
	int code;

	r->done = true;
	if (nlmsg_datalen(h) < (int)sizeof(int))
		return NL_STOP;
	memcpy(&code, nlmsg_data(h), sizeof(code));
	if (code < 0) {
		r->error = -code;
		if (h->nlmsg_flags & NLM_F_ACK_TLVS)
			take_ext(r, (struct nlattr *)((char *)nlmsg_data(h) +
						      NLMSG_ALIGN(sizeof(int))),
				 nlmsg_datalen(h) - NLMSG_ALIGN(sizeof(int)));
	}
	return NL_STOP;
}

static int on_intr(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->intr = true;
	return NL_OK;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct req *r = arg;
	struct genlmsghdr *g;
	int ret;

	if (h->nlmsg_type != r->nl->family || !genlmsg_valid_hdr(h, 0))
		return NL_SKIP;
	g = nlmsg_data(h);
	if (!r->parse || r->parse_error)
		return NL_OK;
	ret = r->parse(r, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
		       h->nlmsg_flags);
	if (ret)
		r->parse_error = ret;
	return NL_OK;
}

/*
 * Sends @msg (freed) and reads the replies until the ack, the error or
 * the end of the dump.  Returns 0, -EINTR for an interrupted dump (the
 * replies were still all read), or a negative errno with "WHAT: ..." in
 * @err.
 */
static int transact(struct sluice_nl *nl, struct nl_msg *msg,
		    const char *what, struct req *r, char *err,
		    size_t errlen)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	r->nl = nl;
	r->offs = -1;
	if (!cb) {
		nlmsg_free(msg);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, r);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_intr, r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, r);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		nl_cb_put(cb);
		/* libnl's codes lose the errno; EMSGSIZE is the one to tell */
		return sluice_i_errf(err, errlen, -EIO, "%s: cannot send: %s",
				     what, nl_geterror(ret));
	}
	while (!r->done) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !r->error) {
			nl_cb_put(cb);
			return sluice_i_errf(err, errlen, -EIO, "%s: %s", what,
					     nl_geterror(ret));
		}
		if (ret < 0)
			break;
	}
	nl_cb_put(cb);
	if (r->error)
		return sluice_i_errf(err, errlen, -r->error, "%s: %s%s%s", what,
				     strerror(r->error), r->ext[0] ? ": " : "",
				     r->ext);
	if (r->parse_error)
		return sluice_i_errf(err, errlen, r->parse_error,
				     "%s: %s in the kernel's reply", what,
				     r->parse_error == -ENOMEM ?
				     "out of memory" : "a malformed attribute");
	return r->intr ? -EINTR : 0;
}

/* A request for @cmd, flags @flags; NULL when out of memory. */
static struct nl_msg *request(struct sluice_nl *nl, uint8_t cmd, int flags,
			      size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, SLUICE_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/* A socket of the family, and the ids it needs. */
static int connect_family(struct sluice_nl *nl, char *err, size_t errlen)
{
	int one = 1, ret;

	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return no_memory(err, errlen);
	ret = genl_connect(nl->sk);
	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot open a generic netlink socket: %s",
				     nl_geterror(ret));
	nl->family = genl_ctrl_resolve(nl->sk, SLUICE_GENL_NAME);
	if (nl->family == -NLE_OBJ_NOTFOUND)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "generic netlink family \"%s\" not found (is sch_sluice loaded?)",
				     SLUICE_GENL_NAME);
	if (nl->family < 0)
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot resolve generic netlink family \"%s\": %s",
				     SLUICE_GENL_NAME, nl_geterror(nl->family));
	nl->events = genl_ctrl_resolve_grp(nl->sk, SLUICE_GENL_NAME,
					   SLUICE_GENL_MCGRP_EVENTS);
	if (nl->events < 0)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "generic netlink family \"%s\" has no group \"%s\": %s",
				     SLUICE_GENL_NAME, SLUICE_GENL_MCGRP_EVENTS,
				     nl_geterror(nl->events));
	/* kernels before 4.12 lack extended acks: errors are then bare */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	return 0;
}

/**
 * sluice_nl_open() - connect to the switch of a namespace
 * @nl:		set to the connection; sluice_nl_close() it
 * @netns:	a name under /run/netns (as "ip -n"), or NULL for the
 *		caller's namespace
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * The calling thread enters @netns for the time it takes to make the
 * socket, then returns to its own.
 *
 * Return: 0; -ENOENT when the family is not there (the module is not
 * loaded) or the namespace does not exist; another negative errno.
 */
int sluice_nl_open(struct sluice_nl **nl, const char *netns, char *err,
		   size_t errlen)
{
	struct sluice_nl *n = calloc(1, sizeof(*n));
	int home = -1, back, ret;

	*nl = NULL;
	if (!n)
		return no_memory(err, errlen);
	if (netns) {
		home = sluice_netns_self(err, errlen);
		if (home < 0) {
			ret = home;
			goto fail;
		}
		ret = sluice_netns_enter(netns, err, errlen);
		if (ret)
			goto fail;
	}
	ret = connect_family(n, err, errlen);
	/* if the thread cannot return, it is stranded: nothing is safe */
	if (home >= 0) {
		back = sluice_netns_enter_fd(home, "of the caller", err, errlen);
		if (back)
			ret = back;
	}
	if (ret)
		goto fail;
	if (home >= 0)
		close(home);
	*nl = n;
	return 0;
fail:
	if (home >= 0)
		close(home);
	sluice_nl_close(n);
	return ret;
}

void sluice_nl_close(struct sluice_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

/* The ifindex of device @name in the connection's namespace; -errno. */
int sluice_nl_ifindex(struct sluice_nl *nl, const char *name,
		      uint32_t *ifindex)
{
	struct ifreq ifr = { 0 };

	if (!sluice_ifname_ok(name))
		return -EINVAL;
	strcpy(ifr.ifr_name, name);
	if (ioctl(nl_socket_get_fd(nl->sk), SIOCGIFINDEX, &ifr))
		return -errno;
	*ifindex = ifr.ifr_ifindex;
	return 0;
}

/* The name of device @ifindex in the connection's namespace; -errno. */
int sluice_nl_ifname(struct sluice_nl *nl, uint32_t ifindex,
		     char name[SLUICE_IFNAMSIZ])
{
	struct ifreq ifr = { 0 };

	if (!ifindex || ifindex > INT32_MAX)
		return -ENODEV;
	ifr.ifr_ifindex = ifindex;
	if (ioctl(nl_socket_get_fd(nl->sk), SIOCGIFNAME, &ifr))
		return -errno;
	snprintf(name, SLUICE_IFNAMSIZ, "%s", ifr.ifr_name);
	return 0;
}

static int parse_switch(struct req *r, struct nlattr *attrs, int len,
			uint32_t flags)
{
	struct sluice_switch_info *si = r->arg;
	struct nlattr *a;
	int rem;

	(void)flags;
	nla_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case SLUICE_A_TAG_SOURCE:
			if (!get_u8(a, &si->tag_source))
				return -EBADMSG;
			break;
		case SLUICE_A_GENERATION:
			if (!get_u32(a, &si->generation))
				return -EBADMSG;
			break;
		case SLUICE_A_PORTS:
			if (!get_u32(a, &si->ports))
				return -EBADMSG;
			break;
		case SLUICE_A_MAP_ENTRIES:
			copy_struct(&si->counts, sizeof(si->counts), a);
			break;
		case SLUICE_A_SWITCH_STATS:
			copy_struct(&si->stats, sizeof(si->stats), a);
			break;
		}
	}
	return 0;
}

/**
 * sluice_nl_switch_get() - the switch's settings and counters
 * @nl:		the connection
 * @si:		filled (zero what the kernel did not say)
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_nl_switch_get(struct sluice_nl *nl, struct sluice_switch_info *si,
			 char *err, size_t errlen)
{
	struct req r = { .parse = parse_switch, .arg = si };
	struct nl_msg *msg = request(nl, SLUICE_CMD_SWITCH_GET, 0, 0);

	memset(si, 0, sizeof(*si));
	if (!msg)
		return no_memory(err, errlen);
	return transact(nl, msg, "switch show", &r, err, errlen);
}

/* Sets the switch's tag source (enum sluice_tag_source). */
int sluice_nl_switch_set(struct sluice_nl *nl, uint8_t tag_source,
			 char *err, size_t errlen)
{
	struct nl_msg *msg = request(nl, SLUICE_CMD_SWITCH_SET, 0, 0);
	struct req r = { 0 };

	if (!msg || nla_put_u8(msg, SLUICE_A_TAG_SOURCE, tag_source)) {
		nlmsg_free(msg);
		return no_memory(err, errlen);
	}
	return transact(nl, msg, "switch set", &r, err, errlen);
}

/* MAP_LOAD's and MAP_FLUSH's replies: the generation and counts. */
struct load_reply {
	uint32_t			generation;
	struct sluice_map_counts	counts;
};

static int parse_load(struct req *r, struct nlattr *attrs, int len,
		      uint32_t flags)
{
	struct load_reply *lr = r->arg;
	struct nlattr *a;
	int rem;

	(void)flags;
	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) == SLUICE_A_GENERATION &&
		    !get_u32(a, &lr->generation))
			return -EBADMSG;
		if (nla_type(a) == SLUICE_A_MAP_ENTRIES)
			copy_struct(&lr->counts, sizeof(lr->counts), a);
	}
	return 0;
}

/*
 * Makes room for a message of @len bytes in the socket's send buffer: a
 * netlink socket refuses a message larger than its buffer.  Past
 * net.core.wmem_max only CAP_NET_ADMIN may go (SO_SNDBUFFORCE).
 */
static int send_room(struct sluice_nl *nl, size_t len, char *err,
		     size_t errlen)
{
	int fd = nl_socket_get_fd(nl->sk), have;
	/* the kernel doubles the value; keep well clear of the 32 bytes it
	 * holds back */
	int want = len > INT32_MAX / 2 - 4096 ? INT32_MAX / 2 : len + 4096;
	socklen_t sl = sizeof(have);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &have, &sl) == 0 &&
	    (size_t)have >= len + 4096)
		return 0;
	if (!setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want)))
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want));
	sl = sizeof(have);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &have, &sl) == 0 &&
	    (size_t)have >= len + 4096)
		return 0;
	return sluice_i_errf(err, errlen, -EMSGSIZE,
			     "map load: the request takes %zu bytes, the socket's send buffer holds %d (SO_SNDBUFFORCE needs CAP_NET_ADMIN; or raise net.core.wmem_max)",
			     len, have);
}

/**
 * sluice_nl_map_load() - replace the switch's maps with @e
 * @nl:		the connection
 * @e:		the entries, by ifindex, @n of them (none: empty maps)
 * @n:		how many
 * @generation:	NULL, or the generation the maps must still have
 *		(-ESTALE otherwise)
 * @new_generation: set to the maps' generation after the load
 * @counts:	set to the entries loaded (NULL: not wanted)
 * @bad:	set to the index in @e of the entry the kernel refused, or
 *		UINT64_MAX when it named none (NULL: not wanted)
 * @err:	why it failed, with the kernel's message
 * @errlen:	room in @err
 *
 * One message, so that the kernel loads it as one table: the socket's
 * send buffer is raised to hold it.
 *
 * Return: 0 or a negative errno.
 */
int sluice_nl_map_load(struct sluice_nl *nl, const struct sluice_map_entry *e,
		       uint64_t n, const uint32_t *generation,
		       uint32_t *new_generation,
		       struct sluice_map_counts *counts, uint64_t *bad,
		       char *err, size_t errlen)
{
	uint64_t base = NLMSG_HDRLEN + GENL_HDRLEN;
	struct load_reply lr = { 0 };
	struct req r = { .parse = parse_load, .arg = &lr };
	uint64_t size, i;
	struct nl_msg *msg;
	int ret;

	size = NLMSG_HDRLEN + GENL_HDRLEN + LOAD_SLACK +
	       n * (uint64_t)nla_total_size(sizeof(*e));
	if (size > INT32_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "map load: %llu entries are too many for one message",
				     (unsigned long long)n);
	ret = send_room(nl, size, err, errlen);
	if (ret)
		return ret;
	msg = request(nl, SLUICE_CMD_MAP_LOAD, 0, size);
	if (!msg)
		return no_memory(err, errlen);
	if (generation && nla_put_u32(msg, SLUICE_A_GENERATION, *generation))
		goto nomem;
	for (i = 0; i < n; i++)
		if (nla_put(msg, SLUICE_A_MAP_ENTRY, sizeof(e[i]), &e[i]))
			goto nomem;
	if (bad)
		*bad = UINT64_MAX;
	if (generation)
		base += nla_total_size(sizeof(*generation));
	ret = transact(nl, msg, "map load", &r, err, errlen);
	/*
	 * The kernel names a refused entry by its attribute's offset in the
	 * request: the entries follow the header and GENERATION in order.
	 */
	if (ret && bad && r.offs >= (int64_t)base &&
	    !((r.offs - base) % nla_total_size(sizeof(*e))) &&
	    (r.offs - base) / nla_total_size(sizeof(*e)) < n)
		*bad = (r.offs - base) / nla_total_size(sizeof(*e));
	if (ret)
		return ret;
	*new_generation = lr.generation;
	if (counts)
		*counts = lr.counts;
	return 0;
nomem:
	nlmsg_free(msg);
	return no_memory(err, errlen);
}

/* Empties the maps. */
int sluice_nl_map_flush(struct sluice_nl *nl, char *err, size_t errlen)
{
	struct nl_msg *msg = request(nl, SLUICE_CMD_MAP_FLUSH, 0, 0);
	struct req r = { 0 };

	if (!msg)
		return no_memory(err, errlen);
	return transact(nl, msg, "map flush", &r, err, errlen);
}

/* The generation of the dump, its first message's; set once. */
struct map_dump_state {
	struct sluice_map_dump	*d;
	bool			has_generation;
};

static int parse_map(struct req *r, struct nlattr *attrs, int len,
		     uint32_t flags)
{
	struct map_dump_state *st = r->arg;
	struct sluice_map_dump *d = st->d;
	struct nlattr *a;
	uint32_t gen;
	int rem;

	(void)flags;
	nla_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case SLUICE_A_GENERATION:
			if (!get_u32(a, &gen))
				return -EBADMSG;
			/* messages of two generations: a reload in between */
			if (st->has_generation && gen != d->generation)
				r->intr = true;
			d->generation = gen;
			st->has_generation = true;
			break;
		case SLUICE_A_MAP_ENTRY:
			if (SLUICE_I_GROW(d->e, d->cap, d->n + 1))
				return -ENOMEM;
			copy_struct(&d->e[d->n++], sizeof(*d->e), a);
			break;
		}
	}
	return 0;
}

void sluice_map_dump_free(struct sluice_map_dump *d)
{
	free(d->e);
	memset(d, 0, sizeof(*d));
}

/* Runs a dump built by @make up to DUMP_TRIES times while interrupted. */
static int dump(struct sluice_nl *nl, struct nl_msg *(*make)(struct sluice_nl *nl,
							     void *arg),
		void *arg, void (*reset)(void *arg), const char *what,
		struct req *proto, char *err, size_t errlen)
{
	struct nl_msg *msg;
	struct req r;
	int i, ret = -EINTR;

	for (i = 0; i < DUMP_TRIES && ret == -EINTR; i++) {
		reset(arg);
		msg = make(nl, arg);
		if (!msg)
			return no_memory(err, errlen);
		r = *proto;
		ret = transact(nl, msg, what, &r, err, errlen);
	}
	if (ret == -EINTR)
		ret = sluice_i_errf(err, errlen, -EINTR,
				    "%s: the dump was interrupted by changes %d times in a row; try again",
				    what, DUMP_TRIES);
	return ret;
}

static struct nl_msg *make_map_dump(struct sluice_nl *nl, void *arg)
{
	(void)arg;
	return request(nl, SLUICE_CMD_MAP_GET, NLM_F_DUMP, 0);
}

static void reset_map_dump(void *arg)
{
	struct map_dump_state *st = arg;

	sluice_map_dump_free(st->d);
	st->has_generation = false;
}

/**
 * sluice_nl_map_get() - every entry of the switch's maps
 * @nl:		the connection
 * @d:		filled; free with sluice_map_dump_free(), even on an error
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * The entries are in the kernel's order (by ifindex, ifindex 0 first, then
 * by map and tag), all of one generation: a dump that a reload
 * interrupted is tried again.
 *
 * Return: 0 or a negative errno.
 */
int sluice_nl_map_get(struct sluice_nl *nl, struct sluice_map_dump *d,
		      char *err, size_t errlen)
{
	struct map_dump_state st = { .d = d };
	struct req proto = { .parse = parse_map, .arg = &st };

	memset(d, 0, sizeof(*d));
	return dump(nl, make_map_dump, &st, reset_map_dump, "map show",
		    &proto, err, errlen);
}

struct stats_state {
	uint32_t		ifindex;	/* 0: all */
	struct sluice_port_info	*ports;
	uint32_t		n;
	uint64_t		cap;
};

static int parse_stats(struct req *r, struct nlattr *attrs, int len,
		       uint32_t flags)
{
	struct stats_state *st = r->arg;
	struct sluice_port_info *p;
	struct nlattr *a;
	int rem;

	(void)flags;
	if (SLUICE_I_GROW(st->ports, st->cap, st->n + 1ULL))
		return -ENOMEM;
	p = &st->ports[st->n];
	memset(p, 0, sizeof(*p));
	nla_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case SLUICE_A_IFINDEX:
			if (!get_u32(a, &p->ifindex))
				return -EBADMSG;
			break;
		case SLUICE_A_IFNAME:
			if (!get_name(a, p->ifname))
				return -EBADMSG;
			break;
		case SLUICE_A_PORT_STATS:
			copy_struct(&p->port, sizeof(p->port), a);
			break;
		case SLUICE_A_PRIO_STATS:
			/* more rows than classes can be: not for us */
			if (p->n_prio < TC_SLUICE_MAX_CLASSES)
				copy_struct(&p->prio[p->n_prio++],
					    sizeof(p->prio[0]), a);
			break;
		}
	}
	if (!st->ifindex || p->ifindex == st->ifindex)
		st->n++;
	return 0;
}

static struct nl_msg *make_stats_dump(struct sluice_nl *nl, void *arg)
{
	struct stats_state *st = arg;
	struct nl_msg *msg = request(nl, SLUICE_CMD_STATS_GET, NLM_F_DUMP, 0);

	if (msg && st->ifindex &&
	    nla_put_u32(msg, SLUICE_A_IFINDEX, st->ifindex)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void reset_stats_dump(void *arg)
{
	struct stats_state *st = arg;

	st->n = 0;
}

/**
 * sluice_nl_stats_get() - the ports of the switch and their counters
 * @nl:		the connection
 * @ifindex:	one port, or 0 for every port
 * @ports:	set to an array (free() it), NULL on an error
 * @n:		set to its length: 0 when @ifindex is not a port
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_nl_stats_get(struct sluice_nl *nl, uint32_t ifindex,
			struct sluice_port_info **ports, uint32_t *n,
			char *err, size_t errlen)
{
	struct stats_state st = { .ifindex = ifindex };
	struct req proto = { .parse = parse_stats, .arg = &st };
	int ret;

	ret = dump(nl, make_stats_dump, &st, reset_stats_dump, "stats",
		   &proto, err, errlen);
	if (ret) {
		free(st.ports);
		st.ports = NULL;
		st.n = 0;
	}
	*ports = st.ports;
	*n = st.n;
	return ret;
}

/**
 * sluice_nl_subscribe() - receive the "events" group from now on
 * @nl:		the connection; use it for sluice_nl_events() only after
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_nl_subscribe(struct sluice_nl *nl, char *err, size_t errlen)
{
	int ret = nl_socket_add_membership(nl->sk, nl->events);

	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot join the \"%s\" group: %s",
				     SLUICE_GENL_MCGRP_EVENTS, nl_geterror(ret));
	/* bursts (a port flapping) should not overrun the monitor */
	nl_socket_set_buffer_size(nl->sk, 1 << 20, 0);
	nl->subscribed = true;
	return 0;
}

struct event_state {
	struct sluice_nl	*nl;
	int			(*fn)(const struct sluice_nl_event *ev, void *arg);
	void			*arg;
	int			count;
	bool			stop;
	int			error;
};

static int parse_event(struct sluice_nl_event *ev, struct nlattr *attrs,
		       int len)
{
	struct nlattr *a;
	int rem;

	memset(ev, 0, sizeof(*ev));
	nla_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case SLUICE_A_EVENT:
			if (!get_u8(a, &ev->event))
				return -EBADMSG;
			break;
		case SLUICE_A_TAG_SOURCE:
			ev->has_tag_source = get_u8(a, &ev->tag_source);
			break;
		case SLUICE_A_GENERATION:
			ev->has_generation = get_u32(a, &ev->generation);
			break;
		case SLUICE_A_MAP_ENTRIES:
			copy_struct(&ev->counts, sizeof(ev->counts), a);
			ev->has_counts = true;
			break;
		case SLUICE_A_IFINDEX:
			ev->has_ifindex = get_u32(a, &ev->ifindex);
			break;
		case SLUICE_A_IFNAME:
			ev->has_ifname = get_name(a, ev->ifname);
			break;
		case SLUICE_A_PRIO:
			ev->has_prio = get_u8(a, &ev->prio);
			break;
		case SLUICE_A_WD_ACTION:
			ev->has_wd_action = get_u8(a, &ev->wd_action);
			break;
		case SLUICE_A_PRIO_STATS:
			copy_struct(&ev->prio_stats, sizeof(ev->prio_stats), a);
			ev->has_prio_stats = true;
			break;
		}
	}
	return 0;
}

/* Notifications carry no sequence number of ours: take them all. */
static int any_seq(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct event_state *st = arg;
	struct sluice_nl_event ev;
	struct genlmsghdr *g;

	if (st->stop || h->nlmsg_type != st->nl->family ||
	    !genlmsg_valid_hdr(h, 0))
		return NL_SKIP;
	g = nlmsg_data(h);
	if (g->cmd != SLUICE_CMD_EVENT)
		return NL_SKIP;
	if (parse_event(&ev, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0)))
		return NL_SKIP;
	st->count++;
	if (!st->fn(&ev, st->arg)) {
		st->stop = true;
		return NL_STOP;
	}
	return NL_OK;
}

/**
 * sluice_nl_events() - wait for events and hand each to @fn
 * @nl:		a subscribed connection (sluice_nl_subscribe())
 * @timeout_ms:	how long to wait for the first one; -1: for ever
 * @fn:		called with each event; returns 0 to stop (the events
 *		after it in the same batch are dropped), else 1
 * @arg:	for @fn
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Waits until events arrive, then handles those that arrived together.
 * When the socket overran (events were dropped), @fn gets one event of
 * kind SLUICE_EVENT_LOST first.
 *
 * Return: the events handed to @fn (0 at the timeout), or a negative errno.
 */
int sluice_nl_events(struct sluice_nl *nl, int timeout_ms,
		     int (*fn)(const struct sluice_nl_event *ev, void *arg),
		     void *arg, char *err, size_t errlen)
{
	struct event_state st = { .nl = nl, .fn = fn, .arg = arg };
	struct pollfd pfd = { .fd = nl_socket_get_fd(nl->sk), .events = POLLIN };
	struct sluice_nl_event lost = { .event = SLUICE_EVENT_LOST };
	struct nl_cb *cb;
	int ret;

	if (!nl->subscribed)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "not subscribed to the events");
	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return sluice_i_errf(err, errlen, -errno, "poll: %s",
				     strerror(errno));
	if (!ret)
		return 0;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return no_memory(err, errlen);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &st);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, any_seq, NULL);
	errno = 0;
	ret = nl_recvmsgs(nl->sk, cb);
	nl_cb_put(cb);
	if (ret < 0 && errno == ENOBUFS) {
		/* the kernel dropped events: say so, the socket goes on */
		fn(&lost, arg);
		return 1;
	}
	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO, "events: %s",
				     nl_geterror(ret));
	return st.count;
}
