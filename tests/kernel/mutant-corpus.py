#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The kept mutants: tests/fixtures/conformance/mutants/.

  mutant-corpus.py keep OUTROOT LINE...
      after kernel-mutants.sh: keep every mutant that verify-file and a
      kernel disagreed on (OUTROOT/LINE/disagreements.tsv), with each
      line's kernel verdict from the same run
  mutant-corpus.py add CASEDIR
      kernel-verdicts.sh: append the kept mutants to CASEDIR/cases.tsv
      (case ids mut-ID) and copy their files in
  mutant-corpus.py check [--update] LINE KERNEL-ERRNO.tsv
      kernel-verdicts.sh: the kernel must give each kept mutant the errno
      recorded for LINE; --update records it instead

What is kept is the detached form of a mutation: the PKCS#7 blob
(ID.p7s) and the data it signs, which is the committed payload.bin
(data column "payload.bin") unless the mutation changed the data (then
ID.bin).  A module mutant is kept as its twin, the same mutation detached
over payload.bin with usage module: the kernel checks that with the very
call mod_verify_sig() makes, and unlike the module it does not depend on
the payload module of a kernel line, which every kernel build rebuilds.
The bytes are stored, not the (seed, index) recipe, so a later change to
mutate.py cannot silently change what a kept case is.

mutants.tsv: case data sig usage seed index base errno_LINE... description
errno_LINE is the kernel's verdict on LINE ("?": not judged on LINE yet).
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "fixtures", "conformance"))
DIR = os.path.join(CONF, "mutants")
TSV = os.path.join(DIR, "mutants.tsv")
FIXED = "payload.bin"
HEAD = ("# Mutants a real kernel and verify-file disagreed on (make kernel-mutants),\n"
        "# kept with each kernel line's verdict; see tests/kernel/mutant-corpus.py.\n")


def read_tsv(path):
    """-> (header list, rows as dicts); comments dropped."""
    hdr, rows = None, []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if hdr is None:
                hdr = cols
                continue
            rows.append(dict(zip(hdr, cols)))
    return hdr or [], rows


def load():
    if not os.path.exists(TSV):
        return ["case", "data", "sig", "usage", "seed", "index", "base", "description"], []
    return read_tsv(TSV)


def save(hdr, rows):
    os.makedirs(DIR, exist_ok=True)
    tmp = TSV + ".tmp"
    with open(tmp, "w") as f:
        f.write(HEAD + "\t".join(hdr) + "\n")
        for r in sorted(rows, key=lambda r: r["case"]):
            f.write("\t".join(r.get(h, "?") for h in hdr) + "\n")
    os.replace(tmp, TSV)


def add_line_column(hdr, line):
    """errno_LINE, oldest line first (before the first newer one)."""
    col = "errno_" + line

    def ver(c):
        return tuple(int(x) for x in c[len("errno_"):].split("."))
    if col not in hdr:
        at = hdr.index("description")
        for i, h in enumerate(hdr):
            if h.startswith("errno_") and ver(h) > ver(col):
                at = i
                break
        hdr.insert(at, col)
    return col


def stored_form(cid, meta):
    """The case holding the detached form of cid's mutation."""
    m = meta[cid]
    if m["form"] == "live" and m["usage"] == "module":
        return cid + ("-t" if cid.startswith("b-") else "t")
    return cid


def read(path):
    with open(path, "rb") as f:
        return f.read()


