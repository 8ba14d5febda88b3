#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Poke /dev/infiniband/rdma_cm with raw write() commands; one line per case.

    ucma_probe.py           every case: "CASE RESULT"
    ucma_probe.py chardev   GET_CHARDEV "rdma_cm": "NAME ABI MAJOR:MINOR"

RESULT is OK (with a value for some cases) or an errno name.  The command
numbers and layouts come from /usr/include/rdma/rdma_user_cm.h's sizes as
librdmacm 44 writes them; tests/guest/ucma.sh holds the expected results of
both stacks.
"""
import ctypes
import errno
import os
import select
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nlprobe  # noqa: E402

DEV = "/dev/infiniband/rdma_cm"
(CREATE_ID, DESTROY_ID, BIND_IP, RESOLVE_IP, RESOLVE_ROUTE, QUERY_ROUTE,
 CONNECT, LISTEN, ACCEPT, REJECT, DISCONNECT, INIT_QP_ATTR, GET_EVENT,
 GET_OPTION, SET_OPTION, NOTIFY, JOIN_IP_MCAST, LEAVE_MCAST, MIGRATE_ID,
 QUERY, BIND, RESOLVE_ADDR, JOIN_MCAST) = range(23)
PS_TCP, PS_UDP = 0x0106, 0x0111
AF_INET = 2


def name(err):
    return "OK" if err == 0 else errno.errorcode.get(err, str(err))


class Buf:
    """A response buffer with a stable address."""

    def __init__(self, size):
        self.raw = ctypes.create_string_buffer(size)
        self.addr = ctypes.addressof(self.raw)


def cmd(fd, op, body, out=0, total=None):
    msg = struct.pack("=IHH", op, len(body), out) + body
    if total is not None:
        msg = msg[:total]
    try:
        n = os.write(fd, msg)
        return 0 if n == len(msg) else errno.EIO
    except OSError as e:
        return e.errno


def create_id(fd, ps=PS_TCP, resp=None, uid=0x1234):
    resp = resp or Buf(4)
    err = cmd(fd, CREATE_ID,
              struct.pack("=QQHB5x", uid, resp.addr, ps, 0), 4)
    return err, struct.unpack_from("=I", resp.raw)[0]


def destroy_id(fd, id_):
    resp = Buf(4)
    err = cmd(fd, DESTROY_ID, struct.pack("=QII", resp.addr, id_, 0), 4)
    return err, struct.unpack_from("=I", resp.raw)[0]


def sin(addr, port=0):
    a = bytes(int(x) for x in addr.split("."))
    return struct.pack("=H", AF_INET) + struct.pack(">H", port) + a + \
        bytes(20)   # sockaddr_in6-sized


def cases():
    fd = os.open(DEV, os.O_RDWR | os.O_NONBLOCK)
    out = []

    def case(label, err, value=None):
        out.append(f"{label} {name(err)}" +
                   (f" {value}" if value is not None and not err else ""))

    case("short-write", cmd(fd, CREATE_ID, b"", total=4))
    case("in-past-write",
         cmd(fd, DESTROY_ID, struct.pack("=QII", 0, 0, 0), 4, total=20))
    case("get-option", cmd(fd, GET_OPTION, bytes(24)))
    case("unknown-cmd", cmd(fd, 99, bytes(16)))
    case("create-bad-ps", create_id(fd, ps=0x999)[0])
    err = cmd(fd, CREATE_ID, struct.pack("=QQHB5x", 1, 8, PS_TCP, 0), 4)
    case("create-bad-response", err)
    case("create-short-out",
         cmd(fd, CREATE_ID, struct.pack("=QQHB5x", 1, Buf(4).addr,
                                        PS_TCP, 0), 2))
    case("destroy-unknown", destroy_id(fd, 0x7ffffff0)[0])
    err, id_ = create_id(fd)
    case("create", err)
    case("query-route-unbound",
         cmd(fd, QUERY_ROUTE, struct.pack("=QII", Buf(208).addr, id_, 0),
             208))
    case("query-route-short-out",
         cmd(fd, QUERY_ROUTE, struct.pack("=QII", Buf(208).addr, id_, 0),
             100))
    case("query-bad-option",
         cmd(fd, QUERY, struct.pack("=QII", Buf(280).addr, id_, 9), 280))
    case("bind-ip-bad-family",
         cmd(fd, BIND_IP, struct.pack("=Q", 0) + bytes(28) +
             struct.pack("=I", id_)))
    case("init-qp-attr-unbound",
         cmd(fd, INIT_QP_ATTR,
             struct.pack("=QII", Buf(144).addr, id_, 1), 144))
    case("init-qp-attr-bad-state",
         cmd(fd, INIT_QP_ATTR,
             struct.pack("=QII", Buf(144).addr, id_, 99), 144))
    case("get-event-empty",
         cmd(fd, GET_EVENT, struct.pack("=Q", Buf(336).addr), 336))
    case("get-event-short-out",
         cmd(fd, GET_EVENT, struct.pack("=Q", Buf(336).addr), 300))
    case("poll-empty", 0, _poll(fd))
    case("set-option-big",
         cmd(fd, SET_OPTION, struct.pack("=QIIII", 0, id_, 0, 0, 1 << 30)))
    case("set-option-tos-len",
         cmd(fd, SET_OPTION,
             struct.pack("=QIIII", Buf(4).addr, id_, 0, 0, 4)))
    case("connect-not-valid",
         cmd(fd, CONNECT, bytes(272) + struct.pack("=II", id_, 0) +
             bytes(8)))
    case("reject-bad-reason",
         cmd(fd, REJECT, struct.pack("=IBB2x", id_, 0, 1) + bytes(256)))
    case("join-bad-flags",
         cmd(fd, JOIN_MCAST, struct.pack("=QQIHH", Buf(4).addr, 0, id_,
                                          16, 7) + bytes(128), 4))
    case("leave-unknown",
         cmd(fd, LEAVE_MCAST, struct.pack("=QII", Buf(4).addr, 0x7ffffff0,
                                           0), 4))
    case("migrate-bad-fd",
         cmd(fd, MIGRATE_ID, struct.pack("=QII", Buf(4).addr, id_, 1000),
             4))
    # Another file's id is not ours to use.
    fd2 = os.open(DEV, os.O_RDWR)
    case("other-file-destroy", destroy_id(fd2, id_)[0])
    case("bind-ip", cmd(fd, BIND_IP, struct.pack("=Q", 0) +
                        sin("10.0.2.15") + struct.pack("=I", id_)))
    case("listen", cmd(fd, LISTEN, struct.pack("=II", id_, 4)))
    resp = Buf(4)
    case("migrate", cmd(fd2, MIGRATE_ID,
                        struct.pack("=QII", resp.addr, id_, fd), 4),
         struct.unpack_from("=I", resp.raw)[0])
    case("destroy-after-migrate-old-file", destroy_id(fd, id_)[0])
    err, reported = destroy_id(fd2, id_)
    case("destroy", err, reported)
    case("destroy-again", destroy_id(fd2, id_)[0])
    # Ids left behind go with their file.
    for _ in range(3):
        create_id(fd)
    os.close(fd2)
    os.close(fd)
    return out


def _poll(fd):
    p = select.poll()
    p.register(fd, select.POLLIN)
    return len(p.poll(0))


def chardev():
    err, replies = nlprobe.request(
        nlprobe.NLDEV, nlprobe.CMD_GET_CHARDEV,
        nlprobe.attr(nlprobe.A_CHARDEV_TYPE, "rdma_cm"))
    if err:
        return name(err)
    a = replies[0]
    att = nlprobe._att
    dev = struct.unpack("=Q", a[att["RDMA_NLDEV_ATTR_CHARDEV"]])[0]
    abi = struct.unpack("=Q", a[att["RDMA_NLDEV_ATTR_CHARDEV_ABI"]])[0]
    nm = a[att["RDMA_NLDEV_ATTR_CHARDEV_NAME"]].rstrip(b"\0").decode()
    st = os.stat(DEV)
    same = "same-as-node" if dev == st.st_rdev else \
        f"node-differs:{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
    return f"{nm} {abi} {same}"


def main():
    if sys.argv[1:] == ["chardev"]:
        print(chardev())
        return 0
    for line in cases():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
