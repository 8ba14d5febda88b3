#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Send raw RDMA netlink (nldev) requests and print what the kernel answers.

    nlprobe.py CASE...      one line per case: "CASE RESULT"
    nlprobe.py monitor CMD  listen to the device events (`rdma monitor`)
                            while the shell runs CMD; one line per event

RESULT is OK or an errno name, followed by the number of reply messages
and, for sys-get, the attributes.  The expected results are the in-tree
stack's; tests/guest/foundation.sh holds them and runs this on both stacks.
"""
import errno
import os
import re
import socket
import struct
import sys

NETLINK_RDMA = 20
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
UAPI = "/usr/include/rdma/rdma_netlink.h"


def uapi_enum(path, member):
    """The enum of a UAPI header that has @member, so none is re-declared."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(path).read(), flags=re.S)
    body = next(b for b in re.findall(r"enum\s*\w*\s*{(.*?)}", text, re.S)
                if re.search(r"\b%s\b" % member, b))
    values, nxt = {}, 0
    for item in filter(None, (i.strip() for i in body.split(","))):
        if "=" in item:
            key, val = (x.strip() for x in item.split("=", 1))
            nxt = values[val] if val in values else int(val, 0)
        else:
            key = item
        values[key] = nxt
        nxt += 1
    return values


_cmd = uapi_enum(UAPI, "RDMA_NLDEV_CMD_GET")
_att = uapi_enum(UAPI, "RDMA_NLDEV_ATTR_DEV_INDEX")
NLDEV = uapi_enum(UAPI, "RDMA_NL_NLDEV")["RDMA_NL_NLDEV"]
CMD_GET, CMD_NEWLINK, CMD_DELLINK, CMD_PORT_GET = (
    _cmd["RDMA_NLDEV_CMD_" + n] for n in ("GET", "NEWLINK", "DELLINK",
                                          "PORT_GET"))
CMD_SYS_GET = _cmd["RDMA_NLDEV_CMD_SYS_GET"]
CMD_SYS_SET = _cmd["RDMA_NLDEV_CMD_SYS_SET"]
CMD_GET_CHARDEV = _cmd["RDMA_NLDEV_CMD_GET_CHARDEV"]
A_DEV_INDEX = _att["RDMA_NLDEV_ATTR_DEV_INDEX"]
A_DEV_NAME = _att["RDMA_NLDEV_ATTR_DEV_NAME"]
A_PORT_INDEX = _att["RDMA_NLDEV_ATTR_PORT_INDEX"]
A_NDEV_NAME = _att["RDMA_NLDEV_ATTR_NDEV_NAME"]
A_LINK_TYPE = _att["RDMA_NLDEV_ATTR_LINK_TYPE"]
A_CHARDEV_TYPE = _att["RDMA_NLDEV_ATTR_CHARDEV_TYPE"]
S_NETNS_MODE = _att["RDMA_NLDEV_SYS_ATTR_NETNS_MODE"]
S_COPY_ON_FORK = _att["RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK"]
S_PQKEY_MODE = _att["RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE"]

def attr(kind, value):
    if isinstance(value, str):
        data = value.encode() + b"\0"
    else:
        data = struct.pack("=I", value)
    pad = (4 - len(data) % 4) % 4
    return struct.pack("=HH", 4 + len(data), kind) + data + b"\0" * pad


def attr_u8(kind, value):
    return struct.pack("=HHB", 5, kind, value) + b"\0" * 3


def parse_attrs(data):
    out = {}
    while len(data) >= 4:
        ln, kind = struct.unpack_from("=HH", data)
        if ln < 4:
            break
        out[kind & 0x3fff] = data[4:ln]
        data = data[(ln + 3) & ~3:]
    return out


def messages(buf):
    """The (type, payload) of each netlink message in one datagram."""
    while len(buf) >= 16:
        ln, kind, _, _, _ = struct.unpack_from("=IHHII", buf)
        yield kind, buf[16:ln]
        buf = buf[(ln + 3) & ~3:]


