// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applications' side of FaCa's agent (sluice/faca.h): one request a
 * connection to the agent's unix socket, its one-line reply read back.
 * Whatever goes wrong is an error the caller can fall back on: the agent
 * only ever chooses among ports that plain ECMP would work with too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sluice/faca.h>

#include "../graph/internal.h"

/* The longest reply taken: "show" of a large table. */
#define REPLY_MAX	(16u << 20)

int sluice_faca_socket_path(char *buf, size_t len, char *err, size_t errlen)
{
	struct stat st;

	if (stat("/proc/thread-self/ns/net", &st))
		return sluice_i_errf(err, errlen, -errno,
				     "/proc/thread-self/ns/net: %s",
				     strerror(errno));
	if ((size_t)snprintf(buf, len, "%s/faca-net%llu.sock",
			     SLUICE_FACA_SOCKET_DIR,
			     (unsigned long long)st.st_ino) >= len)
		return sluice_i_errf(err, errlen, -ENAMETOOLONG,
				     "no room for the socket's path");
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for @events on @fd until @deadline (mono_ms()). */
static int wait_for(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	uint64_t now;
	int n;

	for (;;) {
		now = mono_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)(deadline - now));
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

static int agent_connect(const char *socket_path, uint64_t deadline,
			 char *err, size_t errlen)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char path[sizeof(sun.sun_path)];
	int fd, ret, soerr;
	socklen_t len = sizeof(soerr);

	if (!socket_path) {
		ret = sluice_faca_socket_path(path, sizeof(path), err, errlen);
		if (ret)
			return ret;
		socket_path = path;
	}
	if (strlen(socket_path) >= sizeof(sun.sun_path))
		return sluice_i_errf(err, errlen, -ENAMETOOLONG,
				     "%s: too long for a unix socket",
				     socket_path);
	strcpy(sun.sun_path, socket_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "socket: %s",
				     strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		ret = -errno;
		if (errno != EINPROGRESS && errno != EAGAIN)
			goto fail;
		ret = wait_for(fd, POLLOUT, deadline);
		if (!ret && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
			ret = -errno;
		else if (!ret && soerr)
			ret = -soerr;
		if (ret)
			goto fail;
	}
	return fd;
fail:
	close(fd);
	return sluice_i_errf(err, errlen, ret, "no FaCa agent at %s: %s",
			     socket_path, strerror(-ret));
}

/* Reads one line into a malloc()ed *@out (without its newline). */
static int read_line(int fd, uint64_t deadline, char **out)
{
	size_t len = 0, cap = 256;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int ret;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len + 1 >= cap) {
			if (cap >= REPLY_MAX) {
				ret = -EMSGSIZE;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = recv(fd, buf + len, cap - len - 1, 0);
		if (n > 0) {
			buf[len + n] = '\0';
			if (memchr(buf + len, '\n', n)) {
				*strchr(buf + len, '\n') = '\0';
				*out = buf;
				return 0;
			}
			len += n;
			continue;
		}
		if (!n) {
			ret = -ECONNRESET;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			ret = -errno;
			break;
		}
		ret = wait_for(fd, POLLIN, deadline);
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

/*
 * Sends @req (a line, newline included) and reads the reply: its text
 * after "ok" (or "ok ") into a malloc()ed *@reply, or the agent's error.
 */
static int request(const char *socket_path, const char *req, char **reply,
		   char *err, size_t errlen)
{
	uint64_t deadline = mono_ms() + SLUICE_FACA_CALL_MS;
	size_t off = 0, len = strlen(req);
	char *line = NULL, *msg, *end;
	int fd, ret = 0;
	long code;
	ssize_t n;

	fd = agent_connect(socket_path, deadline, err, errlen);
	if (fd < 0)
		return fd;
	while (!ret && off < len) {
		n = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (n > 0)
			off += n;
		else if (errno == EAGAIN)
			ret = wait_for(fd, POLLOUT, deadline);
		else if (errno != EINTR)
			ret = -errno;
	}
	if (!ret)
		ret = read_line(fd, deadline, &line);
	close(fd);
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "the FaCa agent did not answer: %s",
				     strerror(-ret));
	if (!strncmp(line, "ok", 2) && (!line[2] || line[2] == ' ')) {
		msg = line[2] ? line + 3 : line + 2;
		memmove(line, msg, strlen(msg) + 1);
		*reply = line;
		return 0;
	}
	ret = -EPROTO;
	msg = line;
	if (!strncmp(line, "err ", 4)) {
		code = strtol(line + 4, &end, 10);
		if (code > 0 && code < 4096 && *end == ' ') {
			ret = -code;
			msg = end + 1;
		}
	}
	sluice_i_errf(err, errlen, ret, "the FaCa agent: %s", msg);
	free(line);
	return ret;
}

int sluice_faca_sport(const char *socket, uint32_t dst, uint32_t lease_ms,
		      uint16_t *sport, char *err, size_t errlen)
{
	char req[64], addr[INET_ADDRSTRLEN], *reply;
	unsigned int port;
	int ret;

	inet_ntop(AF_INET, &dst, addr, sizeof(addr));
	if (lease_ms)
		snprintf(req, sizeof(req), "sport %s %u\n", addr, lease_ms);
	else
		snprintf(req, sizeof(req), "sport %s\n", addr);
	ret = request(socket, req, &reply, err, errlen);
	if (ret)
		return ret;
	if (sscanf(reply, "%u", &port) != 1 || !port || port > UINT16_MAX)
		ret = sluice_i_errf(err, errlen, -EPROTO,
				    "the FaCa agent answered \"%s\"", reply);
	else
		*sport = port;
	free(reply);
	return ret;
}

int sluice_faca_release_port(const char *socket, uint32_t dst, uint16_t sport,
			     char *err, size_t errlen)
{
	char req[64], addr[INET_ADDRSTRLEN], *reply;
	int ret;

	inet_ntop(AF_INET, &dst, addr, sizeof(addr));
	snprintf(req, sizeof(req), "release %s %u\n", addr, sport);
	ret = request(socket, req, &reply, err, errlen);
	if (!ret)
		free(reply);
	return ret;
}

int sluice_faca_add(const char *socket, uint32_t dst, char *err,
		    size_t errlen)
{
	char req[64], addr[INET_ADDRSTRLEN], *reply;
	int ret;

	inet_ntop(AF_INET, &dst, addr, sizeof(addr));
	snprintf(req, sizeof(req), "add %s\n", addr);
	ret = request(socket, req, &reply, err, errlen);
	if (!ret)
		free(reply);
	return ret;
}

int sluice_faca_show(const char *socket, char **json, char *err,
		     size_t errlen)
{
	return request(socket, "show\n", json, err, errlen);
}

/* A TCP socket bound to @sport (0: none bound), SO_REUSEADDR set. */
static int tcp_socket(int type_flags, uint16_t sport, char *err,
		      size_t errlen)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(sport),
	};
	int fd, one = 1, ret;

	fd = socket(AF_INET, SOCK_STREAM | type_flags, 0);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "socket: %s",
				     strerror(errno));
	if (!sport)
		return fd;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		ret = sluice_i_errf(err, errlen, -errno,
				    "binding TCP port %u: %s", sport,
				    strerror(errno));
		close(fd);
		return ret;
	}
	return fd;
}

