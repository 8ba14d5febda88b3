#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Dump a sysfs tree as "MODE PATH = CONTENT" lines, sorted, for diffing.

    sysfs_dump.py DIR

Symlinks are listed as "link PATH -> basename(target)" and not followed;
power/ and uevent are left out (driver-core files, not ours).  CONTENT is
the file's first line, or "<errno NAME>" when reading fails.
"""
import errno
import os
import stat
import sys

SKIP = {"power", "uevent"}


def main(top):
    out = []
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in SKIP)
        rel_root = os.path.relpath(root, top)
        for name in sorted(files + [d for d in os.listdir(root)
                                    if os.path.islink(os.path.join(root, d))]):
            if name in SKIP:
                continue
            path = os.path.join(root, name)
            rel = os.path.normpath(os.path.join(rel_root, name))
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out.append(f"link {rel} -> {os.path.basename(os.readlink(path))}")
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            mode = oct(st.st_mode & 0o777)[2:]
            if not st.st_mode & 0o444:
                out.append(f"{mode} {rel} = <write-only>")
                continue
            try:
                with open(path, "rb") as f:
                    data = f.read(4096)
                text = data.decode(errors="replace").split("\n")[0]
            except OSError as e:
                text = f"<errno {errno.errorcode.get(e.errno, e.errno)}>"
            out.append(f"{mode} {rel} = {text}")
    print("\n".join(sorted(set(out))))


if __name__ == "__main__":
    main(sys.argv[1])
