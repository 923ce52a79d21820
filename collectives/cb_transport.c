/* The transport table and --transport's choice (contract in cb_transport.h). */
#include "cb_transport.h"

#include <stdio.h>

#include "cb_algo.h"

static const struct cb_transport transports[CB_TRANSPORT_COUNT] = {
	[CB_TRANSPORT_AUTO] = { "auto", 0, 0,
				"shm (host) or ipc (cuda) when every rank shares a host, else p2p" },
	[CB_TRANSPORT_SHM] = { "shm", CB_CAP_PEER_MEMORY | CB_CAP_HOST_MEMORY, 1,
			       "one-sided: loads and stores in shared-memory windows (one host)" },
	[CB_TRANSPORT_IPC] = { "ipc", CB_CAP_PEER_MEMORY | CB_CAP_CUDA_MEMORY, 1,
			       "one-sided: copies and kernels through CUDA IPC (one host)" },
	[CB_TRANSPORT_P2P] = { "p2p", CB_CAP_TWO_SIDED, 0,
			       "two-sided: MPI (host) or NCCL (cuda) send/receive (any hosts)" },
};

const struct cb_transport *cb_transport_get(int id)
{
	return id >= 0 && id < CB_TRANSPORT_COUNT ? &transports[id] : NULL;
}

static int offers(const struct cb_backend_ops *be, int id)
{
	return (be->caps & transports[id].needs) == transports[id].needs;
}

const char *cb_transport_refuses(int id, const struct cb_backend_ops *be, char *buf,
				 size_t len)
{
	char names[64] = "";
	size_t k = 0;

	if (id == CB_TRANSPORT_AUTO || offers(be, id))
		return NULL;
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (offers(be, t) && k < sizeof(names))
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", k ? ", " : "",
					      transports[t].name);
	snprintf(buf, len, "--transport %s is not a transport of the %s backend (%s); it offers "
		 "%s, or auto", transports[id].name, be->name,
		 be->caps & CB_CAP_CUDA_MEMORY ? "its buffers are GPU memory" :
		 "its buffers are host memory", k ? names : "none");
	return buf;
}

enum cb_transport_id cb_transport_resolve(int requested, const struct cb_backend *be)
{
	if (requested != CB_TRANSPORT_AUTO)
		return (enum cb_transport_id)requested;
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (transports[t].one_sided && offers(be->ops, t) && be->single_node)
			return (enum cb_transport_id)t;
	if (offers(be->ops, CB_TRANSPORT_P2P))
		return CB_TRANSPORT_P2P;
	/* no two-sided transport: the one-sided one, whose rows say why they skip */
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (transports[t].one_sided && offers(be->ops, t))
			return (enum cb_transport_id)t;
	return CB_TRANSPORT_P2P;
}

const char *cb_transport_one_host(const char *backend, const char *algo)
{
	const struct cb_algo_ops *a = cb_algo_find(algo);
	const struct cb_backend_ops *be = cb_backend_find(backend);

	if (a && a->moves)
		return a->moves;
	for (int t = CB_TRANSPORT_AUTO + 1; be && t < CB_TRANSPORT_COUNT; t++)
		if (transports[t].one_sided && offers(be, t))
			return transports[t].name;
	return NULL;
}
