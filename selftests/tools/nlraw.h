/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlraw.h: just enough raw generic netlink for genlraw and nlfuzz, which
 * must be able to send what no library would build: a socket, a message
 * buffer, family resolution, and a reader of acks with their extack.
 * Header-only (static functions): each tool is one .c file.
 */
#ifndef NLRAW_H
#define NLRAW_H

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif

#define NLRAW_RCVBUF	(64 * 1024)

/* A message being built: one nlmsghdr, a genlmsghdr, attributes. */
struct nlraw_msg {
	unsigned char	*buf;
	size_t		len;
	size_t		cap;
	size_t		nest[16];	/* offsets of open nests */
	unsigned int	depth;
};

static inline void *nlraw_xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("realloc");
		exit(1);
	}
	return p;
}

static inline void nlraw_reserve(struct nlraw_msg *m, size_t n)
{
	if (m->len + n <= m->cap)
		return;
	while (m->len + n > m->cap)
		m->cap = m->cap ? 2 * m->cap : 4096;
	m->buf = nlraw_xrealloc(m->buf, m->cap);
}

/* Appends n bytes (zeroes if data is NULL), then pads to 4 bytes. */
static inline void nlraw_append(struct nlraw_msg *m, const void *data, size_t n)
{
	size_t pad = NLMSG_ALIGN(n) - n;

	nlraw_reserve(m, n + pad);
	if (data)
		memcpy(m->buf + m->len, data, n);
	else
		memset(m->buf + m->len, 0, n);
	memset(m->buf + m->len + n, 0, pad);
	m->len += n + pad;
}

static inline struct nlmsghdr *nlraw_hdr(struct nlraw_msg *m)
{
	return (struct nlmsghdr *)m->buf;
}

/* Starts a message: nlmsghdr (type, flags, seq) and genlmsghdr. */
static inline void nlraw_start(struct nlraw_msg *m, uint16_t type, uint16_t flags,
			uint32_t seq, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = type,
		.nlmsg_flags = flags,
		.nlmsg_seq = seq,
	};
	struct genlmsghdr g = { .cmd = cmd, .version = version };

	m->len = 0;
	m->depth = 0;
	nlraw_append(m, &nlh, sizeof(nlh));
	nlraw_append(m, &g, sizeof(g));
}

/* The message's length into nlmsg_len; returns the buffer's length. */
static inline size_t nlraw_end(struct nlraw_msg *m)
{
	nlraw_hdr(m)->nlmsg_len = m->len;
	return m->len;
}

static inline void nlraw_put(struct nlraw_msg *m, uint16_t type, const void *data,
		      size_t n)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN + n, .nla_type = type };

	nlraw_append(m, &nla, sizeof(nla));
	nlraw_append(m, data, n);
}

static inline void nlraw_put_u8(struct nlraw_msg *m, uint16_t type, uint8_t v)
{
	nlraw_put(m, type, &v, sizeof(v));
}

static inline void nlraw_put_u32(struct nlraw_msg *m, uint16_t type, uint32_t v)
{
	nlraw_put(m, type, &v, sizeof(v));
}

/* Nests: type should carry NLA_F_NESTED (or not, on purpose). */
static inline bool nlraw_nest_start(struct nlraw_msg *m, uint16_t type)
{
	if (m->depth >= sizeof(m->nest) / sizeof(m->nest[0]))
		return false;
	m->nest[m->depth++] = m->len;
	nlraw_put(m, type, NULL, 0);
	return true;
}

static inline void nlraw_nest_end(struct nlraw_msg *m)
{
	struct nlattr *nla = (struct nlattr *)(m->buf + m->nest[--m->depth]);

	nla->nla_len = m->len - m->nest[m->depth];
}

/* A generic netlink socket with extended acks, capped error echoes. */
static inline int nlraw_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, one = 1, size = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return fd;
}