def request(client, op, attrs=b"", flags=NLM_F_ACK, sock=None):
    s = sock or socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_RDMA)
    msg_type = (client << 10) + op
    body = attrs
    hdr = struct.pack("=IHHII", 16 + len(body), msg_type,
                      NLM_F_REQUEST | flags, 1, 0)
    s.send(hdr + body)
    replies, err = [], None
    while err is None:
        for kind, payload in messages(s.recv(65536)):
            if kind == NLMSG_ERROR:
                err = -struct.unpack_from("=i", payload)[0]
            elif kind == NLMSG_DONE:
                err = -struct.unpack_from("=i", payload)[0] if payload else 0
            else:
                replies.append(parse_attrs(payload))
        if not (flags & (NLM_F_ACK | NLM_F_DUMP)) and replies:
            err = 0
    s.close()
    return err, replies


def as_nobody(fn):
    """Run fn() in a child without privileges; returns its errno value."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
        err, _ = fn()
        os.write(w, str(err).encode())
        os._exit(0)
    os.close(w)
    data = os.read(r, 32)
    os.waitpid(pid, 0)
    return int(data), []


def name(err):
    return "OK" if err == 0 else errno.errorcode.get(err, str(err))


CASES = {
    "get-noindex": lambda: request(NLDEV, CMD_GET),
    "get-badindex": lambda: request(NLDEV, CMD_GET, attr(A_DEV_INDEX, 999)),
    "get-dump": lambda: request(NLDEV, CMD_GET, flags=NLM_F_DUMP),
    "port-dump-noindex": lambda: request(NLDEV, CMD_PORT_GET, flags=NLM_F_DUMP),
    "port-get-badindex": lambda: request(
        NLDEV, CMD_PORT_GET, attr(A_DEV_INDEX, 999) + attr(A_PORT_INDEX, 1)),
    "sys-get": lambda: request(NLDEV, CMD_SYS_GET),
    "unknown-op": lambda: request(NLDEV, 200),
    "unknown-client": lambda: request(40, 1),
    "chardev-notype": lambda: request(NLDEV, CMD_GET_CHARDEV),
    "chardev-uverbs-nodev": lambda: request(
        NLDEV, CMD_GET_CHARDEV, attr(A_CHARDEV_TYPE, "uverbs")),
    "chardev-unknown-client": lambda: request(
        NLDEV, CMD_GET_CHARDEV, attr(A_CHARDEV_TYPE, "nosuchclient")),
    "chardev-port-without-dev": lambda: request(
        NLDEV, CMD_GET_CHARDEV,
        attr(A_CHARDEV_TYPE, "uverbs") + attr(A_PORT_INDEX, 1)),
    "newlink-missing-attrs": lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "x0")),
    "newlink-pattern-name": lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "rxe%d") +
        attr(A_LINK_TYPE, "rxe") + attr(A_NDEV_NAME, "lo")),
    "newlink-long-name": lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "n" * 80) +
        attr(A_LINK_TYPE, "rxe") + attr(A_NDEV_NAME, "lo")),
    "newlink-unknown-netdev": lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "x0") +
        attr(A_LINK_TYPE, "rxe") + attr(A_NDEV_NAME, "nosuch0")),
    "newlink-unknown-type": lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "x0") +
        attr(A_LINK_TYPE, "nosuchtype") + attr(A_NDEV_NAME, "lo")),
    "newlink-unprivileged": lambda: as_nobody(lambda: request(
        NLDEV, CMD_NEWLINK, attr(A_DEV_NAME, "x0") +
        attr(A_LINK_TYPE, "rxe") + attr(A_NDEV_NAME, "lo"))),
    "sys-set-empty": lambda: request(NLDEV, CMD_SYS_SET),
    "sys-set-pqkey-2": lambda: request(
        NLDEV, CMD_SYS_SET, attr_u8(S_PQKEY_MODE, 2)),
    "sys-set-pqkey-unprivileged": lambda: as_nobody(lambda: request(
        NLDEV, CMD_SYS_SET, attr_u8(S_PQKEY_MODE, 1))),
    "dellink-badindex": lambda: request(
        NLDEV, CMD_DELLINK, attr(A_DEV_INDEX, 999)),
    "dellink-unprivileged": lambda: as_nobody(lambda: request(
        NLDEV, CMD_DELLINK, attr(A_DEV_INDEX, 999))),
}


# Changes of state, run only when named: `nlprobe.py pqkey-on`
ACTIONS = {
    "pqkey-on": lambda: request(NLDEV, CMD_SYS_SET, attr_u8(S_PQKEY_MODE, 1)),
    "pqkey-off": lambda: request(NLDEV, CMD_SYS_SET, attr_u8(S_PQKEY_MODE, 0)),
}


def kernel_uapi():
    """The running kernel's own rdma_netlink.h (its headers package, where
    the guest has it): the events are the kernel's, and a bookworm root's
    /usr/include is 6.1's whatever kernel runs."""
    rel = os.uname().release
    common = "/usr/src/linux-headers-%s-common" % rel.rsplit("-", 1)[0]
    path = common + "/include/uapi/rdma/rdma_netlink.h"
    return path if os.path.exists(path) else UAPI


