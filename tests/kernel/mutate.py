#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeded structural mutations of valid signatures (make kernel-mutants).

From a handful of valid signatures (the bases: RSA, ECDSA P-256 and P-384,
SKID sids, an embedded chain, two signers; appended to a module, or
detached for the firmware and unspecified usages), write COUNT mutants for
one SEED into a case directory the real-kernel harness boots
(judge-cases.sh) and verify-file reads.

Mutant INDEX of SEED is decided by random.Random("SEED:INDEX") alone, so
one mutant can be rebuilt without the others, and the same (seed, index)
gives the same mutation over any payload.  Signatures are deterministic:
RSA PKCS#1 v1.5 through openssl, ECDSA computed here with a nonce derived
from the key and the digest (openssl 3.0's ECDSA is randomised).

A mutation works on the parsed DER tree of the signature (every
constructed element, certificates' encapsulated extension values and
keys, ECDSA signature values) and re-serialises it, so lengths stay
consistent except where the mutation is the length itself; a few
operators work on the serialised bytes instead.  Operators (a mutant
stacks one to three):

  length forms and values at every depth: long form with more octets
  than needed, indefinite form (with and without its end-of-contents),
  declared length off by a few, zero or huge while the parents count the
  real bytes; tag bytes: constructed bit, class, number, long-form tag;
  deleting, duplicating, swapping and inserting elements; INTEGER values
  and encodings; OIDs (algorithm catalog, malformed encodings); the
  SignedData and SignerInfo versions; sid forms (issuer+serial <->
  subjectKeyIdentifier, wrong serial, wrong key id); the OID and
  parameters of every algorithm slot (digestAlgorithms, digestAlgorithm,
  signatureAlgorithm, a certificate's signature and key algorithms and
  curve); signer order, duplication, removal and foreign signers;
  certificate insertion, removal, duplication and retagging, CRLs;
  content types and embedded content; authenticated attributes (changed,
  then usually re-signed so the checks behind the signature are reached);
  byte flips in signature values, certificates and the signed data;
  truncation, trailing bytes, byte insertion and deletion.

Module bases are written twice: the live case, appended to --payload (the
module the booted kernel loads), and its twin, the same mutation as a
detached signature (usage module) over --data, a fixed committed file.
The twin does not depend on the kernel line's payload, so it is the form
a disagreement is kept in (tests/fixtures/conformance/mutants/).

Output: OUT/cases.tsv (the harness format), the case files, and
OUT/mutants.tsv: case seed index base usage form file sig description.
"""
import argparse
import hashlib
import hmac
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "fixtures", "conformance"))
sys.path.insert(0, CONF)
import der  # noqa: E402  (the corpus's DER toolkit)


def load_gencases():
    spec = importlib.util.spec_from_file_location(
        "gencases", os.path.join(CONF, "gen-cases.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


gc = load_gencases()

# ---------------------------------------------------------------------------
# ECDSA, deterministic.  Curve constants of SEC 2 / FIPS 186; checked at run
# time (the base point is on the curve, the committed P-256 key's public
# point matches its certificate).


class Curve:
    def __init__(self, name, oid, p, b, gx, gy, n):
        self.name, self.oid, self.p, self.a, self.b = name, oid, p, p - 3, b
        self.g, self.n = (gx, gy), n
        self.size = (n.bit_length() + 7) // 8
        if (gy * gy - gx * gx * gx - self.a * gx - b) % p:
            raise SystemExit("mutate.py: %s base point not on the curve" % name)

    def add(self, P, Q):
        if P is None:
            return Q
        if Q is None:
            return P
        p = self.p
        if P[0] == Q[0]:
            if (P[1] + Q[1]) % p == 0:
                return None
            m = (3 * P[0] * P[0] + self.a) * pow(2 * P[1], -1, p) % p
        else:
            m = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
        x = (m * m - P[0] - Q[0]) % p
        return (x, (m * (P[0] - x) - P[1]) % p)

    def mul(self, k, P):
        R = None
        while k:
            if k & 1:
                R = self.add(R, P)
            P = self.add(P, P)
            k >>= 1
        return R

    def point(self, d):
        x, y = self.mul(d, self.g)
        return b"\x04" + x.to_bytes(self.size, "big") + y.to_bytes(self.size, "big")


P256 = Curve(
    "P-256", "1.2.840.10045.3.1.7",
    0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
    0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
    0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
    0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5,
    0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551)
P384 = Curve(
    "P-384", "1.3.132.0.34",
    int("ffffffffffffffffffffffffffffffffffffffffffffffff"
        "fffffffffffffffeffffffff0000000000000000ffffffff", 16),
    int("b3312fa7e23ee7e4988e056be3f82d19181d9c6efe814112"
        "0314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef", 16),
    int("aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b98"
        "59f741e082542a385502f25dbf55296c3a545e3872760ab7", 16),
    int("3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147c"
        "e9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f", 16),
    int("ffffffffffffffffffffffffffffffffffffffffffffffff"
        "c7634d81f4372ddf581a0db248b0a77aecec196accc52973", 16))


def ecdsa_sign(curve, d, data, md):
    """X9.62 Ecdsa-Sig-Value over md(data); the nonce is an HMAC of the
    key and the digest, so the same input always gives the same bytes."""
    digest = hashlib.new(md, data).digest()
    e = int.from_bytes(digest, "big")
    excess = len(digest) * 8 - curve.n.bit_length()
    if excess > 0:
        e >>= excess
    n, ctr = curve.n, 0
    while True:
        mac = hmac.new(d.to_bytes(curve.size, "big"),
                       digest + ctr.to_bytes(4, "big"), "sha512").digest()
        k = int.from_bytes(mac * 2, "big") % (n - 1) + 1
        r = curve.mul(k, curve.g)[0] % n
        s = pow(k, -1, n) * (e + r * d) % n
        if r and s:
            return der.seq(der.integer(r), der.integer(s))
        ctr += 1


def ec_private(path):
    """The private scalar of an EC key file: openssl pkey writes SEC 1's
    ECPrivateKey (version 1) or PKCS#8 around it (version 0)."""
    k = der.run(["openssl", "pkey", "-in", path, "-outform", "DER"])
    f = der.children(der.content_of(k))
    if der.content_of(f[0]) == b"\x00":
        f = der.children(der.content_of(der.content_of(f[2])))
    return int.from_bytes(der.content_of(f[1]), "big")


# ---------------------------------------------------------------------------
# Keys, certificates and the bases.

OID = {
    # digests
    "md4": "1.2.840.113549.2.4", "md5": "1.2.840.113549.2.5",
    "sha1": "1.3.14.3.2.26", "sha224": "2.16.840.1.101.3.4.2.4",
    "sha256": "2.16.840.1.101.3.4.2.1", "sha384": "2.16.840.1.101.3.4.2.2",
    "sha512": "2.16.840.1.101.3.4.2.3", "sha3-256": "2.16.840.1.101.3.4.2.8",
    "sha3-384": "2.16.840.1.101.3.4.2.9", "sha3-512": "2.16.840.1.101.3.4.2.10",
    "sm3": "1.2.156.10197.1.401", "streebog256": "1.2.643.7.1.1.2.2",
    "streebog512": "1.2.643.7.1.1.2.3",
    # signature and key algorithms
    "rsaEncryption": "1.2.840.113549.1.1.1", "md5WithRSA": "1.2.840.113549.1.1.4",
    "sha1WithRSA": "1.2.840.113549.1.1.5", "sha256WithRSA": "1.2.840.113549.1.1.11",
    "sha384WithRSA": "1.2.840.113549.1.1.12", "sha512WithRSA": "1.2.840.113549.1.1.13",
    "sha224WithRSA": "1.2.840.113549.1.1.14", "rsassa-pss": "1.2.840.113549.1.1.10",
    "ecPublicKey": "1.2.840.10045.2.1", "ecdsa-with-SHA1": "1.2.840.10045.4.1",
    "ecdsa-with-SHA224": "1.2.840.10045.4.3.1", "ecdsa-with-SHA256": "1.2.840.10045.4.3.2",
    "ecdsa-with-SHA384": "1.2.840.10045.4.3.3", "ecdsa-with-SHA512": "1.2.840.10045.4.3.4",
    "ecdsa-with-SHA3-256": "2.16.840.1.101.3.4.3.10",
    "ecdsa-with-SHA3-384": "2.16.840.1.101.3.4.3.11",
    "rsa-with-SHA3-256": "2.16.840.1.101.3.4.3.14",
    "ed25519": "1.3.101.112", "ed448": "1.3.101.113", "sm2": "1.2.156.10197.1.301",
    "sm2-with-sm3": "1.2.156.10197.1.501", "gost2012-256": "1.2.643.7.1.1.1.1",
    "gost2012-sig-256": "1.2.643.7.1.1.3.2", "ml-dsa-44": "2.16.840.1.101.3.4.3.17",
    "ml-dsa-65": "2.16.840.1.101.3.4.3.18", "ml-dsa-87": "2.16.840.1.101.3.4.3.19",
    # curves
    "prime256v1": P256.oid, "secp384r1": P384.oid, "secp521r1": "1.3.132.0.35",
    "prime192v1": "1.2.840.10045.3.1.1",
    # content types and attributes
    "data": "1.2.840.113549.1.7.1", "signedData": "1.2.840.113549.1.7.2",
    "envelopedData": "1.2.840.113549.1.7.3", "msIndirectData": "1.3.6.1.4.1.311.2.1.4",
    "contentType": "1.2.840.113549.1.9.3", "messageDigest": "1.2.840.113549.1.9.4",
    "signingTime": "1.2.840.113549.1.9.5", "smimeCapabilities": "1.2.840.113549.1.9.15",
    "msOpusInfo": "1.3.6.1.4.1.311.2.1.12", "msStatementType": "1.3.6.1.4.1.311.2.1.11",
    # nothing at all
    "unknown-1.2.3.4": "1.2.3.4", "unknown-2.999.1": "2.999.1",
}
DIGESTS = ["md4", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256",
           "sha3-384", "sha3-512", "sm3", "streebog256", "streebog512"]
SIGALGS = ["rsaEncryption", "md5WithRSA", "sha1WithRSA", "sha256WithRSA",
           "sha384WithRSA", "sha512WithRSA", "sha224WithRSA", "rsassa-pss",
           "ecPublicKey", "ecdsa-with-SHA1", "ecdsa-with-SHA224", "ecdsa-with-SHA256",
           "ecdsa-with-SHA384", "ecdsa-with-SHA512", "ecdsa-with-SHA3-256",
           "ecdsa-with-SHA3-384", "rsa-with-SHA3-256", "ed25519", "ed448", "sm2",
           "sm2-with-sm3", "gost2012-256", "gost2012-sig-256", "ml-dsa-44",
           "ml-dsa-65", "ml-dsa-87"]
CURVES = ["prime256v1", "secp384r1", "secp521r1", "prime192v1"]
CONTENT = ["data", "signedData", "envelopedData", "msIndirectData"]
ATTRS = ["contentType", "messageDigest", "signingTime", "smimeCapabilities",
         "msOpusInfo", "msStatementType"]
ALL_OIDS = sorted(OID)
OID_NAME = {v: k for k, v in OID.items()}

# the corpus's committed certificates a mutation may embed
POOL = ["signer", "ecsigner", "root", "inter", "leaf", "untrusted", "noskid",
        "expired", "impostor", "badselfsig", "cafalse", "gentime", "sigmismatch",
        "kushort", "md5", "pss", "ed25519", "p521", "badakid-inter"]


class Keys:
    """Committed corpus keys plus one P-384 leaf under the trusted root,
    minted here from a fixed scalar (nothing new for the kernel to trust)."""

    def __init__(self, keydir):
        self.dir = keydir
        self.memo = {}
        gc.args = argparse.Namespace(keys=keydir, work=None)
        self.certs = {}
        self.ec = {"ecsigner": (P256, ec_private(os.path.join(keydir, "ecsigner.key")))}
        spki = der.children(der.content_of(der.cert_parts(self.cert("ecsigner"))["spki"]))
        if der.content_of(spki[1])[1:] != P256.point(self.ec["ecsigner"][1]):
            raise SystemExit("mutate.py: P-256 arithmetic does not reproduce ecsigner's key")
        d = int.from_bytes(hashlib.sha384(b"modsign kernel-mutants P-384 leaf").digest(),
                           "big") % (P384.n - 1) + 1
        self.ec["p384leaf"] = (P384, d)
        self.certs["p384leaf"] = self.mint_p384(d)

    def cert(self, name):
        if name not in self.certs:
            with open(os.path.join(self.dir, name + ".der"), "rb") as f:
                self.certs[name] = f.read()
        return self.certs[name]

    def mint_p384(self, d):
        root = der.cert_parts(self.cert("root"))
        spki = der.seq(der.seq(der.oid(OID["ecPublicKey"]), der.oid(P384.oid)),
                       der.bitstr(P384.point(d)))
        o = "2.5.4.10", "modsign conformance"
        exts = [der.ext("2.5.29.19", der.seq(), critical=True),
                der.ext("2.5.29.15", der.bitstr(b"\x80", 7), critical=True),
                der.ext("2.5.29.14", der.octets(der.skid_of(spki))),
                der.ext("2.5.29.35", der.seq(der.ctx(0, self.skid("root"), False)))]
        return der.make_cert(0x6d7574616e7473, root["subject"], der.name(
            o, ("2.5.4.3", "kernel-mutants P-384 signer")), spki,
            os.path.join(self.dir, "root.key"), exts)

    def skid_if_any(self, name):
        """name's subjectKeyIdentifier, or None when its certificate has
        none (the noskid base)."""
        p = der.cert_parts(self.cert(name))
        for e in der.children(der.content_of(der.content_of(p["rest"][0]))):
            f = der.children(der.content_of(e))
            if der.content_of(f[0]) == der.content_of(der.oid("2.5.29.14")):
                return der.content_of(der.content_of(f[-1]))
        return None

    def skid(self, name):
        kid = self.skid_if_any(name)
        if kid is None:
            raise SystemExit("mutate.py: %s has no subjectKeyIdentifier" % name)
        return kid

    def ias(self, name):
        p = der.cert_parts(self.cert(name))
        return der.seq(p["issuer"], p["serial"])

    def sign(self, name, data, md):
        """Deterministic either way, so remembered: every mutant of a base
        starts from the same signatures."""
        k = (name, md, hashlib.sha256(data).digest())
        if k not in self.memo:
            if name in self.ec:
                curve, d = self.ec[name]
                self.memo[k] = ecdsa_sign(curve, d, data, md)
            else:
                self.memo[k] = der.sign(os.path.join(self.dir, name + ".key"), data, md)
        return self.memo[k]


def attrs_for(data, md, signing_time):
    a = [gc.attr(OID["contentType"], der.oid(OID["data"])),
         gc.attr(OID["messageDigest"], der.octets(hashlib.new(md, data).digest()))]
    if signing_time:
        a.insert(1, gc.SIGNING_TIME)
    return a


def sinfo(keys, name, data, md="sha256", skid=False, attrs=None):
    """One SignerInfo by a key of Keys, signed over data (or its attributes)."""
    ec = name in keys.ec
    sid = der.ctx(0, keys.skid(name), False) if skid else keys.ias(name)
    signed = data if attrs is None else der.tlv(0x31, b"".join(attrs))
    sig = keys.sign(name, signed, md)
    sig_oid = OID["ecdsa-with-" + md.upper()] if ec else gc.RSA
    return gc.sinfo(name, md=md, data=data, version=3 if skid else 1, sid=sid,
                    digest_oid=OID[md], sig_oid=sig_oid, attrs=attrs, sig=sig), (name, md)


def base_blob(keys, name, data):
    """Base name -> (DER blob, [(key, md) per SignerInfo]).  Every base is
    one the kernels accept (kernel-mutants.sh checks that on each run).
    A SKID sid is only matched against the keyring, never against embedded
    certificates (pkcs7_find_key() compares the issuer+serial id), so the
    SKID bases sign with keys the kernel trusts directly."""
    k = (name, hashlib.sha256(data).digest())
    if k not in keys.memo:
        keys.memo[k] = make_base(keys, name, data)
    return keys.memo[k]


def make_base(keys, name, data):
    def one(*a, certs=None, version=1, **kw):
        si, who = sinfo(keys, *a, **kw)
        algs = [der.algid(OID[who[1]], der.null())]
        return gc.cms(si, certs=certs, version=version, digest_algs=algs), [who]

    if name == "rsa":
        return one("signer", data)
    if name == "rsa-openssl":
        k = os.path.join(keys.dir, "signer")
        return der.run(["openssl", "cms", "-sign", "-binary", "-outform", "DER",
                        "-noattr", "-nocerts", "-nosmimecap", "-md", "sha256",
                        "-signer", k + ".crt", "-inkey", k + ".key"], data), \
            [("signer", "sha256")]
    if name == "rsa-skid":
        return one("signer", data, skid=True, version=3)
    if name == "rsa-cert":
        return one("signer", data, certs=[keys.cert("signer")])
    if name == "ec256":
        return one("ecsigner", data)
    if name == "ec256-sha384":
        return one("ecsigner", data, md="sha384")
    if name == "ec256-skid":
        return one("ecsigner", data, skid=True, version=3)
    if name == "ec384":
        return one("p384leaf", data, md="sha384", certs=[keys.cert("p384leaf")])
    if name == "chain":
        return one("leaf", data, certs=[keys.cert("leaf"), keys.cert("inter")])
    if name in ("two", "two-untrusted-first"):
        order = ["signer", "ecsigner"] if name == "two" else ["untrusted", "signer"]
        (a, wa), (b, wb) = [sinfo(keys, k, data) for k in order]
        return gc.cms(a, b), [wa, wb]
    if name == "fw-rsa":
        return one("signer", data, attrs=attrs_for(data, "sha256", True))
    if name == "fw-ec384":
        return one("p384leaf", data, md="sha384", certs=[keys.cert("p384leaf")],
                   attrs=attrs_for(data, "sha384", True))
    if name == "unspec-rsa":
        return one("signer", data)
    if name == "unspec-ec-attrs":
        return one("ecsigner", data, attrs=attrs_for(data, "sha256", False))
    raise KeyError(name)


# (name, usage); module bases get a live and a twin form
BASES = [("rsa", "module"), ("rsa-openssl", "module"), ("rsa-skid", "module"),
         ("rsa-cert", "module"), ("ec256", "module"), ("ec256-sha384", "module"),
         ("ec256-skid", "module"), ("ec384", "module"), ("chain", "module"),
         ("two", "module"), ("two-untrusted-first", "module"),
         ("fw-rsa", "firmware"), ("fw-ec384", "firmware"),
         ("unspec-rsa", "unspecified"), ("unspec-ec-attrs", "unspecified")]
# A kernel without ECDSA (5.10) refuses every base with an ECDSA signer
# (-ENOPKG at the parse), so mutants of them test nothing there: --rsa-only
# draws from these (the mutations still bring ECDSA OIDs and certificates)
RSA_BASES = [b for b in BASES if b[0] in ("rsa", "rsa-openssl", "rsa-skid", "rsa-cert",
                                          "chain", "two-untrusted-first", "fw-rsa",
                                          "unspec-rsa")]

# ---------------------------------------------------------------------------
# The tree.

TAGNAME = {0x01: "BOOLEAN", 0x02: "INTEGER", 0x03: "BIT STRING", 0x04: "OCTET STRING",
           0x05: "NULL", 0x06: "OID", 0x0c: "UTF8String", 0x13: "PrintableString",
           0x17: "UTCTime", 0x18: "GeneralizedTime", 0x30: "SEQUENCE", 0x31: "SET"}


def tagname(tag):
    t = tag[0]
    if t in TAGNAME and len(tag) == 1:
        return TAGNAME[t]
    if t & 0xc0 == 0x80 and len(tag) == 1:
        return "[%d]%s" % (t & 0x1f, "" if t & 0x20 else "p")
    return "tag " + tag.hex()


class Node:
    """One TLV.  kids is None for a primitive; prefix is the unused-bits
    octet of an encapsulating BIT STRING; lenmode None means DER."""
    __slots__ = ("tag", "kids", "data", "prefix", "lenmode", "name", "parent", "who")

    def __init__(self, tag, kids=None, data=b"", prefix=b""):
        self.tag, self.kids, self.data, self.prefix = tag, kids, data, prefix
        self.lenmode, self.name, self.parent, self.who = None, None, None, None

    def content(self):
        if self.kids is None:
            return self.prefix + self.data
        return self.prefix + b"".join(ser(k) for k in self.kids)


def ser(n):
    body = n.content()
    L, m = len(body), n.lenmode
    if m is None:
        lb = der.length(L)
    elif m[0] == "long":
        # m[1] octets, or as many as the length needs once other
        # mutations grew the body past what m[1] octets hold
        k = max(m[1], (L.bit_length() + 7) // 8)
        lb = bytes([0x80 | k]) + L.to_bytes(k, "big")
    elif m[0] == "indef":
        return n.tag + b"\x80" + body + m[1]
    elif m[0] == "delta":
        lb = der.length(max(0, L + m[1]))
    elif m[0] == "value":
        lb = der.length(m[1])
    else:  # raw length octets
        lb = m[1]
    return n.tag + lb + body


def parse(buf):
    """DER -> list of Nodes; raises ValueError unless buf is exactly TLVs."""
    out, off = [], 0
    while off < len(buf):
        if len(buf) - off < 2 or buf[off] & 0x1f == 0x1f:
            raise ValueError("not simple DER")
        tag, lb = buf[off:off + 1], buf[off + 1]
        if lb < 0x80:
            h, ln = 2, lb
        elif lb == 0x80 or lb > 0x84:
            raise ValueError("unexpected length form")
        else:
            n = lb & 0x7f
            h, ln = 2 + n, int.from_bytes(buf[off + 2:off + 2 + n], "big")
        content = buf[off + h:off + h + ln]
        if len(content) != ln:
            raise ValueError("truncated")
        if tag[0] & 0x20:
            node = Node(tag, parse(content))
            for k in node.kids:
                k.parent = node
        else:
            node = Node(tag, data=content)
        out.append(node)
        off += h + ln
    return out


def encapsulate(n):
    """Open an OCTET STRING or BIT STRING that holds exactly one DER
    SEQUENCE (or an INTEGER etc.: certificate extension values), so the
    mutations reach inside it."""
    if n.kids is not None:
        for k in n.kids:
            encapsulate(k)
        return
    prefix, body = b"", n.data
    if n.tag == b"\x03":
        if not body or body[0] != 0:
            return
        prefix, body = body[:1], body[1:]
    elif n.tag != b"\x04":
        return
    if not body or body[0] not in (0x30, 0x03, 0x04, 0x02):
        return
    try:
        kids = parse(body)
    except ValueError:
        return
    if len(kids) != 1:
        return
    n.kids, n.prefix, n.data = kids, prefix, b""
    kids[0].parent = n
    encapsulate(kids[0])


def walk(n, depth=0):
    yield n, depth
    for k in n.kids or ():
        yield from walk(k, depth + 1)


def path_of(n):
    """A readable name: the nearest named ancestor and the child indexes
    below it, then the element's type."""
    parts, cur = [], n
    while cur.name is None and cur.parent is not None:
        parts.append(str(cur.parent.kids.index(cur)))
        cur = cur.parent
    head = cur.name or "?"
    tail = "/".join(reversed(parts))
    return "%s%s (%s)" % (head, "/" + tail if tail else "", tagname(n.tag))


class Tree:
    """The parsed base with its SignedData structure named."""

    def __init__(self, blob, who, keys):
        (self.root,) = parse(blob)
        self.keys = keys
        r = self.root
        r.name = "ContentInfo"
        r.kids[0].name = "contentType"
        r.kids[1].name = "content"
        self.sd = sd = r.kids[1].kids[0]
        sd.name = "SignedData"
        names = ["version", "digestAlgorithms", "encapContentInfo"]
        for i, k in enumerate(sd.kids[:3]):
            k.name = "sd." + names[i]
        for j, a in enumerate(sd.kids[1].kids):
            a.name = "sd.digestAlgorithms[%d]" % j
        sd.kids[2].kids[0].name = "eContentType"
        for k in sd.kids[3:-1]:
            if k.tag == b"\xa0":
                k.name = "sd.certificates"
                for i, c in enumerate(k.kids):
                    self.name_cert(c, "cert[%d]" % i)
            else:
                k.name = "sd.crls"
        si_set = sd.kids[-1]
        si_set.name = "sd.signerInfos"
        for i, si in enumerate(si_set.kids):
            self.name_signer(si, "si[%d]" % i, who[i])

    def name_cert(self, c, name):
        c.name = name
        tbs, alg, sig = c.kids
        tbs.name, alg.name, sig.name = name + ".tbs", name + ".sigAlg", name + ".sig"
        f = tbs.kids
        i = 1 if f[0].tag == b"\xa0" else 0
        for k, nm in zip(f[i:i + 6], ["serial", "signature", "issuer", "validity",
                                      "subject", "spki"]):
            k.name = "%s.%s" % (name, nm)
        if len(f) > i + 6:
            f[i + 6].name = name + ".extensions"
        encapsulate(c)

    def name_signer(self, si, name, who):
        si.name, si.who = name, who
        f = si.kids
        names = ["version", "sid", "digestAlgorithm"]
        if f[3].tag == b"\xa0":
            names.append("authAttrs")
        names += ["signatureAlgorithm", "signature", "unauthAttrs"]
        for k, nm in zip(f, names):
            k.name = "%s.%s" % (name, nm)
        sig = f[len(names) - 2]
        if who[0] in self.keys.ec:
            encapsulate(sig)

    # structure lookups that survive earlier mutations where they can
    def signer_set(self):
        for k in self.sd.kids or ():
            if k.name == "sd.signerInfos" and k.kids is not None:
                return k
        return None

    def signers(self):
        s = self.signer_set()
        return [k for k in s.kids if k.who is not None and k.kids] if s else []

    def field(self, si, suffix):
        for k in si.kids or ():
            if k.name and k.name.endswith("." + suffix):
                return k
        return None

    def certs_field(self):
        for k in self.sd.kids or ():
            if k.name == "sd.certificates":
                return k
        return None

    def certs(self):
        return [n for n, _ in walk(self.root) if n.name and n.name.startswith("cert[")
                and "." not in n.name]

    def alg_slots(self):
        """(AlgorithmIdentifier node, category) of every algorithm slot."""
        out = []
        for n, _ in walk(self.root):
            nm = n.name or ""
            if nm.startswith("sd.digestAlgorithms[") or nm.endswith(".digestAlgorithm"):
                out.append((n, DIGESTS))
            elif nm.endswith(".signatureAlgorithm") or nm.endswith(".sigAlg") or \
                    nm.endswith(".signature") and nm.startswith("cert["):
                out.append((n, SIGALGS))
            elif nm.endswith(".spki") and n.kids:
                out.append((n.kids[0], SIGALGS))
        return [(n, c) for n, c in out if n.kids and n.kids[0].tag == b"\x06"]


def from_der(b):
    (n,) = parse(b)
    return n


def clone(n, parent):
    c = Node(n.tag, None, n.data, n.prefix)
    c.lenmode, c.name, c.who, c.parent = n.lenmode, n.name, n.who, parent
    if n.kids is not None:
        c.kids = [clone(k, c) for k in n.kids]
    return c


# ---------------------------------------------------------------------------
# Mutation operators.  Each takes (m, rng) and returns a one-line
# description, or None when it does not apply to this tree.  Anything that
# depends on payload-sized lengths draws rng.random(), so the live and the
# twin form of a mutant consume the generator identically.


class Mutant:
    def __init__(self, tree, data, rng):
        self.t, self.data, self.rng = tree, bytearray(data), rng
        self.resign = []
        self.raw = []

    def nodes(self, pred=lambda n: True, root=None):
        return [(n, d) for n, d in walk(root or self.t.root) if pred(n)]

    def pick(self, pred=lambda n: True, root=None):
        """A node chosen depth first: a depth uniformly among those that have
        a candidate, then a candidate at that depth."""
        c = self.nodes(pred, root)
        if not c:
            return None
        depths = sorted({d for _, d in c})
        d = self.rng.choice(depths)
        return self.rng.choice([n for n, dd in c if dd == d])

    def frac(self, n):
        return min(n - 1, int(self.rng.random() * n)) if n > 0 else 0

    def note_attrs(self, n):
        """Re-sign a signer whose authenticated attributes n lies in, most of
        the time: otherwise the signature check hides what follows it."""
        cur = n
        while cur is not None:
            if cur.name and cur.name.endswith(".authAttrs"):
                if self.rng.random() < 0.7:
                    self.resign.append(cur.parent)
                    return " (re-signed)"
                return ""
            cur = cur.parent
        return ""


def op_len_long(m, r):
    n = m.pick()
    L = len(n.content())
    need = max(1, (L.bit_length() + 7) // 8)
    k = r.choice([need, need, need + 1, 4] if need < 4 else [need]) if r.random() < 0.9 \
        else r.choice([5, 8])
    n.lenmode = ("long", k)
    return "length of %s in long form, %d octet(s) for %d" % (path_of(n), k, L)


def op_len_indef(m, r):
    n = m.pick()
    eoc, how = r.choice([(b"\0\0", "")] * 8 + [(b"", ", no end-of-contents"),
                                                (b"\0\1", ", end-of-contents 00 01"),
                                                (b"\0\0\0\0", ", two end-of-contents")])
    n.lenmode = ("indef", eoc)
    return "indefinite length for %s%s%s" % (path_of(n), how, m.note_attrs(n))


def op_len_value(m, r):
    n = m.pick()
    L = len(n.content())
    kind = r.random()
    if kind < 0.75:
        d = r.choice([-3, -2, -1, 1, 2, 3])
        n.lenmode = ("delta", d)
        return "length of %s declared %d for %d content octets" % (path_of(n), max(0, L + d), L)
    if kind < 0.85:
        n.lenmode = ("value", 0)
        return "length of %s declared 0 for %d" % (path_of(n), L)
    if kind < 0.95:
        v = r.choice([0x80, 0x10000, 0x7fffffff, 0xffffffff])
        n.lenmode = ("value", v)
        return "length of %s declared 0x%x for %d" % (path_of(n), v, L)
    lb = r.choice([b"\xff", b"\x85\x00\x00\x00\x00" + bytes([min(L, 255)]), b"\x81"])
    n.lenmode = ("raw", lb)
    return "length octets of %s are %s (content %d)" % (path_of(n), lb.hex(), L)


def op_cons_flip(m, r):
    n = m.pick()
    was = path_of(n)
    n.tag = bytes([n.tag[0] ^ 0x20]) + n.tag[1:]
    return "constructed bit of %s %s (tag %s)%s" % (
        was, "set" if n.tag[0] & 0x20 else "cleared", n.tag.hex(), m.note_attrs(n))


SOME_TAGS = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0c, 0x13, 0x17, 0x18, 0x30, 0x31,
             0x80, 0x81, 0x82, 0x83, 0xa0, 0xa1, 0xa2, 0xa3, 0x00, 0x10, 0x11]


def op_tag(m, r):
    n = m.pick(lambda n: n.parent is not None)
    was, t = path_of(n), n.tag[0]
    kind = r.random()
    if kind < 0.5:
        new = bytes([r.choice([x for x in SOME_TAGS if x != t])])
    elif kind < 0.7:
        new = bytes([(t & 0xe0) | ((t & 0x1f) + r.choice([1, -1])) % 31])
    elif kind < 0.85:
        new = bytes([t ^ 0x80])  # universal <-> context-specific
    else:
        new = bytes([(t & 0xe0) | 0x1f, t & 0x1f])  # long-form tag number
    n.tag = new
    return "tag of %s is %s%s" % (was, new.hex(), m.note_attrs(n))


def op_delete(m, r):
    n = m.pick(lambda n: n.parent is not None and n.parent.kids is not None)
    if n is None:
        return None
    was = path_of(n)
    n.parent.kids.remove(n)
    return "%s deleted%s" % (was, m.note_attrs(n.parent))


def op_duplicate(m, r):
    n = m.pick(lambda n: n.parent is not None and n.parent.kids is not None)
    if n is None:
        return None
    c = clone(n, n.parent)
    n.parent.kids.insert(n.parent.kids.index(n) + 1, c)
    return "%s duplicated%s" % (path_of(n), m.note_attrs(n))


def op_swap(m, r):
    n = m.pick(lambda n: n.parent is not None and n.parent.kids is not None and
               len(n.parent.kids) > 1)
    if n is None:
        return None
    ks = n.parent.kids
    i = ks.index(n)
    j = r.choice([x for x in range(len(ks)) if x != i])
    desc = "%s swapped with its sibling %d" % (path_of(n), j)
    ks[i], ks[j] = ks[j], ks[i]
    return desc + m.note_attrs(n)


JUNK_TLVS = [("NULL", b"\x05\x00"), ("INTEGER 0", b"\x02\x01\x00"),
             ("empty SEQUENCE", b"\x30\x00"), ("empty SET", b"\x31\x00"),
             ("OCTET STRING", b"\x04\x01x"), ("BOOLEAN", b"\x01\x01\xff"),
             ("OID id-data", der.oid(OID["data"])), ("empty [0]", b"\xa0\x00"),
             ("[1] primitive", b"\x81\x01\x00"), ("end-of-contents", b"\x00\x00")]


def op_insert(m, r):
    n = m.pick(lambda n: n.kids is not None)
    nm, b = r.choice(JUNK_TLVS)
    k = Node(b[:1], data=b[2:])
    if b == b"\x00\x00":
        k.tag, k.data = b"\x00", b""
    k.parent = n
    pos = r.randrange(len(n.kids) + 1)
    n.kids.insert(pos, k)
    return "%s inserted into %s at %d%s" % (nm, path_of(n), pos, m.note_attrs(n))


def op_flip_content(m, r):
    n = m.pick(lambda n: n.kids is None and len(n.data) > 0)
    i = m.frac(len(n.data))
    bit = 1 << r.randrange(8)
    d = bytearray(n.data)
    d[i] ^= bit
    n.data = bytes(d)
    return "bit 0x%02x of content octet %d of %s flipped%s" % (bit, i, path_of(n), m.note_attrs(n))


def op_resize_content(m, r):
    n = m.pick(lambda n: n.kids is None and len(n.data) > 0)
    k = r.choice([1, 1, 2, 3])
    if r.random() < 0.5:
        n.data = n.data[:-k]
        how = "last %d content octet(s) of %s dropped" % (k, path_of(n))
    else:
        n.data += bytes([r.choice([0, 0xff, 0x30])]) * k
        how = "%d octet(s) appended to the content of %s" % (k, path_of(n))
    return how + m.note_attrs(n)


def int_content(v):
    return der.integer(v)[2:]


def op_integer(m, r):
    n = m.pick(lambda n: n.kids is None and n.tag == b"\x02")
    if n is None:
        return None
    was = path_of(n)
    kind = r.random()
    if kind < 0.6:
        v = r.choice([0, 1, 2, 3, 4, 5, -1, 0x80, 256])
        n.data = int_content(v)
        how = "value %d" % v
    elif kind < 0.8:
        n.data = b"\x00" + n.data
        how = "a leading 00 octet (not minimal)"
    elif kind < 0.9:
        n.data = b"\xff" + n.data
        how = "a leading ff octet (negative)"
    else:
        n.data = b""
        how = "empty content"
    return "INTEGER %s gets %s%s" % (was, how, m.note_attrs(n))


def oid_content(dotted):
    return der.oid(dotted)[2:]


def new_oid(r, cat):
    if r.random() < 0.9:
        nm = r.choice(cat if r.random() < 0.7 else ALL_OIDS)
        return oid_content(OID[nm]), nm
    kind = r.choice(["empty", "pad", "cut"])
    b = oid_content(OID[r.choice(cat)])
    if kind == "empty":
        return b"", "an empty OID"
    if kind == "pad":
        return b[:1] + b"\x80" + b[1:], "a non-minimal OID encoding (0x80 pad)"
    return b[:-1] + bytes([b[-1] | 0x80]), "an unterminated OID"


def op_oid(m, r):
    n = m.pick(lambda n: n.kids is None and n.tag == b"\x06")
    was = path_of(n)
    cur = OID_NAME.get(der_oid_str(n.data), "?")
    cat = DIGESTS if cur in DIGESTS else SIGALGS if cur in SIGALGS else \
        CURVES if cur in CURVES else CONTENT if cur in CONTENT else \
        ATTRS if cur in ATTRS else ALL_OIDS
    n.data, nm = new_oid(r, cat)
    return "OID %s (%s) replaced by %s%s" % (was, cur, nm, m.note_attrs(n))


def der_oid_str(b):
    try:
        vals, v = [], 0
        for x in b:
            v = (v << 7) | (x & 0x7f)
            if not x & 0x80:
                vals.append(v)
                v = 0
        first = min(vals[0] // 40, 2)
        return ".".join(str(x) for x in [first, vals[0] - 40 * first] + vals[1:])
    except (IndexError, ValueError):
        return "?"


def op_sd_version(m, r):
    v = r.choice([0, 1, 2, 3, 4, 5])
    n = m.t.sd.kids[0]
    if n.tag != b"\x02":
        return None
    n.data = int_content(v)
    return "SignedData version %d" % v


def op_si_version(m, r):
    sis = m.t.signers()
    if not sis:
        return None
    si = r.choice(sis)
    v = r.choice([0, 1, 2, 3, 4])
    f = m.t.field(si, "version")
    if f is None:
        return None
    f.data = int_content(v)
    return "%s version %d" % (si.name, v)


def op_sid(m, r):
    sis = m.t.signers()
    if not sis:
        return None
    si = r.choice(sis)
    sid = m.t.field(si, "sid")
    if sid is None or si.who is None:
        return None
    name = si.who[0]
    kind = r.random()
    fix_version = r.random() < 0.5
    if sid.tag == b"\x30":
        if kind < 0.7 and m.t.keys.skid_if_any(name) is None:
            return None  # a certificate without a key id to name it by
        if kind < 0.5:
            new = Node(b"\x80", data=m.t.keys.skid(name))
            how = "issuer+serial -> subjectKeyIdentifier (its key's)"
        elif kind < 0.7:
            new = Node(b"\xa0", [Node(b"\x04", data=m.t.keys.skid(name))])
            how = "issuer+serial -> [0] constructed OCTET STRING key id"
        else:
            serial = sid.kids[1] if sid.kids and len(sid.kids) > 1 else None
            if serial is None or serial.kids is not None:
                return None
            d = bytearray(serial.data)
            d[-1] ^= 1
            serial.data = bytes(d)
            return "%s.sid serial's last octet changed" % si.name
        vers = 3
    else:
        if kind < 0.5:
            new = from_der(m.t.keys.ias(name))
            how = "subjectKeyIdentifier -> issuer+serial"
            vers = 1
        elif kind < 0.8:
            if sid.kids is not None:
                return None
            d = bytearray(sid.data)
            if not d:
                return None
            d[m.frac(len(d))] ^= 0x10
            sid.data = bytes(d)
            return "%s.sid key id changed in one octet" % si.name
        else:
            other = r.choice(["signer", "ecsigner", "root", "inter"])
            new = Node(b"\x80", data=m.t.keys.skid(other))
            how = "subjectKeyIdentifier of %s instead" % other
            vers = 3
    new.name = sid.name
    new.parent = si
    for k in new.kids or ():
        k.parent = new
    si.kids[si.kids.index(sid)] = new
    if fix_version:
        f = m.t.field(si, "version")
        if f is not None:
            f.data = int_content(vers)
            how += ", version %d" % vers
        if vers == 3 or r.random() < 0.5:
            m.t.sd.kids[0].data = int_content(vers)
            how += ", SignedData version %d" % vers
    return "%s.sid: %s" % (si.name, how)


def op_alg(m, r):
    slots = m.t.alg_slots()
    if not slots:
        return None
    n, cat = r.choice(slots)
    was = path_of(n)
    kind = r.random()
    if kind < 0.6:
        o = n.kids[0]
        cur = OID_NAME.get(der_oid_str(o.data), "?")
        o.data, nm = new_oid(r, cat)
        return "algorithm %s: %s -> %s" % (was, cur, nm)
    if kind < 0.8 and len(n.kids) > 1:
        del n.kids[1:]
        return "algorithm %s: parameters removed" % was
    p = from_der(r.choice([b"\x05\x00", b"\x04\x04junk", b"\x02\x01\x01", b"\x30\x00",
                           der.oid(P256.oid), der.oid(P384.oid)]))
    p.parent = n
    if len(n.kids) > 1 and r.random() < 0.5:
        n.kids.append(p)
        return "algorithm %s: a third field %s" % (was, tagname(p.tag))
    n.kids[1:] = [p]
    return "algorithm %s: parameters %s" % (was, ser(p).hex())


def op_signers(m, r):
    sis_set = m.t.signer_set()
    if sis_set is None:
        return None
    ks = sis_set.kids
    kind = r.random()
    if kind < 0.25 and len(ks) > 1:
        i, j = r.sample(range(len(ks)), 2)
        ks[i], ks[j] = ks[j], ks[i]
        return "signerInfos %d and %d swapped" % (i, j)
    if kind < 0.5:
        i = r.randrange(len(ks))
        c = clone(ks[i], sis_set)
        ks.insert(r.randrange(len(ks) + 1), c)
        return "signerInfo %d duplicated" % i
    if kind < 0.6 and len(ks) > 1:
        i = r.randrange(len(ks))
        del ks[i]
        return "signerInfo %d removed" % i
    # a foreign signer: its own key over the same data, or a bad signature
    who = r.choice(["untrusted", "signer", "ecsigner", "noskid", "expired"])
    bad = r.random() < 0.4
    si, w = sinfo(m.t.keys, who, bytes(m.data) + (b"x" if bad else b""))
    node = from_der(si)
    m.t.name_signer(node, "si[+%s]" % who, w)
    node.parent = sis_set
    pos = r.randrange(len(ks) + 1)
    ks.insert(pos, node)
    return "signerInfo by %s%s inserted at %d" % (who, " (signature over other data)" if bad else "", pos)


def op_certs(m, r):
    cf = m.t.certs_field()
    kind = r.random()
    if cf is None or kind < 0.45:
        name = r.choice(POOL + ["p384leaf"])
        c = from_der(m.t.keys.cert(name))
        m.t.name_cert(c, "cert[+%s]" % name)
        if cf is None:
            cf = Node(b"\xa0", [])
            cf.name = "sd.certificates"
            cf.parent = m.t.sd
            m.t.sd.kids.insert(3, cf)
            where = "a new certificates field"
        else:
            where = "certificates"
        pos = r.randrange(len(cf.kids) + 1)
        c.parent = cf
        cf.kids.insert(pos, c)
        return "certificate %s inserted into %s at %d" % (name, where, pos)
    if cf.kids and kind < 0.6:
        i = r.randrange(len(cf.kids))
        del cf.kids[i]
        return "certificate %d removed" % i
    if cf.kids and kind < 0.7:
        i = r.randrange(len(cf.kids))
        c = clone(cf.kids[i], cf)
        cf.kids.insert(i, c)
        return "certificate %d duplicated" % i
    if len(cf.kids or ()) > 1 and kind < 0.8:
        cf.kids.reverse()
        return "certificates in reverse order"
    if kind < 0.93:
        t = r.choice([b"\xa2", b"\xa1", b"\xa3", b"\x80", b"\x31"])
        cf.tag = t
        return "certificates field tagged %s" % t.hex()
    cf.kids = []
    return "certificates field emptied"


def op_crls(m, r):
    kind = r.choice(["cert", "integer", "empty", "two"])
    body = {"cert": [m.t.keys.cert("untrusted")], "integer": [der.seq(der.integer(1))],
            "empty": [], "two": [m.t.keys.cert("untrusted"), m.t.keys.cert("signer")]}[kind]
    n = Node(b"\xa1", [from_der(b) for b in body])
    n.name = "sd.crls"
    n.parent = m.t.sd
    for k in n.kids:
        k.parent = n
    s = m.t.signer_set()
    pos = m.t.sd.kids.index(s) if s is not None else len(m.t.sd.kids)
    m.t.sd.kids.insert(pos, n)
    return "crls field added (%s)" % kind


def op_sig_flip(m, r):
    sis = m.t.signers()
    if not sis:
        return None
    si = r.choice(sis)
    s = m.t.field(si, "signature")
    if s is None:
        return None
    flat = s.content()[len(s.prefix):]
    s.kids, s.prefix = None, b""
    d = bytearray(flat)
    if not d:
        return None
    where = r.random()
    i = 0 if where < 0.15 else len(d) - 1 if where < 0.3 else m.frac(len(d))
    d[i] ^= 0x01
    s.data = bytes(d)
    pos = "first" if i == 0 else "last" if i == len(d) - 1 else "a middle"
    return "%s signature value: %s octet flipped" % (si.name, pos)


def op_data_flip(m, r):
    if not m.data:
        return None
    i = m.frac(len(m.data))
    m.data[i] ^= 0x01
    return "a signed-data octet flipped (%s of the data)" % (
        "start" if i < len(m.data) / 3 else "middle" if i < 2 * len(m.data) / 3 else "end")


def op_content(m, r):
    kind = r.random()
    if kind < 0.35:
        n = m.t.root.kids[0]
        was = "contentType"
        cur = m.t.root.kids[0]
    elif kind < 0.7:
        eci = m.t.sd.kids[2] if len(m.t.sd.kids) > 2 else None
        if eci is None or not eci.kids or eci.kids[0].tag != b"\x06":
            return None
        n = cur = eci.kids[0]
        was = "eContentType"
    else:
        eci = m.t.sd.kids[2] if len(m.t.sd.kids) > 2 else None
        if eci is None or eci.kids is None:
            return None
        what = r.choice(["the data", "other data", "nothing"])
        b = {"the data": bytes(m.data), "other data": b"other", "nothing": b""}[what]
        ec = Node(b"\xa0", [Node(b"\x04", data=b)])
        ec.kids[0].parent = ec
        ec.parent = eci
        eci.kids[1:] = [ec]
        return "eContent [0] embedding %s" % what
    if cur.kids is not None:
        return None
    old = OID_NAME.get(der_oid_str(cur.data), "?")
    n.data, nm = new_oid(r, CONTENT)
    return "%s %s -> %s" % (was, old, nm)


def op_attrs(m, r):
    sis = [s for s in m.t.signers() if m.t.field(s, "authAttrs") is not None]
    if not sis:
        si = r.choice(m.t.signers() or [None])
        if si is None or si.who is None:
            return None
        # add contentType and messageDigest to a signer that has none
        md = si.who[1]
        a = Node(b"\xa0", [from_der(x) for x in attrs_for(bytes(m.data), md, False)])
        for k in a.kids:
            k.parent = a
        a.name, a.parent = si.name + ".authAttrs", si
        pos = 3 if len(si.kids) > 3 else len(si.kids)
        si.kids.insert(pos, a)
        return "%s gets contentType and messageDigest attributes%s" % (si.name, m.note_attrs(a))
    si = r.choice(sis)
    a = m.t.field(si, "authAttrs")
    if a.kids is None or not a.kids:
        return None
    kind = r.random()
    i = r.randrange(len(a.kids))
    nm = "attribute %d" % i
    if kind < 0.2:
        del a.kids[i]
        how = nm + " removed"
    elif kind < 0.4:
        c = clone(a.kids[i], a)
        a.kids.insert(i, c)
        how = nm + " duplicated"
    elif kind < 0.5 and len(a.kids) > 1:
        a.kids.reverse()
        how = "attributes in reverse order"
    elif kind < 0.75:
        at = a.kids[i]
        if not at.kids or at.kids[0].tag != b"\x06":
            return None
        old = OID_NAME.get(der_oid_str(at.kids[0].data), "?")
        at.kids[0].data, new = new_oid(r, ATTRS)
        how = "%s type %s -> %s" % (nm, old, new)
    elif kind < 0.9:
        at = a.kids[i]
        if not at.kids or len(at.kids) < 2 or at.kids[1].kids is None:
            return None
        vals = at.kids[1]
        extra = clone(vals.kids[0], vals) if vals.kids else Node(b"\x05")
        extra.parent = vals
        vals.kids.append(extra)
        how = nm + " gets a second value"
    else:
        v = r.choice([der.octets(b"\0" * 32), der.utctime("491231235959Z"),
                      der.oid(OID["msIndirectData"]), der.null()])
        at = a.kids[i]
        if not at.kids or len(at.kids) < 2 or not at.kids[1].kids:
            return None
        x = from_der(v)
        x.parent = at.kids[1]
        at.kids[1].kids[0] = x
        how = "%s value replaced by %s" % (nm, tagname(x.tag))
    return "%s.authAttrs: %s%s" % (si.name, how, m.note_attrs(a))


def op_unauth(m, r):
    sis = m.t.signers()
    if not sis:
        return None
    si = r.choice(sis)
    body = r.choice([gc.attr(OID["signingTime"], der.utctime("250101000000Z")),
                     gc.attr(OID["signingTime"]), b""])
    n = from_der(der.tlv(0xa1, body))
    n.name, n.parent = si.name + ".unauthAttrs", si
    si.kids.append(n)
    return "%s gets unauthenticatedAttributes (%d octets)" % (si.name, len(body))


def op_raw(m, r):
    kind = r.random()
    if kind < 0.3:
        m.raw.append(("trunc", r.random(), r.choice([0, 0, 1, 2, 3])))
        return "signature truncated"
    if kind < 0.6:
        t = r.choice([b"\0", b"\0\0", b"\xa5" * 16, b"\x05\x00", b"\x30\x00", b"\x30\x80",
                      bytes(range(1, 9))])
        m.raw.append(("trail", t))
        return "%d trailing octet(s) %s after the signature" % (len(t), t[:8].hex())
    if kind < 0.8:
        m.raw.append(("flip", r.random(), 1 << r.randrange(8)))
        return "one bit flipped anywhere in the signature"
    m.raw.append(("insdel", r.random(), r.random() < 0.5, r.randrange(256)))
    return "one octet inserted or deleted in the signature"


def apply_raw(blob, ops, desc):
    b = bytearray(blob)
    out = []
    for op in ops:
        if op[0] == "trunc":
            cut = len(b) - op[2] if op[2] else max(1, int(op[1] * len(b)))
            out.append("(kept %d of %d octets)" % (cut, len(b)))
            del b[cut:]
        elif op[0] == "trail":
            b += op[1]
        elif op[0] == "flip":
            i = min(len(b) - 1, int(op[1] * len(b)))
            b[i] ^= op[2]
            out.append("(octet %d of %d, bit 0x%02x)" % (i, len(b), op[2]))
        else:
            i = min(len(b) - 1, int(op[1] * len(b)))
            if op[2]:
                b.insert(i, op[3])
                out.append("(0x%02x inserted at %d)" % (op[3], i))
            else:
                del b[i]
                out.append("(octet %d deleted)" % i)
    return bytes(b), " ".join([desc] + out)


# (operator, weight); a mutant stacks one to three
OPS = [(op_len_long, 6), (op_len_indef, 7), (op_len_value, 9), (op_cons_flip, 7),
       (op_tag, 6), (op_delete, 5), (op_duplicate, 4), (op_swap, 3), (op_insert, 4),
       (op_flip_content, 4), (op_resize_content, 3), (op_integer, 3), (op_oid, 4),
       (op_sd_version, 3), (op_si_version, 4), (op_sid, 6), (op_alg, 8),
       (op_signers, 5), (op_certs, 6), (op_crls, 1), (op_sig_flip, 4),
       (op_data_flip, 2), (op_content, 2), (op_attrs, 4), (op_unauth, 1), (op_raw, 8)]


def resign(m, si):
    if si.who is None or si.kids is None:
        return
    a, s = m.t.field(si, "authAttrs"), m.t.field(si, "signature")
    if a is None or s is None:
        return
    signed = b"\x31" + ser(a)[1:]
    s.kids, s.prefix = None, b""
    s.data = m.t.keys.sign(si.who[0], signed, si.who[1])


def make_mutant(keys, base, data, seed, index):
    """-> (signature blob, signed data, description).

    An operation that cannot apply to the tree it was drawn for (an empty
    SET to pick from, a length that no longer fits) raises; the mutant is
    then drawn again from a fresh tree with the next attempt's generator,
    so every (seed, index) still gives one mutant, the same on every run,
    and attempt 0 is what it always was."""
    last = None
    for attempt in range(16):
        try:
            return draw_mutant(keys, base, data, seed, index, attempt)
        except (ValueError, IndexError, OverflowError, KeyError,
                AttributeError, TypeError) as e:
            last = e
    raise SystemExit("mutate.py: seed %s index %d: no mutation applies (%r)"
                     % (seed, index, last))


def draw_mutant(keys, base, data, seed, index, attempt):
    if attempt == 0:
        rng = random.Random("%s:%d" % (seed, index))
    else:
        rng = random.Random("%s:%d:%d" % (seed, index, attempt))
    blob, who = base_blob(keys, base, data)
    m = Mutant(Tree(blob, who, keys), data, rng)
    n_ops = rng.choices([1, 2, 3], [70, 22, 8])[0]
    descs = []
    ops, weights = zip(*OPS)
    while len(descs) < n_ops:
        op = rng.choices(ops, weights)[0]
        if op is op_raw and m.raw:
            continue
        d = op(m, rng)
        if d is not None:
            descs.append(d)
    seen = set()
    for si in m.resign:
        if id(si) not in seen:
            seen.add(id(si))
            resign(m, si)
    out = ser(m.t.root)
    if m.raw:
        out, descs[-1] = apply_raw(out, m.raw, descs[-1])
    return out, bytes(m.data), "; ".join(descs)


def pick_base(seed, index, bases=BASES):
    r = random.Random("base:%s:%d" % (seed, index))
    return bases[r.randrange(len(bases))]


# ---------------------------------------------------------------------------


class Writer:
    def __init__(self, out):
        self.out = out
        self.cases = ["case\tfile\tkind\tusage\tsig"]
        self.meta = ["case\tseed\tindex\tbase\tusage\tform\tfile\tsig\tdescription"]

    def put(self, name, b):
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(b)

    def module(self, cid, body, blob, meta):
        f = cid + ".ko"
        self.put(f, gc.module(body, blob))
        self.cases.append("\t".join([cid, f, "module", "module", "-"]))
        self.meta.append("\t".join([cid] + meta[:3] + ["module", "live", f, "-", meta[3]]))

    def detached(self, cid, data, blob, usage, form, meta):
        f = cid + ".bin"
        self.put(f, data)
        self.put(f + ".p7s", blob)
        self.cases.append("\t".join([cid, f, "detached", usage, f + ".p7s"]))
        self.meta.append("\t".join([cid] + meta[:3] + [usage, form, f, f + ".p7s", meta[3]]))

    def close(self):
        with open(os.path.join(self.out, "cases.tsv"), "w") as f:
            f.write("# kernel-mutants (tests/kernel/mutate.py)\n" + "\n".join(self.cases) + "\n")
        with open(os.path.join(self.out, "mutants.tsv"), "w") as f:
            f.write("\n".join(self.meta) + "\n")


def clean(desc):
    return desc.replace("\t", " ").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keys", default=os.path.join(CONF, "keys"))
    ap.add_argument("--payload", required=True, help="module the live cases are appended to")
    ap.add_argument("--data", default=os.path.join(CONF, "payload.bin"),
                    help="fixed data of detached cases and twins")
    ap.add_argument("--seed", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--first", type=int, default=0, help="first index")
    ap.add_argument("--bases", action="store_true", help="also write the unmutated bases")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rsa-only", action="store_true",
                    help="RSA bases only (a kernel without ECDSA: 5.10)")
    ap.add_argument("--describe", action="store_true",
                    help="print index, base, usage and description only; write nothing")
    a = ap.parse_args()
    if not a.seed.isdigit():
        ap.error("--seed must be a decimal number (it names the cases)")
    with open(a.payload, "rb") as f:
        payload = f.read()
    with open(a.data, "rb") as f:
        fixed = f.read()
    keys = Keys(a.keys)
    bases = RSA_BASES if a.rsa_only else BASES
    if not a.describe:
        os.makedirs(a.out, exist_ok=True)
    w = Writer(a.out)
    if a.bases and not a.describe:
        for base, usage in bases:
            meta = ["-", "-", base, "unmutated base"]
            cid = "b-" + base
            if usage == "module":
                blob, _ = base_blob(keys, base, payload)
                w.module(cid, payload, blob, meta)
                blob, _ = base_blob(keys, base, fixed)
                w.detached(cid + "-t", fixed, blob, "module", "twin", meta)
            else:
                blob, _ = base_blob(keys, base, fixed)
                w.detached(cid, fixed, blob, usage, "live", meta)
    for i in range(a.first, a.first + a.count):
        base, usage = pick_base(a.seed, i, bases)
        cid = "s%s-%d" % (a.seed, i)
        if usage == "module":
            blob, body, desc = make_mutant(keys, base, payload, a.seed, i)
            meta = [a.seed, str(i), base, clean(desc)]
            if a.describe:
                print("%d\t%s\t%s\t%s" % (i, base, usage, meta[3]))
                continue
            w.module(cid, body, blob, meta)
            blob, body, desc = make_mutant(keys, base, fixed, a.seed, i)
            meta[3] = clean(desc)
            w.detached(cid + "t", body, blob, "module", "twin", meta)
        else:
            blob, body, desc = make_mutant(keys, base, fixed, a.seed, i)
            meta = [a.seed, str(i), base, clean(desc)]
            if a.describe:
                print("%d\t%s\t%s\t%s" % (i, base, usage, meta[3]))
                continue
            w.detached(cid, body, blob, usage, "live", meta)
    if not a.describe:
        w.close()


if __name__ == "__main__":
    main()
