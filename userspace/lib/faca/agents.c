// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's agent in every host of a fabric (sluice_faca_agents_start(),
 * sluice/faca.h): a thread per host, which enters its host's namespace
 * for good (setns() moves only the calling thread) and runs
 * sluice_faca_serve() there.  The starter waits until each says it serves
 * or fails, so that a flow asking for a port finds every agent up.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/faca.h>

#include "../graph/internal.h"

/* The serve loop keeps its clients on its stack: room for them. */
#define AGENT_STACK	(1u << 20)

enum agent_state { A_STARTING, A_SERVING, A_DONE };

struct agent {
	struct sluice_faca_agents	*ag;
	char			ns[SLUICE_NETNS_NAME_MAX];
	uint32_t		dst;		/* network order; 0: none */
	pthread_t		thread;
	bool			started;	/* the thread exists */
	enum agent_state	state;		/* under ag->lock */
	int			ret;		/* serve's, once done */
	char			socket[108];	/* sun_path */
	char			err[SLUICE_ERRLEN];
};

struct sluice_faca_agents {
	struct sluice_faca_opts	o;
	struct agent		*a;
	uint32_t		n;
	volatile sig_atomic_t	stop;
	pthread_mutex_t		lock;
	pthread_cond_t		changed;
};

static void set_state(struct agent *g, enum agent_state st)
{
	pthread_mutex_lock(&g->ag->lock);
	g->state = st;
	pthread_cond_broadcast(&g->ag->changed);
	pthread_mutex_unlock(&g->ag->lock);
}

static void on_ready(void *arg, const char *socket)
{
	struct agent *g = arg;

	snprintf(g->socket, sizeof(g->socket), "%s", socket);
	set_state(g, A_SERVING);
}

static void *agent_main(void *arg)
{
	struct agent *g = arg;
	struct sluice_faca_serve s = {
		.stop = &g->ag->stop, .ready = on_ready, .ready_arg = g,
	};
	struct sluice_faca a;
	int fd, ret;

	fd = sluice_netns_open(g->ns, g->err, sizeof(g->err));
	ret = fd < 0 ? fd : sluice_netns_enter_fd(fd, g->ns, g->err,
						  sizeof(g->err));
	if (fd >= 0)
		close(fd);
	if (!ret) {
		struct sluice_faca_opts o = g->ag->o;

		/*
		 * A stream of its own: agents drawing the same paths in
		 * the same order would all start Flowing&Jumping from the
		 * same place, which its randomness is there to prevent.
		 */
		o.seed = o.seed * 0x9e3779b97f4a7c15ull + (g - g->ag->a);
		ret = sluice_faca_init(&a, &o, g->err, sizeof(g->err));
	}
	if (!ret) {
		if (g->dst) {
			char addr[INET_ADDRSTRLEN];

			ret = sluice_faca_dst_add(&a, g->dst, 0);
			if (ret < 0)
				sluice_i_errf(g->err, sizeof(g->err), ret,
					      "destination %s: %s",
					      inet_ntop(AF_INET, &g->dst, addr,
							sizeof(addr)),
					      strerror(-ret));
			ret = ret < 0 ? ret : 0;
		}
		if (!ret)
			ret = sluice_faca_serve(&a, &s, g->err,
						sizeof(g->err));
		sluice_faca_free(&a);
	}
	g->ret = ret;
	set_state(g, A_DONE);
	return NULL;
}

/* Waits until agent @g serves or is done; 0 if it serves. */
static int wait_up(struct agent *g)
{
	struct sluice_faca_agents *ag = g->ag;
	int ret;

	pthread_mutex_lock(&ag->lock);
	while (g->state == A_STARTING)
		pthread_cond_wait(&ag->changed, &ag->lock);
	ret = g->state == A_SERVING ? 0 : g->ret ? g->ret : -EIO;
	pthread_mutex_unlock(&ag->lock);
	return ret;
}

