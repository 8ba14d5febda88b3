#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side check of a RoCEv2 capture from the two-guest wire tests.

    tests/host/wire-check.py --tag TAG --ours ADDR[,ADDR...]
        [--guest LABEL=ADDR[,ADDR...]]... [--tests TSV] PCAP

The capture (classic pcap, Ethernet) is decoded twice:

  * by tshark's InfiniBand dissector (`-d udp.port==4791,infiniband`): each
    UDP 4791 frame must be dissected as InfiniBand (a BTH opcode), with no
    malformed-packet mark and no expert error other than tshark's "Illegal
    checksum value (0)" for a zero UDP checksum over IPv6, which RoCEv2
    allows (stock rxe sends it).  The heuristic dissectors tshark tries on
    InfiniBand payloads (RPC-over-RDMA, SMB Direct, iSER, ...) are turned
    off: the payloads are the tools' test data, and those dissectors would
    mark short ones malformed as their own protocol;
  * by the RoCEv2 ICRC computed here (tshark 4.0 shows
    infiniband.invariant.crc but never verifies it): CRC-32 over 8 bytes of
    0xff (the masked LRH), the IP header with IPv4 TOS, TTL and header
    checksum (IPv6 traffic class, flow label and hop limit) set to ones, the
    UDP header with its checksum set to ones, the BTH with its resv8a byte
    set to ones, then the rest of the packet up to the ICRC, which follows
    it little-endian.  tshark's infiniband.invariant.crc must be the same
    four bytes.  An RC FLUSH may carry the in-tree rxe's own form instead
    (its headers covered twice, sw_rxe/rxe_icrc.h): counted apart;
  * RC FLUSH (where tshark knows FETH, 4.4 of trixie): FETH dissected, its
    placement type and selectivity level valid as the kernel lays them out
    (flush_feth()); a test named flush-* must hold FLUSH requests.

--nvme PORTS: the capture is NVMe over RDMA (tests/host/nvmet.sh) to the
subsystem ports PORTS ("4420,4421").  After the checks above (the payloads
as plain InfiniBand), tshark decodes it once more with its nvme-rdma
dissector on (its heuristic on InfiniBand payloads and on the CM's private
data, following the queues the CM REQs to those ports set up), and an NVMe
summary follows: the NVMe-oF commands (capsules) and responses (CQEs) it
decoded, by kind.  There must be both, a Fabrics Connect among the
commands, and no malformed frame but one kind: tshark (4.0 and 4.4) throws
an exception in the middle and last RDMA WRITE fragments of a Commands
Supported and Effects log page (it decodes each fragment as if the page
began there): those are counted and named, and they must be clean in the
first decode.  A SEND of more than one packet (a 4 KiB in-capsule write)
is not reassembled by tshark: such commands are not in the counts.

