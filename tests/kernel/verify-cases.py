#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""verify-cases.py [--cannot-check WORD] VERIFY-FILE CASEDIR [verify-file options...]

Print "case<TAB>errno" for every case of CASEDIR/cases.tsv (the harness
format), errno being what verify-file says: 0 for OK, else its errno name;
for a module, the signature's verdict ("signature_errno"), which the judge
gives.  A CANNOT-CHECK verdict (this build's OpenSSL lacks the algorithm)
prints WORD when given (kernel-verdicts.sh: UNCHECKABLE), else as any other.
VERIFY-FILE may be a command with its prefix, split on white space
("chroot ROOT /path/verify-file").  The cases are checked in a few
verify-file runs, not one per case (a run reads the keys and the kernel
image once): appended modules in one run, detached cases in one run per
usage with --detached (each case's signature must be FILE.p7s beside
FILE, as mutate.py and gen-cases.sh write them; any other name is
checked on its own with --sig).
"""
import json
import os
import subprocess
import sys


def run(verify, opts, files, extra, cannot_check=None):
    """verify-file --json on files -> {path: errno name or "0"}."""
    out = {}
    if not files:
        return out
    p = subprocess.run(verify.split() + ["--json"] + opts + extra + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for line in p.stdout.decode().splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if "file" not in o:
            continue  # the summary
        if cannot_check and o.get("verdict") == "CANNOT-CHECK":
            out[o["file"]] = cannot_check
            continue
        # the signature's verdict, as the judge reports it: before the
        # ELF checks finit_module() makes after it
        out[o.get("file")] = (o.get("signature_errno") if "signature_errno"
                              in o else o.get("errno")) or "0"
    for f in files:
        if f not in out:
            sys.exit("verify-cases.py: verify-file gave no verdict for %s: %s"
                     % (f, p.stderr.decode().strip()[:300]))
    return out


def main():
    args, cc = sys.argv[1:], None
    if args[:1] == ["--cannot-check"] and len(args) > 1:
        cc, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__.split("\n\n")[0])
    verify, casedir, opts = args[0], args[1], args[2:]
    rows, hdr = [], False
    with open(os.path.join(casedir, "cases.tsv")) as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            if not hdr:
                hdr = True
                continue
            rows.append(line.split("\t"))
    mods, det, single = [], {}, []
    for cid, fname, kind, usage, sig in rows:
        path = os.path.join(casedir, fname)
        if kind == "module":
            mods.append(path)
        elif sig == fname + ".p7s":
            det.setdefault(usage, []).append(path)
        else:
            single.append((path, usage, os.path.join(casedir, sig)))
    got = run(verify, opts, mods, ["--usage", "module"], cc)
    for usage, files in det.items():
        got.update(run(verify, opts, files, ["--usage", usage, "--detached"], cc))
    for path, usage, sig in single:
        got.update(run(verify, opts, [path], ["--usage", usage, "--sig", sig], cc))
    for cid, fname, *_ in rows:
        print("%s\t%s" % (cid, got[os.path.join(casedir, fname)]))


if __name__ == "__main__":
    main()
