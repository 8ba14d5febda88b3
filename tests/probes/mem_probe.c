// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel memory behind a QP must be charged to the creator's memory
 * cgroup, so that a process in a small cgroup that creates QPs at large
 * sizes fails with ENOMEM inside its limit instead of taking the host's
 * memory (and the global OOM killer's attention).
 *
 *   mem_probe [MAX_QPS [WR]]
 *   mem_probe max
 *
 * On the first device: one PD, one CQ, then RC QPs with max_send_wr =
 * max_recv_wr = WR (default 2^17) until a creation fails or MAX_QPS
 * (default 16) exist.  While it holds them it samples its cgroup's
 * memory.current (cgroup v2, from /proc/self/cgroup) and MemAvailable.
 * Prints one line of figures, starting with '#', then
 *
 *   mem_probe end=ERRNO|limit charged=yes|no contained=yes|no
 *
 * end: the errno name of the failed creation, "limit" if MAX_QPS were
 * made; charged: the cgroup grew by more than 64 MiB while holding the
 * QPs; contained: MemAvailable dropped by less than 200 MiB.
 *
 * "max": one RC QP at the device's max_qp_wr with half its max_sge (a send
 * ring of 1 GiB on rxe); prints "mem_probe_max end=ERRNO|made".  A bound
 * on what one verb may take refuses it whatever the cgroup allows.
 */
#include <infiniband/verbs.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHARGED_KIB	(64L << 10)
#define CONTAINED_KIB	(200L << 10)

static void die(const char *what)
{
	fprintf(stderr, "mem_probe: %s failed: %s\n", what, strerror(errno));
	exit(1);
}

static long meminfo_kib(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("open /proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* This process's cgroup v2 directory's memory.current, or NULL. */
static char *cgroup_current_path(void)
{
	static char path[4200];
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = 0;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current",
			 line + 3);
		found = 1;
	}
	fclose(f);
	return found ? path : NULL;
}

static long cgroup_kib(const char *path)
{
	long long v = -1024;
	FILE *f = path ? fopen(path, "r") : NULL;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1024;
		fclose(f);
	}
	return v / 1024;
}

static const char *errno_name(int e);

static int probe_max(struct ibv_context *ctx, struct ibv_pd *pd,
		     struct ibv_cq *cq)
{
	struct ibv_device_attr da;
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_recv_wr = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp;

	if (ibv_query_device(ctx, &da))
		die("ibv_query_device");
	a.cap.max_send_wr = da.max_qp_wr;
	a.cap.max_send_sge = da.max_sge / 2;
	errno = 0;
	qp = ibv_create_qp(pd, &a);
	printf("mem_probe_max end=%s\n", qp ? "made" : errno_name(errno));
	if (qp && ibv_destroy_qp(qp))
		die("ibv_destroy_qp");
	return 0;
}

static const char *errno_name(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : 16;
	unsigned int wr = argc > 2 ? strtoul(argv[2], NULL, 0) : 1U << 17;
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	struct ibv_qp **qps;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	long avail0, cg0, cg_peak, drop;
	const char *end = "limit";
	char *cgpath;
	int n, err = 0;

	if (!list || !list[0])
		die("ibv_get_device_list");
	ctx = ibv_open_device(list[0]);
	if (!ctx)
		die("ibv_open_device");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	if (argc > 1 && !strcmp(argv[1], "max"))
		return probe_max(ctx, pd, cq);
	qps = calloc(max > 0 ? max : 1, sizeof(*qps));
	if (!qps)
		die("calloc");

	cgpath = cgroup_current_path();
	avail0 = meminfo_kib("MemAvailable");
	cg0 = cgroup_kib(cgpath);
	cg_peak = cg0;
	for (n = 0; n < max; n++) {
		struct ibv_qp_init_attr a = {
			.send_cq = cq,
			.recv_cq = cq,
			.qp_type = IBV_QPT_RC,
			.cap = {
				.max_send_wr = wr,
				.max_recv_wr = wr,
				.max_send_sge = 1,
				.max_recv_sge = 1,
			},
		};
		long cur;

		errno = 0;
		qps[n] = ibv_create_qp(pd, &a);
		if (!qps[n]) {
			err = errno;
			end = errno_name(err);
			break;
		}
		cur = cgroup_kib(cgpath);
		if (cur > cg_peak)
			cg_peak = cur;
	}
	/* holding every QP made */
	drop = avail0 - meminfo_kib("MemAvailable");
	printf("# mem_probe qps=%d errno=%d cgroup_kib=%ld..%ld memavail_drop_kib=%ld\n",
	       n, err, cg0, cg_peak, drop);
	printf("mem_probe end=%s charged=%s contained=%s\n", end,
	       cg_peak - cg0 > CHARGED_KIB ? "yes" : "no",
	       drop < CONTAINED_KIB ? "yes" : "no");
	fflush(stdout);

	while (n-- > 0)
		if (ibv_destroy_qp(qps[n]))
			die("ibv_destroy_qp");
	if (ibv_destroy_cq(cq) || ibv_dealloc_pd(pd))
		die("destroy");
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	free(qps);
	return 0;
}