--ours: source addresses (IPv4 or IPv6) of the guest(s) running our stack;
their packets are counted apart.  --guest names each guest's addresses, for
the per-direction totals ("LABEL -> OTHER-LABEL").  TSV (tests/guest/wire.sh's tests.tsv: name, start,
end, exit status per test, on the capturing guest's clock) attributes every
frame to a test; frames outside every test are checked as "(between tests)".
One check per test (it must have traffic, and all of it must pass) and for
the checker itself; then per-source totals and
"wire-capture-TAG: N passed, N failed".
"""
import argparse
import ipaddress
import os
import struct
import sys
import zlib

from capture_lib import (BETWEEN, ROCE_PORT, Results, expert_errors,
                         guest_labels, read_tests, test_at, tshark_fields,
                         tshark_knows)

ZERO_UDP6 = "Illegal checksum value (0)"
# RDMA FLUSH (IBTA 1.5): the RC opcode, and the FETH's placement types
# (bit 0 global visibility, bit 1 persistence) and selectivity levels
# (0 a range, 1 the whole memory region) a request may carry
RC_FLUSH = 28
FLUSH_PLACEMENT = {1, 2, 3}
FLUSH_SELECTIVITY = {0, 1}


def read_pcap(path):
    """(frame number from 1, time, bytes, truncated) per frame of a pcap."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError(f"{path}: not a classic pcap file")
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError(f"{path}: link type {linktype}, not Ethernet")
    off, n = 24, 0
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack(e + "IIII", data[off:off + 16])
        n += 1
        t = sec + frac / (1e9 if nano else 1e6)
        yield n, t, data[off + 16:off + 16 + incl], incl < orig
        off += 16 + incl


def roce_icrc(frame):
    """-> (src, family, icrc_in_packet, icrc_computed) or None if not RoCEv2."""
    off = 14
    etype = struct.unpack("!H", frame[12:14])[0]
    while etype == 0x8100:  # VLAN tags
        etype = struct.unpack("!H", frame[off + 2:off + 4])[0]
        off += 4
    if etype == 0x0800:
        ihl = (frame[off] & 0x0F) * 4
        total = struct.unpack("!H", frame[off + 2:off + 4])[0]
        if frame[off + 9] != 17:
            return None
        ip = bytearray(frame[off:off + ihl])
        ip[1] = 0xFF  # TOS
        ip[8] = 0xFF  # TTL
        ip[10:12] = b"\xff\xff"  # header checksum
        src = str(ipaddress.IPv4Address(frame[off + 12:off + 16]))
        end = off + total
        udp_off = off + ihl
        fam = "ipv4"
    elif etype == 0x86DD:
        plen = struct.unpack("!H", frame[off + 4:off + 6])[0]
        if frame[off + 6] != 17:  # no extension headers on RoCEv2
            return None
        ip = bytearray(frame[off:off + 40])
        ip[0] |= 0x0F  # traffic class, high nibble
        ip[1] = ip[2] = ip[3] = 0xFF  # traffic class low nibble, flow label
        ip[7] = 0xFF  # hop limit
        src = str(ipaddress.IPv6Address(frame[off + 8:off + 24]))
        end = off + 40 + plen
        udp_off = off + 40
        fam = "ipv6"
    else:
        return None
    if end > len(frame):
        raise ValueError("truncated frame")
    udp = bytearray(frame[udp_off:udp_off + 8])
    if struct.unpack("!H", udp[2:4])[0] != ROCE_PORT:
        return None
    udp[6:8] = b"\xff\xff"  # UDP checksum
    bth = bytearray(frame[udp_off + 8:udp_off + 20])
    bth[4] = 0xFF  # resv8a
    rest = frame[udp_off + 20:end - 4]
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + rest)
    return src, fam, frame[end - 4:end], struct.pack("<I", crc)


def transport_headers(frame):
    """The bytes from the BTH to the ICRC of an untagged RoCEv2 frame."""
    ipv6 = struct.unpack("!H", frame[12:14])[0] == 0x86DD
    return frame[14 + (40 if ipv6 else (frame[14] & 0x0F) * 4) + 8:-4]


def flush_feth(frame):
    """(placement type, selectivity level) of an RC FLUSH frame's FETH as
    the kernel lays it out (both rxe: bits 3:0 and 5:4; tshark 4.4 reads
    bits 2:0 and 4:3), or None for another frame."""
    hdrs = transport_headers(frame)
    if len(hdrs) < 16 or hdrs[0] != RC_FLUSH:
        return None
    word = struct.unpack("!I", hdrs[12:16])[0]
    return word & 0x0F, (word >> 4) & 0x03


def intree_flush_icrc(frame):
    """The in-tree rxe's ICRC of an RC FLUSH frame (sw_rxe/rxe_icrc.h: its
    BTH, FETH and RETH covered twice, masked then as they lie), or None
    for any other frame."""
    r = roce_icrc(frame)
    if r is None:
        return None
    hdrs = transport_headers(frame)
    if len(hdrs) != 32 or hdrs[0] != RC_FLUSH:
        return None
    # the IBTA CRC, continued over the headers once more
    return struct.pack("<I", zlib.crc32(hdrs, struct.unpack("<I", r[3])[0]))


