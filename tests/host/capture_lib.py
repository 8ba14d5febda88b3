# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What the host-side checks of the two-guest lanes' captures share
(wire-check.py: every frame and its ICRC; cm_wire_check.py: the CM MADs):
tshark over a RoCEv2 capture and its expert errors, the guests' address
labels, the capturing guest's tests.tsv and which test a frame belongs to,
and the "ok - ..." result lines with their "NAME: N passed, N failed"."""
import functools
import ipaddress
import os
import subprocess

ROCE_PORT = 4791
BETWEEN = "(between tests)"
SLACK = 1.0  # s after a test's end: the last ACKs, a late retransmission
ERROR = 0x800000  # tshark's expert severity "error"


def tshark_cmd():
    """tshark, or the tshark of the root OOT_TSHARK_ROOT names (the target
    distribution's: trixie's 4.4 decodes RDMA FLUSH, bookworm's 4.0 does
    not), which reads the capture from its standard input."""
    root = os.environ.get("OOT_TSHARK_ROOT")
    return ["chroot", root, "tshark"] if root else ["tshark"]


@functools.lru_cache(maxsize=None)
def tshark_knows(field):
    """Whether this tshark has the display field FIELD."""
    out = subprocess.run(tshark_cmd() + ["-G", "fields"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=False)
    return any(line.split("\t")[2:3] == [field] for line in out.stdout.splitlines())


def tshark_fields(path, fields, args=()):
    """Runs tshark over PATH, UDP 4791 decoded as InfiniBand (RoCEv2), with
    ARGS; returns its completed process and one list of FIELDS per frame
    (a field seen several times in a frame joined by 0x1f)."""
    cmd = tshark_cmd() + ["-r", "-", "-n",
                          "-d", f"udp.port=={ROCE_PORT},infiniband", *args,
                          "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                          "-E", "aggregator=\x1f"]
    for f in fields:
        cmd += ["-e", f]
    with open(path, "rb") as capture:
        out = subprocess.run(cmd, stdin=capture, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, check=False)
    rows = []
    for line in out.stdout.splitlines():
        c = line.split("\t")
        rows.append(c + [""] * (len(fields) - len(c)))
    return out, rows


def expert_errors(severities, messages):
    """The messages of a frame's expert infos of severity error or worse,
    from its _ws.expert.severity and _ws.expert.message fields."""
    sev = severities.split("\x1f") if severities else []
    msg = messages.split("\x1f") if messages else []
    return [m for s, m in zip(sev, msg) if s and int(s, 0) >= ERROR]


def guest_labels(guests):
    """{address: label} from --guest LABEL=ADDR[,ADDR...] arguments."""
    label = {}
    for g in guests:
        lab, _, addrs = g.partition("=")
        for x in addrs.split(","):
            if x:
                label[str(ipaddress.ip_address(x))] = lab
    return label


def read_tests(path):
    """[(name, start, end, exit status, port or None)] from a tests.tsv
    (the port: cm_wire.sh's fifth column)."""
    tests = []
    if path:
        with open(path) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if len(c) >= 4:
                    port = int(c[4]) if len(c) >= 5 and c[4] else None
                    tests.append((c[0], float(c[1]), float(c[2]), c[3], port))
    return tests


def test_at(tests, t):
    """The test a frame at time t belongs to, or None.  Tests run one after
    another, and the next may start within SLACK of the previous one's end:
    a frame belongs to the latest test started before it, the previous
    test's tail being only its last ACKs."""
    best = None
    for tn, t0, t1, *_ in tests:
        if t0 <= t <= t1 + SLACK and (best is None or t0 > best[1]):
            best = (tn, t0)
    return best[0] if best else None


class Results:
    """Counts and prints "ok - DESC" / "not ok - DESC: WHY" lines."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, ok, desc, why=""):
        if ok:
            self.passed += 1
            print(f"ok - {desc}")
        else:
            self.failed += 1
            print(f"not ok - {desc}: {why[:600]}")

    def done(self, name):
        """Prints NAME's summary line; the exit status."""
        print(f"{name}: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