static inline void nlraw_timeout(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static inline int nlraw_send(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

/* Attribute walking with bounds checks: attrs of [p, p + len). */
#define nlraw_for_each_attr(a, p, len, rem)					\
	for ((a) = (const struct nlattr *)(p), (rem) = (int)(len);		\
	     (rem) >= (int)NLA_HDRLEN && (a)->nla_len >= NLA_HDRLEN &&		\
	     (a)->nla_len <= (rem);						\
	     (rem) -= NLA_ALIGN((a)->nla_len),					\
	     (a) = (const struct nlattr *)((const char *)(a) +			\
					   NLA_ALIGN((a)->nla_len)))

static inline const void *nlraw_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline int nlraw_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static inline int nlraw_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

/*
 * The error and extack message of an NLMSG_ERROR or NLMSG_DONE; msg
 * points into nlh (or is NULL).  Returns false if nlh is too short.
 */
static inline bool nlraw_status(const struct nlmsghdr *nlh, int *error,
			 const char **msg)
{
	const unsigned char *p = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN, off;
	const struct nlattr *a;
	int rem;

	*msg = NULL;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		if (len < sizeof(int))
			return false;
		memcpy(error, p, sizeof(int));
		off = sizeof(int);
	} else {
		const struct nlmsgerr *e = (const void *)p;

		if (len < sizeof(*e))
			return false;
		*error = e->error;
		off = sizeof(*e);
		/* Not capped: the whole request follows. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
	}
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off > len)
		return true;
	nlraw_for_each_attr(a, p + off, len - off, rem) {
		if (nlraw_type(a) == NLMSGERR_ATTR_MSG && nlraw_len(a) > 0 &&
		    memchr(nlraw_data(a), 0, nlraw_len(a)))
			*msg = nlraw_data(a);
	}
	return true;
}

/* Reads CTRL_ATTR_MCAST_GROUPS for the id of the group named group. */
static inline void nlraw_group(const struct nlattr *groups, const char *group,
			uint32_t *grp_id)
{
	const struct nlattr *g, *a;
	int rem, arem;

	nlraw_for_each_attr(g, nlraw_data(groups), nlraw_len(groups), rem) {
		const char *name = NULL;
		uint32_t id = 0;

		nlraw_for_each_attr(a, nlraw_data(g), nlraw_len(g), arem) {
			if (nlraw_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    memchr(nlraw_data(a), 0, nlraw_len(a)))
				name = nlraw_data(a);
			if (nlraw_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			    nlraw_len(a) == sizeof(id))
				memcpy(&id, nlraw_data(a), sizeof(id));
		}
		if (name && !strcmp(name, group))
			*grp_id = id;
	}
}

/*
 * Resolves a generic netlink family: its id and, if group is not NULL,
 * the id of that multicast group (*grp_id 0 if none).  Returns the
 * family id, 0 if the family does not exist, -1 on a socket error
 * (errno set).  Reads until the request's ack, at most 5 s.
 */
static inline int nlraw_family(int fd, const char *name, const char *group,
			uint32_t *grp_id)
{
	static unsigned char buf[NLRAW_RCVBUF];
	struct nlraw_msg m = { 0 };
	int id = 0, done = 0;
	ssize_t n;

	if (grp_id)
		*grp_id = 0;
	nlraw_start(&m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, 1,
		    CTRL_CMD_GETFAMILY, 1);
	nlraw_put(&m, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	n = nlraw_send(fd, m.buf, nlraw_end(&m));
	free(m.buf);
	if (n < 0)
		return -1;
	nlraw_timeout(fd, 5000);
	while (!done) {
		const struct nlmsghdr *nlh = (const void *)buf;
		int left;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -1;
		for (left = (int)n; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
			const struct nlattr *a;
			const char *msg;
			int rem, err = 0;

			if (nlh->nlmsg_seq != 1)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				if (!nlraw_status(nlh, &err, &msg)) {
					errno = EPROTO;
					return -1;
				}
				if (err && err != -ENOENT) {
					errno = -err;
					return -1;
				}
				continue;
			}
			if (nlh->nlmsg_type != GENL_ID_CTRL)
				continue;
			nlraw_for_each_attr(a, (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
					    nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
					    rem) {
				if (nlraw_type(a) == CTRL_ATTR_FAMILY_ID &&
				    nlraw_len(a) >= 2)
					id = *(const uint16_t *)nlraw_data(a);
				if (nlraw_type(a) == CTRL_ATTR_MCAST_GROUPS &&
				    group && grp_id)
					nlraw_group(a, group, grp_id);
			}
		}
	}
	nlraw_timeout(fd, 0);
	return id;
}

#endif /* NLRAW_H */