def selftest(frame):
    """The checker itself, on one good frame: fields the ICRC masks may
    change (as routers change them), any other byte may not.  -> errors."""
    errs = []
    src, fam, got, want = roce_icrc(frame)
    if got != want:
        return [f"{fam}: the sample frame itself fails"]
    l3 = 14
    udp = l3 + (20 if fam == "ipv4" else 40)
    if fam == "ipv4":
        masked = {"TOS": l3 + 1, "TTL": l3 + 8, "IP checksum": l3 + 10}
        kept = {"IP id": l3 + 4, "IP total length": l3 + 2, "IP source": l3 + 12}
    else:
        masked = {"traffic class": l3 + 1, "flow label": l3 + 3,
                  "hop limit": l3 + 7}
        kept = {"payload length": l3 + 5, "IPv6 source": l3 + 8}
    masked.update({"UDP checksum": udp + 6, "BTH resv8a": udp + 8 + 4})
    kept.update({"UDP source port": udp, "BTH opcode": udp + 8,
                 "BTH dest QP": udp + 8 + 7, "BTH PSN": udp + 8 + 11,
                 "last byte before the ICRC": -5})
    for what, off in masked.items():
        f = bytearray(frame)
        f[off] ^= 0x5A
        _, _, g, w = roce_icrc(bytes(f))
        if g != w:
            errs.append(f"{fam}: changing the {what} broke the ICRC")
    for what, off in kept.items():
        f = bytearray(frame)
        if off < 0:  # counted from the end of the IP packet
            if fam == "ipv4":
                end = l3 + struct.unpack("!H", frame[l3 + 2:l3 + 4])[0]
            else:
                end = l3 + 40 + struct.unpack("!H", frame[l3 + 4:l3 + 6])[0]
            off = end + off
        f[off] ^= 0x5A
        try:
            _, _, g, w = roce_icrc(bytes(f))
        except ValueError:
            continue  # a changed length: truncated, as good as detected
        if g == w:
            errs.append(f"{fam}: changing the {what} went unnoticed")
    return errs


# The heuristic dissectors tshark 4.0 registers on infiniband.payload, by
# the short names --disable-heuristic takes (`tshark -G heuristic-decodes`
# lists their protocols, not these names).  A name this tshark does not know
# is dropped.
PAYLOAD_HEURISTICS = ["smcr_infiniband", "smb_direct_infiniband",
                      "rpcrdma_infiniband", "nvme_rdma", "lnet_ib",
                      "iser_infiniband", "eth_over_ib", "mellanox_eoib",
                      "sdp_infiniband", "fc_infiniband", "drbd_rdma"]


# What tshark's NVMe dissectors decode from an nvme-rdma SEND: a command
# capsule (an NVM or admin opcode, or a Fabrics command type) or a response
# (a CQE), and the Info column naming it.
NVME_FIELDS = ["nvme.cmd.opc", "nvme.fabrics.cmd.fctype", "nvme.cqe.cid",
               "nvme.cqe.status", "_ws.col.Info",
               "nvme.cmd.get_logpage.cmd_and_eff.cs"]
# RC RDMA WRITE Middle and Last: the fragments without a RETH
RC_WRITE_MIDDLE_LAST = ("7", "8")


def tshark_frames(path, nvme_ports=None):
    """frame number -> {opcode, icrc field, malformed, expert errors,
    FLUSH's placement type and selectivity level when tshark knows FETH,
    and with NVME_PORTS the NVMe fields}."""
    fields = ["frame.number", "infiniband.bth.opcode",
              "infiniband.invariant.crc", "_ws.malformed",
              "_ws.expert.severity", "_ws.expert.message",
              "ip.checksum.status", "udp.checksum.status"]
    feth = tshark_knows("infiniband.feth.plt")
    if feth:
        fields += ["infiniband.feth.plt", "infiniband.feth.sel"]
    nvme_at = len(fields)
    heur = list(PAYLOAD_HEURISTICS)
    if nvme_ports:
        fields += NVME_FIELDS
        heur.remove("nvme_rdma")
    while True:
        args = ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
        if nvme_ports:
            args += ["-o", f"nvme-rdma.subsystem_ports:{nvme_ports}"]
        for h in heur:
            args += ["--disable-heuristic", h]
        out, rows = tshark_fields(path, fields, args)
        unknown = [h for h in heur
                   if f"No such protocol {h}," in out.stderr]
        if out.returncode == 0 or not unknown:
            break
        heur = [h for h in heur if h not in unknown]
    if out.returncode != 0:
        raise RuntimeError(f"tshark failed on {path}: {out.stderr.strip()[-300:]}")
    res = {}
    for c in rows:
        errors = expert_errors(c[4], c[5])
        # checksum status: 0 bad, 1 good, 2 unverified, 3 absent, 4 illegal
        res[int(c[0])] = {"opcode": c[1], "icrc": c[2],
                          "malformed": bool(c[3]), "errors": errors,
                          "ipcsum": c[6].split("\x1f")[0],
                          "udpcsum": c[7].split("\x1f")[0],
                          "feth": tuple(c[8:10]) if feth else None,
                          "nvme": dict(zip(NVME_FIELDS, c[nvme_at:]))
                          if nvme_ports else None}
    return res


