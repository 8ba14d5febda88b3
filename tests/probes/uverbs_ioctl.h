/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Building an RDMA_VERBS_IOCTL request by hand, for the programs that talk
 * to /dev/infiniband/uverbsN without libibverbs (uverbs_abuse, the uverbs
 * fuzzer): a header and up to UVERBS_IOREQ_ATTRS attributes in one buffer.
 * The includer brings <string.h> and the UAPI headers.
 */
#ifndef TESTS_PROBES_UVERBS_IOCTL_H
#define TESTS_PROBES_UVERBS_IOCTL_H

#define UVERBS_IOREQ_ATTRS 16
struct uverbs_ioreq {
	__u64 raw[(sizeof(struct ib_uverbs_ioctl_hdr) +
		   UVERBS_IOREQ_ATTRS * sizeof(struct ib_uverbs_attr)) / 8];
};

/* An empty request for rxe's (object, method); returns its header. */
static inline struct ib_uverbs_ioctl_hdr *
io_init(struct uverbs_ioreq *r, __u16 object_id, __u16 method_id)
{
	struct ib_uverbs_ioctl_hdr *h = (struct ib_uverbs_ioctl_hdr *)r->raw;

	memset(r, 0, sizeof(*r));
	h->length = sizeof(*h);
	h->object_id = object_id;
	h->method_id = method_id;
	h->driver_id = RDMA_DRIVER_RXE;
	return h;
}

/* Append one attribute; the header's length follows.  No bound check:
 * the callers add a known handful (fewer than UVERBS_IOREQ_ATTRS). */
static inline struct ib_uverbs_attr *
io_attr(struct ib_uverbs_ioctl_hdr *h, __u16 attr_id, __u16 len, __u64 data)
{
	struct ib_uverbs_attr *a = &h->attrs[h->num_attrs++];

	a->attr_id = attr_id;
	a->len = len;
	a->data = data;
	h->length = sizeof(*h) + h->num_attrs * sizeof(*a);
	return a;
}

#endif
