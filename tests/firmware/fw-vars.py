#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make one machine's OVMF variable store for the firmware stage.

fw-vars.py --vfv CMD --base VARS.fd --out OUT.fd --keys DIR [options]

Starts from Debian's OVMF_VARS_4M.ms.fd (Microsoft's KEK and db, Secure
Boot enabled) and, through virt-fw-vars (CMD, as fetch-virt-firmware.sh
prints it), adds:
  db          + DIR/db-cert.pem
  dbx         + DIR/dbx-cert.der as an X.509 entry (kept: the store's own)
  MokList     DIR/mok, mokx and dbx certificates (shim's non-volatile list)
  MokListX    DIR/mokx-cert.der
and, per option:
  --sb-off          SecureBootEnable false (the firmware's own switch)
  --untrust-mok     MokListTrusted present (mokutil --untrust-mok)
  --mok-sb-off      MokSBState = 1 (mokutil --disable-validation)
  --ignore-db       MokDBState = 1 (mokutil --ignore-db)
  --mok-add FILE    FILE's certificate (DER or PEM) appended to MokList, as
                    MokManager enrols what mokutil --import FILE asked for
                    (fix-proofs.sh); repeatable
Variables virt-fw-vars has no option for go through --set-json (name,
guid, attributes, hex data).  MOK variables get NV|BS (3), as shim
requires (it deletes them with RT or without NV|BS).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import uuid

SHIM_LOCK = "605dab50-e046-4300-abb6-3dd810dd8b23"
IMAGE_SECURITY_DB = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
CERT_X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
# "modsign" in ASCII, then a counter: the owner of every entry we add
OWNER = "6d6f6473-6967-6e00-0000-000000000001"
NV_BS = 3


def siglist_x509(ders):
    """One EFI_SIGNATURE_LIST per certificate (sizes differ)."""
    out = b""
    for der in ders:
        sig_size = 16 + len(der)
        out += CERT_X509.bytes_le
        out += (28 + sig_size).to_bytes(4, "little")
        out += (0).to_bytes(4, "little")
        out += sig_size.to_bytes(4, "little")
        out += uuid.UUID(OWNER).bytes_le + der
    return out


def cert_der(path):
    """A certificate file's DER bytes (mokutil --import takes DER; PEM too
    here, through openssl)."""
    with open(path, "rb") as f:
        data = f.read()
    if b"-----BEGIN CERTIFICATE-----" not in data:
        return data
    r = subprocess.run(["openssl", "x509", "-outform", "DER"], input=data,
                       stdout=subprocess.PIPE, check=True)
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vfv", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--keys", required=True)
    ap.add_argument("--sb-off", action="store_true")
    ap.add_argument("--untrust-mok", action="store_true")
    ap.add_argument("--mok-sb-off", action="store_true")
    ap.add_argument("--ignore-db", action="store_true")
    ap.add_argument("--mok-add", action="append", default=[])
    a = ap.parse_args()
    vfv = shlex.split(a.vfv)

    def der(name):
        with open(os.path.join(a.keys, name + "-cert.der"), "rb") as f:
            return f.read()

    with tempfile.TemporaryDirectory() as tmp:
        base_json = os.path.join(tmp, "base.json")
        subprocess.run(vfv + ["-i", a.base, "--output-json", base_json],
                       check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(base_json) as f:
            base = {v["name"]: v for v in json.load(f)["variables"]}
        dbx = base["dbx"]
        new = [{"name": "dbx", "guid": dbx["guid"], "attr": dbx["attr"],
                "data": dbx["data"] + siglist_x509([der("dbx")]).hex()}]

        def mokvar(name, data):
            new.append({"name": name, "guid": SHIM_LOCK, "attr": NV_BS,
                        "data": data.hex()})
        added = [cert_der(path) for path in a.mok_add]
        mokvar("MokList", siglist_x509([der("mok"), der("mokx"), der("dbx")]
                                       + added))
        mokvar("MokListX", siglist_x509([der("mokx")]))
        if a.untrust_mok:
            mokvar("MokListTrusted", b"\x01")
        if a.mok_sb_off:
            mokvar("MokSBState", b"\x01")
        if a.ignore_db:
            mokvar("MokDBState", b"\x01")
        extra = os.path.join(tmp, "extra.json")
        with open(extra, "w") as f:
            json.dump({"version": 2, "variables": new}, f)
        cmd = vfv + ["-i", a.base, "-o", a.out,
                     "--add-db", OWNER, os.path.join(a.keys, "db-cert.pem"),
                     "--set-json", extra]
        if a.sb_off:
            cmd += ["--set-false", "SecureBootEnable"]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode:
            sys.stderr.write(r.stdout)
            sys.exit("fw-vars.py: virt-fw-vars failed")


if __name__ == "__main__":
    main()