def nvme_kind(x):
    """"command", "response" or None: what tshark decoded from a frame."""
    n = x["nvme"] if x else None
    if not n:
        return None
    if n["nvme.cmd.opc"] or n["nvme.fabrics.cmd.fctype"]:
        return "command"
    if n["nvme.cqe.cid"] or n["nvme.cqe.status"]:
        return "response"
    return None


def nvme_summary(ts, plain, result):
    """Prints the NVMe-oF commands and responses tshark decoded (TS, the
    decode with nvme-rdma on), by the NVMe part of the Info column; checks
    there are both, with a Fabrics Connect among the commands, and no
    malformed frame but tshark's own failure on the fragments of a
    Commands Supported and Effects log page, clean in PLAIN (the decode
    as InfiniBand)."""
    count = {"command": 0, "response": 0}
    kinds = {}
    connects = 0
    logpage_frags = 0
    bad = []
    for num in sorted(ts):
        x = ts[num]
        if x["malformed"] or x["errors"]:
            p = plain.get(num)
            if (x["opcode"] in RC_WRITE_MIDDLE_LAST
                    and x["nvme"]["nvme.cmd.get_logpage.cmd_and_eff.cs"]
                    and p and not p["malformed"]):
                logpage_frags += 1
            elif x["malformed"] or any(m != ZERO_UDP6 for m in x["errors"]):
                bad.append(num)
        k = nvme_kind(x)
        if not k:
            continue
        count[k] += 1
        # "RC Send Only QP=0x000013 | NVMe Write": the NVMe part
        info = x["nvme"]["_ws.col.Info"].split("\x1f")[0].split(" | ")[-1].strip()
        kinds[(k, info or "?")] = kinds.get((k, info or "?"), 0) + 1
        if x["nvme"]["nvme.fabrics.cmd.fctype"].split("\x1f")[0] in ("0x01", "1"):
            connects += 1
    print(f"# NVMe-oF over RDMA: {count['command']} commands, "
          f"{count['response']} responses, {connects} Fabrics Connect; "
          f"malformed in the NVMe decode: {len(bad)}, and {logpage_frags} "
          "Commands Supported and Effects fragments tshark fails on")
    for (k, info), n in sorted(kinds.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"#   {k}: {info}: {n}")
    why = []
    if not count["command"]:
        why.append("no NVMe command decoded")
    if not count["response"]:
        why.append("no NVMe response decoded")
    if not connects:
        why.append("no Fabrics Connect decoded")
    if bad:
        why.append(f"{len(bad)} frames malformed as NVMe (frames "
                   + ", ".join(map(str, bad[:8])) + ")")
    result(not why, f"NVMe-oF over RDMA decoded: {count['command']} commands, "
           f"{count['response']} responses", "; ".join(why))


def new_stats():
    return {"pkts": 0, "ours": 0, "ib": 0, "malformed": 0, "experr": 0,
            "zero_udp6": 0, "icrc_bad": 0, "icrc_bad_ours": 0, "mismatch": 0,
            "truncated": 0, "fuzz": 0, "flush": 0, "flush_intree": 0,
            "feth": set(), "why": []}