int sluice_faca_connect(const char *socket, const struct sockaddr_in *to,
			int type_flags, unsigned int flags, uint16_t *sport,
			char *err, size_t errlen)
{
	uint16_t port = 0;
	int fd, ret;

	ret = sluice_faca_sport(socket, to->sin_addr.s_addr, 0, &port, err,
				errlen);
	if (ret && !(flags & SLUICE_FACA_FALLBACK))
		return ret;
	fd = tcp_socket(type_flags, port, err, errlen);
	if (fd >= 0 && connect(fd, (const struct sockaddr *)to, sizeof(*to)) &&
	    errno != EINPROGRESS) {
		ret = sluice_i_errf(err, errlen, -errno, "connect: %s",
				    strerror(errno));
		close(fd);
		fd = ret;
	}
	if (fd >= 0) {
		*sport = port;
		return fd;
	}
	if (port)
		sluice_faca_release_port(socket, to->sin_addr.s_addr, port,
					 NULL, 0);
	/* the port the agent chose could not be had: the kernel's, then */
	if (port && (flags & SLUICE_FACA_FALLBACK) && fd != -ECONNREFUSED &&
	    fd != -ETIMEDOUT && fd != -ENETUNREACH && fd != -EHOSTUNREACH) {
		fd = tcp_socket(type_flags, 0, NULL, 0);
		if (fd >= 0 &&
		    connect(fd, (const struct sockaddr *)to, sizeof(*to)) &&
		    errno != EINPROGRESS) {
			ret = sluice_i_errf(err, errlen, -errno, "connect: %s",
					    strerror(errno));
			close(fd);
			return ret;
		}
		if (fd >= 0)
			*sport = 0;
	}
	return fd;
}