def keep(outroot, lines):
    hdr, rows = load()
    byid = {r["case"]: r for r in rows}
    fixed = read(os.path.join(CONF, FIXED))
    want = {}                       # kept id -> stored-form case id
    judged = {}                     # line -> {case: kernel errno}
    meta = {}
    for line in lines:
        d = os.path.join(outroot, line)
        if not os.path.exists(os.path.join(d, "verify.tsv")):
            continue
        _, ms = read_tsv(os.path.join(d, "cases", "mutants.tsv"))
        meta[line] = {m["case"]: m for m in ms}
        with open(os.path.join(d, "verify.tsv")) as f:
            judged[line] = dict(l.split("\t")[:2] for l in f.read().splitlines())
        dis = os.path.join(d, "disagreements.tsv")
        with open(dis) as f:
            for l in f.read().splitlines():
                cid = l.split("\t")[2]
                m = meta[line][cid]
                kid = "base-" + m["base"] if m["seed"] == "-" else "s%s-%s" % (m["seed"], m["index"])
                want[kid] = stored_form(cid, meta[line])
    new = 0
    for kid, cid in sorted(want.items()):
        blobs = {}
        for line in judged:
            m = meta[line].get(cid)
            if m is None:
                continue
            cd = os.path.join(outroot, line, "cases")
            blobs[line] = (read(os.path.join(cd, m["file"])), read(os.path.join(cd, m["sig"])), m)
        first = next(iter(blobs))
        data, sig, m = blobs[first]
        r = byid.get(kid)
        if r is None:
            new += 1
            r = {"case": kid, "usage": m["usage"], "seed": m["seed"], "index": m["index"],
                 "base": m["base"], "description": m["description"]}
            byid[kid] = r
            rows.append(r)
        r["sig"] = kid + ".p7s"
        r["data"] = FIXED if data == fixed else kid + ".bin"
        os.makedirs(DIR, exist_ok=True)
        with open(os.path.join(DIR, r["sig"]), "wb") as f:
            f.write(sig)
        if r["data"] != FIXED:
            with open(os.path.join(DIR, r["data"]), "wb") as f:
                f.write(data)
        for line in judged:
            col = add_line_column(hdr, line)
            same = line in blobs and blobs[line][:2] == (data, sig)
            r[col] = judged[line].get(cid, "?") if same else "?"
    # mutants kept by an earlier run of the same seed on other lines: this
    # run judged their stored form too, if the bytes are still the same
    refreshed = 0
    for r in rows:
        if r["case"] in want:
            continue
        for line in judged:
            cid = ("b-" + r["base"] if r["seed"] == "-" else "s%s-%s" % (r["seed"], r["index"]))
            cid += ("-t" if r["seed"] == "-" else "t") if r["usage"] == "module" else ""
            m = meta[line].get(cid)
            if m is None or m["form"] == "live" and m["usage"] == "module":
                continue
            cd = os.path.join(outroot, line, "cases")
            data = fixed if r["data"] == FIXED else read(os.path.join(DIR, r["data"]))
            if (read(os.path.join(cd, m["file"])), read(os.path.join(cd, m["sig"]))) != \
                    (data, read(os.path.join(DIR, r["sig"]))):
                continue
            r[add_line_column(hdr, line)] = judged[line].get(cid, "?")
            refreshed += 1
    for r in rows:
        for h in hdr:
            r.setdefault(h, "?")
    if want or refreshed:
        save(hdr, rows)
    if want:
        print("kept %d disagreeing mutants in %s (%d new, %d in all)"
              % (len(want), os.path.relpath(DIR), new, len(rows)))
    if refreshed:
        print("recorded this run's verdicts for %d mutants kept earlier" % refreshed)


def add(casedir):
    if not os.path.exists(TSV):
        return
    _, rows = load()
    with open(os.path.join(casedir, "cases.tsv"), "a") as f:
        for r in rows:
            cid = "mut-" + r["case"]
            shutil.copyfile(os.path.join(CONF if r["data"] == FIXED else DIR, r["data"]),
                            os.path.join(casedir, cid + ".bin"))
            shutil.copyfile(os.path.join(DIR, r["sig"]), os.path.join(casedir, cid + ".bin.p7s"))
            f.write("\t".join([cid, cid + ".bin", "detached", r["usage"], cid + ".bin.p7s"]) + "\n")


def check(line, kernel_tsv, update):
    if not os.path.exists(TSV):
        return 0
    hdr, rows = load()
    col = "errno_" + line
    k = {}
    with open(kernel_tsv) as f:
        for l in f.read().splitlines():
            c = l.split("\t")
            if c[0].startswith("mut-"):
                k[c[0][4:]] = c[1]
    bad = 0
    if update:
        add_line_column(hdr, line)
    for r in rows:
        got = k.get(r["case"])
        if got is None:
            print("mut-%s: not judged" % r["case"])
            bad += 1
        elif update:
            if r.get(col, "?") not in (got, "?"):
                print("mut-%s: %s rewritten from %s to %s" % (r["case"], col, r[col], got))
            r[col] = got
        elif r.get(col, "?") != got:
            print("mut-%s: recorded %s %s, kernel %s%s" % (
                r["case"], col, r.get(col, "?"), got,
                "" if col in hdr else " (no such column: make kernel-verdicts-update adds it)"))
            bad += 1
    if update:
        save(hdr, rows)
    return 1 if bad else 0


def main():
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "keep":
        keep(a[1], a[2:])
    elif len(a) == 2 and a[0] == "add":
        add(a[1])
    elif len(a) in (3, 4) and a[0] == "check":
        upd = a[1] == "--update"
        rest = a[2:] if upd else a[1:]
        if len(rest) != 2:
            sys.exit(__doc__.split("\n\n")[0])
        sys.exit(check(rest[0], rest[1], upd))
    else:
        sys.exit("usage:" + __doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