/**
 * sluice_faca_agents_start() - an agent in every host of a fabric
 * @out:	set to the agents, stopped by sluice_faca_agents_stop()
 * @f:		the fabric, up
 * @o:		every agent's options (checked by sluice_faca_init())
 * @dst:	per host, the address it probes (network order), 0: none;
 *		NULL: none probes
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0, or a negative errno: the first agent's that failed to start
 * (-EADDRINUSE: a port taken, ...), the others stopped.
 */
int sluice_faca_agents_start(struct sluice_faca_agents **out,
			     const struct sluice_fabric *f,
			     const struct sluice_faca_opts *o,
			     const uint32_t *dst, char *err, size_t errlen)
{
	struct sluice_faca_agents *ag;
	pthread_attr_t attr;
	uint32_t u, i, h;
	int ret = 0;

	*out = NULL;
	ag = sluice_i_calloc(1, sizeof(*ag));
	if (ag)
		ag->a = sluice_i_calloc(f->n_hosts ? f->n_hosts : 1,
					sizeof(*ag->a));
	if (!ag || !ag->a) {
		free(ag);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	ag->o = *o;
	ag->n = f->n_hosts;
	pthread_mutex_init(&ag->lock, NULL);
	pthread_cond_init(&ag->changed, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, AGENT_STACK);
	for (u = 0; u < f->g->n_nodes; u++)
		for (i = 0; i < f->hosts[u]; i++) {
			h = f->host_first[u] + i;
			ag->a[h].ag = ag;
			ag->a[h].dst = dst ? dst[h] : 0;
			sluice_fabric_host_ns(f, u, i, ag->a[h].ns,
					      sizeof(ag->a[h].ns));
		}
	for (h = 0; !ret && h < ag->n; h++) {
		ret = -pthread_create(&ag->a[h].thread, &attr, agent_main,
				      &ag->a[h]);
		ag->a[h].started = !ret;
		if (ret)
			sluice_i_errf(err, errlen, ret,
				      "an agent's thread for %s: %s",
				      ag->a[h].ns, strerror(-ret));
	}
	pthread_attr_destroy(&attr);
	for (h = 0; !ret && h < ag->n; h++) {
		ret = wait_up(&ag->a[h]);
		if (ret)
			sluice_i_errf(err, errlen, ret, "the agent of %s: %s",
				      ag->a[h].ns, ag->a[h].err[0] ?
				      ag->a[h].err : strerror(-ret));
	}
	if (ret) {
		sluice_faca_agents_stop(ag, NULL, 0);
		return ret;
	}
	*out = ag;
	return 0;
}

/**
 * sluice_faca_agents_socket() - where host @h's agent serves
 * @ag:	the agents
 * @h:	a host, in the fabric's order
 *
 * Return: the unix socket's path, NULL if @h is not a host.
 */
const char *sluice_faca_agents_socket(const struct sluice_faca_agents *ag,
				      uint32_t h)
{
	return h < ag->n ? ag->a[h].socket : NULL;
}

/**
 * sluice_faca_agents_stop() - stop every agent and free them
 * @ag:		the agents (NULL: nothing)
 * @err:	the first error an agent met while serving (may be NULL)
 * @errlen:	room in @err
 *
 * Return: 0, or that error.
 */
int sluice_faca_agents_stop(struct sluice_faca_agents *ag, char *err,
			    size_t errlen)
{
	uint32_t h;
	int ret = 0;

	if (!ag)
		return 0;
	ag->stop = 1;
	for (h = 0; h < ag->n; h++) {
		if (!ag->a[h].started)
			continue;
		pthread_join(ag->a[h].thread, NULL);
		if (!ret && ag->a[h].ret) {
			ret = ag->a[h].ret;
			sluice_i_errf(err, errlen, ret, "the agent of %s: %s",
				      ag->a[h].ns, ag->a[h].err);
		}
	}
	pthread_cond_destroy(&ag->changed);
	pthread_mutex_destroy(&ag->lock);
	free(ag->a);
	free(ag);
	return ret;
}
