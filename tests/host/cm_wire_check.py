#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side check of the CM MADs in a capture of the two-guest CM wire
tests (tests/host/cm_wire.sh; tests/host/wire-check.py checks every frame's
dissection and RoCEv2 ICRC, this checks the connection manager on top).

    tests/host/cm_wire_check.py --tag TAG [--guest LABEL=ADDR[,ADDR...]]...
        --tests TSV PCAP

Every RoCEv2 frame to QP1 is decoded by tshark's InfiniBand dissector: it
must carry a MAD of the CM class (0x07) with a CM attribute (REQ ... APR,
ClassPortInfo), with no malformed mark and no expert error.  Per test
(tests.tsv: name, start, end, status on the capturing guest's clock) the
CM messages are listed per direction and a test must show the exchange its
tool makes: REQ, REP, RTU, DREQ, DREP for connected tools, SIDR_REQ and
SIDR_REP for udaddy.

A MAD is given to its test by identity, not by clock: a REQ or SIDR_REQ by
the rdma_cm port in its service ID (tests.tsv's fifth column), every later
message of that connection by the communication IDs the REQ and REP
introduced, a SIDR_REP by its request ID.  Only a MAD that names nothing
known (or a port two tests share, as udaddy's) falls back to the time
window: the latest test started before it.  Ends with "cm-wire-capture-TAG: N passed, N failed".
"""
import argparse
import sys

from capture_lib import (BETWEEN, Results, expert_errors, guest_labels,
                         read_tests, test_at, tshark_fields)

CM_ATTRS = {0x0001: "ClassPortInfo", 0x0010: "REQ", 0x0011: "MRA",
            0x0012: "REJ", 0x0013: "REP", 0x0014: "RTU", 0x0015: "DREQ",
            0x0016: "DREP", 0x0017: "SIDR_REQ", 0x0018: "SIDR_REP",
            0x0019: "LAP", 0x001A: "APR"}
CONNECTED = ["REQ", "REP", "RTU", "DREQ", "DREP"]
SIDR = ["SIDR_REQ", "SIDR_REP"]


def frames(path):
    fields = ["frame.number", "frame.time_epoch", "ip.src", "ipv6.src",
              "infiniband.bth.destqp", "infiniband.mad.mgmtclass",
              "infiniband.mad.attributeid", "_ws.malformed",
              "_ws.expert.severity", "_ws.expert.message", "udp.payload"]
    out, rows = tshark_fields(path, fields,
                              ["-Y", "infiniband.bth.destqp == 1"])
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-300:])
    for c in rows:
        errs = [m for m in expert_errors(c[8], c[9])
                if not (m == "Illegal checksum value (0)" and c[3])]
        yield {"num": int(c[0]), "t": float(c[1]), "src": c[2] or c[3],
               "mclass": int(c[5], 0) if c[5] else None,
               "attr": int(c[6], 0) if c[6] else None,
               "malformed": bool(c[7]), "errors": errs,
               "keys": cm_keys(c[10], int(c[6], 0) if c[6] else None)}


# Offsets in the UDP payload: BTH (12) + DETH (8) + MAD header (24), then
# the CM message; IDs as raw 4-byte strings, the port from the service ID.
CM_DATA = 12 + 8 + 24


def cm_keys(payload_hex, attr):
    """{"local", "remote", "port", "reqid"} of a CM MAD, those it carries."""
    try:
        d = bytes.fromhex(payload_hex.replace(":", ""))[CM_DATA:]
    except ValueError:
        return {}
    if len(d) < 16:
        return {}
    name = CM_ATTRS.get(attr)
    if name == "REQ":
        return {"local": d[0:4], "port": int.from_bytes(d[14:16], "big")}
    if name == "SIDR_REQ":
        return {"reqid": d[0:4], "port": int.from_bytes(d[14:16], "big")}
    if name == "SIDR_REP":
        return {"reqid": d[0:4]}
    if name in ("REP", "RTU", "DREQ", "DREP", "REJ", "MRA", "LAP", "APR"):
        return {"local": d[0:4], "remote": d[4:8]}
    return {}


def by_time(tests, t):
    """The latest test started by t (within its end + SLACK), or BETWEEN."""
    return test_at(tests, t) or BETWEEN


class Attributor:
    """Gives each CM MAD, in capture order, the test it belongs to."""

    def __init__(self, tests):
        self.tests = tests
        self.comm = {}   # communication ID -> test
        self.sidr = {}   # SIDR request ID -> test

    def __call__(self, x):
        k = x["keys"]
        if "port" in k:
            named = [tt for tt in self.tests if tt[4] == k["port"]]
            name = named[0][0] if len(named) == 1 else by_time(named or self.tests, x["t"])
            if "local" in k:
                self.comm[k["local"]] = name
            else:
                self.sidr[k["reqid"]] = name
            return name
        if "reqid" in k and k["reqid"] in self.sidr:
            return self.sidr[k["reqid"]]
        name = self.comm.get(k.get("remote")) or self.comm.get(k.get("local"))
        if name:
            # a REP (or REJ) introduces the answering side's ID
            self.comm[k["local"]] = name
            return name
        return by_time(self.tests, x["t"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tag", required=True)
    ap.add_argument("--guest", action="append", default=[])
    ap.add_argument("--tests", required=True)
    ap.add_argument("pcap")
    a = ap.parse_args()
    label = guest_labels(a.guest)
    tests = read_tests(a.tests)
    result = Results()

    try:
        fr = list(frames(a.pcap))
    except (RuntimeError, OSError) as e:
        result(False, f"capture {a.pcap}", str(e))
        return result.done(f"cm-wire-capture-{a.tag}")
    per = {}
    attribute = Attributor(tests)
    for x in fr:
        name = attribute(x)
        st = per.setdefault(name, {"mads": 0, "bad": [], "seen": {}})
        st["mads"] += 1
        who = label.get(x["src"], x["src"])
        attr = CM_ATTRS.get(x["attr"]) if x["mclass"] == 0x07 else None
        if attr is None:
            st["bad"].append(f"frame {x['num']} from {who}: class "
                             f"{x['mclass']}, attribute {x['attr']}: not a CM MAD")
        if x["malformed"]:
            st["bad"].append(f"frame {x['num']} from {who}: malformed")
        for m in x["errors"]:
            st["bad"].append(f"frame {x['num']} from {who}: tshark: {m}")
        if attr:
            st["seen"].setdefault(attr, {}).setdefault(who, 0)
            st["seen"][attr][who] += 1
    for name, _, _, status, _ in tests + [(BETWEEN, 0, 0, "0", None)]:
        st = per.get(name)
        if st is None:
            if name == BETWEEN:
                continue
            st = {"mads": 0, "bad": [], "seen": {}}
        seen = "; ".join(f"{k} " + ",".join(f"{w}:{n}" for w, n in sorted(v.items()))
                         for k, v in sorted(st["seen"].items()))
        print(f"# {name}: {st['mads']} MADs: {seen}")
        if name == BETWEEN:
            result(not st["bad"], f"CM MADs {name}: all dissected cleanly",
                   "; ".join(st["bad"][:4]))
            continue
        want = SIDR if name.startswith("udaddy") else CONNECTED
        missing = [m for m in want if m not in st["seen"]]
        why = st["bad"][:4]
        if missing:
            why.append("no " + " ".join(missing)
                       + (f" (the test exited {status})" if status != "0" else ""))
        result(not why, f"CM MADs {name}: {' '.join(want)} seen, "
               "every MAD dissected cleanly", "; ".join(why))
    return result.done(f"cm-wire-capture-{a.tag}")


if __name__ == "__main__":
    sys.exit(main())
