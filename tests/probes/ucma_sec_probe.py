#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Issue 19's rdma_ucm lifetime cases, driven with raw write() commands.

    ucma_sec_probe.py child-migrate ADDR PORT
    ucma_sec_probe.py child-orphan ADDR PORT
    ucma_sec_probe.py mcast-dup ADDR GROUP

Each prints "STEP RESULT" lines (RESULT is OK, an errno name or a value)
for tests/guest/cmsec/20-ucma.sh to compare.

child-migrate: file A listens on ADDR:PORT, a client on file C connects.
Before A reads the CONNECT_REQUEST, file B names the new id's number
(guessed: the lowest free number, found by creating and destroying an id
just before the connect) in MIGRATE_ID, and destroys it if that worked.
Then A reads the request (its id must be the guessed one) and the id,
now delivered, is migrated to B, rejected and destroyed there.

child-orphan: the same up to the MIGRATE_ID attempt, then the listener
is destroyed with the request still queued: the unread new id must go
with it.

mcast-dup: one UD id bound to ADDR joins GROUP twice, leaves the second
join, reads the join events, leaves the first; then joins again.
"""
import os
import select
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ucma_probe import (DEV, GET_EVENT, LISTEN, MIGRATE_ID, RESOLVE_IP,  # noqa
                        RESOLVE_ROUTE, CONNECT, REJECT, BIND_IP, JOIN_MCAST,
                        LEAVE_MCAST, PS_UDP, Buf, cmd, create_id, destroy_id,
                        name, sin)

EV_CONNECT_REQUEST = 4
EV_MULTICAST_JOIN = 12
EVENT_RESP = 336


def get_event(fd, timeout_ms):
    """(errno, uid, id, event, status) of the next event on @fd."""
    p = select.poll()
    p.register(fd, select.POLLIN)
    if not p.poll(timeout_ms):
        return (110, 0, 0, 0, 0)    # ETIMEDOUT
    buf = Buf(EVENT_RESP)
    err = cmd(fd, GET_EVENT, struct.pack("=Q", buf.addr), EVENT_RESP)
    return (err,) + struct.unpack_from("=QIII", buf.raw)


def readable(fd, timeout_ms):
    p = select.poll()
    p.register(fd, select.POLLIN)
    return bool(p.poll(timeout_ms))


def bind_ip(fd, id_, addr, port=0):
    return cmd(fd, BIND_IP, struct.pack("=Q", 0) + sin(addr, port) +
               struct.pack("=I", id_))


def migrate(new_fd, id_, cur_fd):
    resp = Buf(4)
    return cmd(new_fd, MIGRATE_ID,
               struct.pack("=QII", resp.addr, id_, cur_fd), 4)


def conn_param(qpn):
    # qp_num, qkey, private data, its length, srq, responder resources,
    # initiator depth, flow control, retry count, rnr retry count, valid
    return struct.pack("=II", qpn, 0) + bytes(256) + \
        struct.pack("=8B", 0, 0, 1, 1, 1, 7, 7, 1)


class Out:
    def __init__(self):
        self.lines = []

    def __call__(self, step, result):
        if isinstance(result, int) and not isinstance(result, bool):
            result = name(result)
        self.lines.append(f"{step} {result}")


def expect_event(fd, err, want):
    """OK when the command worked and its event @want followed."""
    if err:
        return name(err)
    ev = get_event(fd, 10000)
    if ev[0]:
        return "event " + name(ev[0])
    return "OK" if ev[3] == want else f"event {ev[3]} status {ev[4]}"


def connect_client(out, addr, port):
    """A client id on its own file, connected (REQ sent) to ADDR:PORT."""
    fc = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    _, cid = create_id(fc, uid=0xC1)
    err = cmd(fc, RESOLVE_IP, sin(addr) + sin(addr, port) +
              struct.pack("=II", cid, 2000))
    out("client-resolve-addr", expect_event(fc, err, 0))
    err = cmd(fc, RESOLVE_ROUTE, struct.pack("=II", cid, 2000))
    out("client-resolve-route", expect_event(fc, err, 2))
    return fc, cid


def child_case(out, addr, port, orphan):
    fa = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    fb = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    _, lid = create_id(fa, uid=0xA1)
    out("listen", bind_ip(fa, lid, addr, port) or
        cmd(fa, LISTEN, struct.pack("=II", lid, 4)))
    fc, cid = connect_client(out, addr, port)
    # ids are numbered lowest-free: this is the number the new id gets.
    _, guess = create_id(fa)
    destroy_id(fa, guess)
    out("connect", cmd(fc, CONNECT, conn_param(0x4242) +
                       struct.pack("=II", cid, 0) + bytes(8)))
    out("request-queued", "yes" if readable(fa, 10000) else "no")
    err = migrate(fb, guess, fa)
    out("migrate-undelivered", err)
    if not err:
        # The bug: the id moved without its request; free it there.
        out("destroy-undelivered-on-b", destroy_id(fb, guess)[0])
    if orphan:
        err, reported = destroy_id(fa, lid)
        out("destroy-listener", err)
        out("listener-events-reported", str(reported))
        out("file-a-queue-after", "nonempty" if readable(fa, 0) else "empty")
    else:
        ev = get_event(fa, 1000)
        out("get-request", ev[0])
        if ev[0] or ev[3] != EV_CONNECT_REQUEST:
            # Nothing to go on: do not act on a stray number.
            out("request-event", str(ev[3]))
            return
        out("request-event", str(ev[3]))
        out("request-uid", hex(ev[1]))
        out("request-id-is-guess", "yes" if ev[2] == guess else
            f"no({ev[2]}!={guess})")
        out("migrate-delivered", migrate(fb, ev[2], fa))
        out("reject-on-b",
            cmd(fb, REJECT, struct.pack("=IBB2x", ev[2], 0, 0) + bytes(256)))
        out("destroy-delivered-on-b", destroy_id(fb, ev[2])[0])
        out("destroy-listener", destroy_id(fa, lid)[0])
    destroy_id(fc, cid)
    os.close(fa)
    os.close(fb)
    os.close(fc)


def join(fd, id_, group, uid):
    resp = Buf(4)
    addr = sin(group)
    err = cmd(fd, JOIN_MCAST,
              struct.pack("=QQIHH", resp.addr, uid, id_, 16, 0) + addr +
              bytes(128 - len(addr)), 4)
    return err, struct.unpack_from("=I", resp.raw)[0]


def leave(fd, mid):
    resp = Buf(4)
    return cmd(fd, LEAVE_MCAST, struct.pack("=QII", resp.addr, mid, 0), 4)


def mcast_case(out, addr, group):
    fd = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    _, uid_ = create_id(fd, ps=PS_UDP, uid=0xD1)
    out("bind", bind_ip(fd, uid_, addr))
    err1, m1 = join(fd, uid_, group, 0xB1)
    err2, m2 = join(fd, uid_, group, 0xB2)
    out("join-first", err1)
    out("join-second-same-address", err2)
    if not err2:
        out("leave-second", leave(fd, m2))
    joins = []
    while True:
        ev = get_event(fd, 2000)
        if ev[0]:
            break
        joins.append(f"{ev[3]}:{ev[1]:#x}")
    # One MULTICAST_JOIN (12) for the join that stays, with its uid.
    out("join-events", ",".join(joins) or "none")
    out("leave-first", leave(fd, m1))
    out("leave-first-again", leave(fd, m1))
    err, m3 = join(fd, uid_, group, 0xB3)
    out("rejoin-after-leave", err)
    ev = get_event(fd, 2000)
    out("rejoin-event", ev[0] or f"{ev[3]}:{ev[1]:#x}")
    out("leave-rejoined", err or leave(fd, m3))
    out("destroy", destroy_id(fd, uid_)[0])
    os.close(fd)


def main():
    out = Out()
    what, addr, arg = sys.argv[1:4]
    if what == "child-migrate":
        child_case(out, addr, int(arg), orphan=False)
    elif what == "child-orphan":
        child_case(out, addr, int(arg), orphan=True)
    elif what == "mcast-dup":
        mcast_case(out, addr, arg)
    else:
        return 2
    print("\n".join(out.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