def note(st, msg):
    if len(st["why"]) < 4:
        st["why"].append(msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tag", required=True)
    ap.add_argument("--ours", default="",
                    help="comma-separated source addresses of our stack's guest")
    ap.add_argument("--guest", action="append", default=[],
                    help="LABEL=ADDR[,ADDR...]: a guest, for per-direction totals")
    ap.add_argument("--tests", help="tests.tsv of the capturing guest")
    ap.add_argument("--nvme", metavar="PORTS",
                    help="NVMe/RDMA subsystem ports: decode and count NVMe-oF")
    ap.add_argument("pcap")
    a = ap.parse_args()
    ours = {str(ipaddress.ip_address(x)) for x in a.ours.split(",") if x}
    label = guest_labels(a.guest)
    labels = [g.partition("=")[0] for g in a.guest]

    def direction(src):
        src_l = label.get(src, src)
        others = [x for x in labels if x != src_l]
        return f"{src_l} -> {others[0] if len(others) == 1 else '?'}"
    dirs = {}
    result = Results()

    tests = read_tests(a.tests)
    try:
        frames = list(read_pcap(a.pcap))
        ts = tshark_frames(a.pcap)
        nv = tshark_frames(a.pcap, a.nvme) if a.nvme else None
    except (RuntimeError, ValueError, OSError) as e:
        result(False, f"capture {a.pcap}", str(e))
        return result.done(f"wire-capture-{a.tag}")

    # The checker's own check, on the first good frame of each family.
    samples = {}
    for num, t, frame, trunc in frames:
        try:
            r = roce_icrc(frame)
        except (ValueError, IndexError, struct.error):
            continue
        if r and r[2] == r[3] and r[1] not in samples:
            samples[r[1]] = frame
    for fam in ("ipv4", "ipv6"):
        if fam not in samples:
            # (a test without traffic fails on its own, below)
            print(f"# ICRC checker self-test ({fam}): no {fam} frame with "
                  "a good ICRC to try it on")
            continue
        errs = selftest(samples[fam])
        result(not errs, f"ICRC checker self-test ({fam}): masked fields "
               "ignored, any other byte changed detected", "; ".join(errs))

    per = {}  # test name -> stats
    # without tests.tsv, the whole capture is checked as one
    between = BETWEEN if tests else "(the whole capture)"
    order = [x[0] for x in tests] + [between]
    bysrc = {}
    tot = new_stats()
    for num, t, frame, trunc in frames:
        name = test_at(tests, t) or between
        st = per.setdefault(name, new_stats())
        if trunc:
            st["truncated"] += 1
            continue
        try:
            r = roce_icrc(frame)
        except (ValueError, IndexError, struct.error) as e:
            if name.startswith("fuzz-"):
                st["fuzz"] += 1
                continue
            note(st, f"frame {num}: {e}")
            st["malformed"] += 1
            continue
        if r is None:
            continue
        src, fam, got, want = r
        mine = src in ours
        # A fuzz test (tests/probes/wire_fuzz.c) sends malformed frames on
        # purpose from the peer's side: there only ours are held to the
        # rules (what the victim answers, and its real traffic).
        if name.startswith("fuzz-") and not mine:
            st["fuzz"] += 1
            continue
        st["pkts"] += 1
        st["ours"] += mine
        b = bysrc.setdefault(src, [0, 0, {}])
        d = dirs.setdefault(direction(src), {"pkts": 0, "malformed": 0,
                                             "experr": 0, "icrc_bad": 0})
        d["pkts"] += 1
        b[0] += 1
        x = ts.get(num)
        if x is None or not x["opcode"]:
            note(st, f"frame {num}: not dissected as InfiniBand")
        else:
            st["ib"] += 1
        if x and x["malformed"]:
            st["malformed"] += 1
            d["malformed"] += 1
        for m in (x["errors"] if x else []):
            if m == ZERO_UDP6 and fam == "ipv6":
                st["zero_udp6"] += 1
            else:
                st["experr"] += 1
                d["experr"] += 1
                note(st, f"frame {num} from {src}: tshark: {m}")
        if x:
            u = {"0": "bad", "1": "computed", "3": "zero", "4": "zero"}.get(x["udpcsum"], "unverified")
            b[2].setdefault(f"{fam} UDP checksum {u}", 0)
            b[2][f"{fam} UDP checksum {u}"] += 1
        if got != want and got == intree_flush_icrc(frame):
            st["flush_intree"] += 1
            b[2].setdefault("FLUSH with the in-tree rxe's ICRC", 0)
            b[2]["FLUSH with the in-tree rxe's ICRC"] += 1
        elif got != want:
            st["icrc_bad"] += 1
            d["icrc_bad"] += 1
            st["icrc_bad_ours"] += mine
            b[1] += 1
            note(st, f"frame {num} from {src}: ICRC {got.hex()}, computed {want.hex()}")
        if x and x["opcode"] == str(RC_FLUSH):
            st["flush"] += 1
            plt, sel = flush_feth(frame) or (None, None)
            if not x["feth"] or not x["feth"][0]:
                note(st, f"frame {num}: FLUSH without its FETH decoded"
                     + ("" if x["feth"] else " (this tshark has no FETH)"))
                st["malformed"] += 1
            elif plt not in FLUSH_PLACEMENT or sel not in FLUSH_SELECTIVITY:
                note(st, f"frame {num}: FLUSH placement {plt}, selectivity {sel}")
                st["malformed"] += 1
            else:
                st["feth"].add(f"placement {plt} selectivity {sel}")
        if x and x["icrc"] and int(x["icrc"], 16) != int.from_bytes(got, "big"):
            st["mismatch"] += 1
            note(st, f"frame {num}: tshark's invariant CRC {x['icrc']} is not the trailer {got.hex()}")

    print("# test: RoCEv2 packets (from ours) / dissected as InfiniBand / "
          "malformed / other expert errors / zero UDP checksums on IPv6 / "
          "ICRC failures (from ours)")
    status = {x[0]: x[3] for x in tests}
    for name in order:
        st = per.get(name)
        if st is None and name == BETWEEN:
            continue
        st = st or new_stats()
        for k in tot:
            if k not in ("why", "feth"):
                tot[k] += st[k]
        print(f"# {name}: {st['pkts']} ({st['ours']}) / {st['ib']} / "
              f"{st['malformed']} / {st['experr']} / {st['zero_udp6']} / "
              f"{st['icrc_bad']} ({st['icrc_bad_ours']})")
        if st["fuzz"]:
            print(f"# {name}: {st['fuzz']} frames of the peer not checked (the fuzzer's and the real traffic's)")
        if st["flush"]:
            print(f"# {name}: {st['flush']} FLUSH requests, FETH "
                  + (", ".join(sorted(st["feth"])) or "not decoded")
                  + f"; {st['flush_intree']} sealed with the in-tree rxe's "
                  "ICRC (headers twice: sw_rxe/rxe_icrc.h), the rest with the IBTA's")
        why = list(st["why"])
        if name.startswith("flush-") and not st["flush"]:
            why.append("no FLUSH request")
        if st["pkts"] == 0 and name != BETWEEN:
            why.append("no RoCEv2 packet" + (f" (the test exited {status[name]})"
                                            if status.get(name, "0") != "0" else ""))
        if st["ib"] != st["pkts"] and not why:
            why.append(f"{st['pkts'] - st['ib']} frames not dissected as InfiniBand")
        if st["malformed"]:
            why.append(f"{st['malformed']} malformed")
        if st["experr"]:
            why.append(f"{st['experr']} tshark expert errors")
        if st["icrc_bad"]:
            why.append(f"{st['icrc_bad']} ICRC failures ({st['icrc_bad_ours']} from ours)")
        if st["truncated"]:
            why.append(f"{st['truncated']} truncated frames")
        result(not why, f"capture {name}: {st['pkts']} packets"
               + ("" if why else ", dissected cleanly, ICRC good"),
               "; ".join(why))
    for src in sorted(bysrc):
        who = "ours" if src in ours else "peer"
        csums = ", ".join(f"{k} {v}" for k, v in sorted(bysrc[src][2].items()))
        print(f"# from {src} ({who}): {bysrc[src][0]} packets, "
              f"{bysrc[src][1]} ICRC failures; {csums}")
    print(f"# summary {a.tag}: {tot['pkts']} RoCEv2 packets ({tot['ours']} "
          f"from ours, {tot['pkts'] - tot['ours']} from the peer); "
          f"malformed {tot['malformed']}; other tshark expert errors "
          f"{tot['experr']} (zero UDP checksums on IPv6, allowed: "
          f"{tot['zero_udp6']}); ICRC failures {tot['icrc_bad']} "
          f"({tot['icrc_bad_ours']} from ours); tshark/trailer ICRC "
          f"mismatches {tot['mismatch']}")
    for k in sorted(dirs):
        d = dirs[k]
        print(f"# direction {k}: {d['pkts']} packets, {d['malformed']} "
              f"malformed, {d['experr']} other tshark expert errors, "
              f"{d['icrc_bad']} ICRC failures")
    if a.nvme:
        nvme_summary(nv, ts, result)
    return result.done(f"wire-capture-{a.tag}")


if __name__ == "__main__":
    sys.exit(main())
