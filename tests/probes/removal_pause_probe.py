#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""One rdma_ucm step that tests/guest/removal_pause.sh holds at a pause point
while it deletes the device.

    removal_pause_probe.py STEP ADDR

creates an id, binds it to ADDR (which attaches it to ADDR's device),
prints "bound", then runs STEP, which the armed pause point holds:
  destroy       DESTROY_ID               (ib_test_pause/cma_destroy)
  query-route   QUERY_ROUTE              (ib_test_pause/ucma_query)
  query-addr    QUERY option ADDR        (ib_test_pause/ucma_query)
  query-gid     QUERY option GID         (ib_test_pause/ucma_query)
and prints "STEP RESULT" (RESULT as ucma_probe.py names errnos), for a
query followed by the node GUID it answered, as sysfs writes node_guid.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ucma_probe import (DEV, QUERY, QUERY_ROUTE, Buf, cmd, create_id,  # noqa
                        destroy_id, name)
from ucma_sec_probe import bind_ip  # noqa: E402

QUERY_OPTION = {"query-addr": 0, "query-gid": 2}
ROUTE_RESP, QUERY_RESP = 208, 280


def guid(raw):
    g = "%016x" % struct.unpack_from(">Q", raw)[0]
    return ":".join(g[i:i + 4] for i in range(0, 16, 4))


def main():
    step, addr = sys.argv[1], sys.argv[2]
    fd = os.open(DEV, os.O_RDWR)
    err, id_ = create_id(fd)
    if not err:
        err = bind_ip(fd, id_, addr)
    print("bound" if not err else "bind " + name(err), flush=True)
    if err:
        return 1
    if step == "destroy":
        err, _ = destroy_id(fd, id_)
        print("destroy", name(err), flush=True)
        return 0
    if step == "query-route":
        buf = Buf(ROUTE_RESP)
        err = cmd(fd, QUERY_ROUTE, struct.pack("=QII", buf.addr, id_, 0),
                  ROUTE_RESP)
    else:
        buf = Buf(QUERY_RESP)
        err = cmd(fd, QUERY, struct.pack("=QII", buf.addr, id_,
                                         QUERY_OPTION[step]), QUERY_RESP)
    print(step, name(err), guid(buf.raw), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