def monitor(command):
    """Join the NOTIFY group as `rdma monitor` does, run @command, then
    print each event until none came for a second."""
    path = kernel_uapi()
    if "RDMA_NLDEV_CMD_MONITOR" not in open(path).read():
        print("monitor: not in this kernel")
        return 0
    cmd = uapi_enum(path, "RDMA_NLDEV_CMD_MONITOR")["RDMA_NLDEV_CMD_MONITOR"]
    att = uapi_enum(path, "RDMA_NLDEV_ATTR_EVENT_TYPE")
    events = {v: k[len("RDMA_"):-len("_EVENT")] for k, v in
              uapi_enum(path, "RDMA_REGISTER_EVENT").items()}
    group = uapi_enum(path, "RDMA_NL_GROUP_NOTIFY")["RDMA_NL_GROUP_NOTIFY"]
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_RDMA)
    s.bind((0, 1 << (group - 1)))
    rc = os.system(command)
    s.settimeout(1.0)
    while True:
        try:
            buf = s.recv(65536)
        except socket.timeout:
            break
        for kind, payload in messages(buf):
            a = parse_attrs(payload)
            if kind != (NLDEV << 10) + cmd:
                print("monitor: message type %#x" % kind)
                continue
            ev = a.get(att["RDMA_NLDEV_ATTR_EVENT_TYPE"], b"?")[0]
            line = "%s %s" % (events.get(ev, ev),
                              a[A_DEV_NAME].rstrip(b"\0").decode())
            if A_PORT_INDEX in a:
                line += " port %d" % struct.unpack("=I", a[A_PORT_INDEX])[0]
            if A_NDEV_NAME in a:
                line += " " + a[A_NDEV_NAME].rstrip(b"\0").decode()
            print(line)
    return 1 if rc else 0


def main():
    if sys.argv[1:2] == ["monitor"]:
        return monitor(" ".join(sys.argv[2:]))
    status = 0
    for case in sys.argv[1:] or sorted(CASES):
        run = CASES.get(case) or ACTIONS.get(case)
        if not run:
            print(f"{case} UNKNOWN-CASE")
            status = 2
            continue
        err, replies = run()
        line = f"{case} {name(err)} {len(replies)}"
        if case == "sys-get" and replies:
            a = replies[0]
            line += " netns=%d cof=%d pqkey=%d" % (
                a[S_NETNS_MODE][0], a[S_COPY_ON_FORK][0], a[S_PQKEY_MODE][0])
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
