#!/usr/bin/python3
"""Check a safetensors file against the specification, independently of Go.

    check_spec.py FILE [EXPECT.json]

Reads FILE with nothing but json and struct (and numpy, if importable, as a
second decoder) and verifies what the Go package promises for files it
writes:

  * 8-byte little-endian header length N, N <= len(FILE) - 8, N a multiple
    of 8 (the Rust writer's alignment), the header UTF-8 JSON that starts
    with '{' and is padded with trailing spaces only;
  * one JSON object with no duplicate keys; "__metadata__" first, mapping
    strings to strings, with the attend.* entries (kind, format_version,
    config as JSON, vocab as a JSON array of strings);
  * every tensor entry has a known dtype, a shape of non-negative integers
    and data_offsets [begin, end] with end - begin = prod(shape) * size;
    sorted by offset they tile the data buffer exactly;
  * with EXPECT.json, {"metadata": {...}, "tensors": {name: {"dtype": ..,
    "shape": [..], "bits": [float32 bit patterns as integers]}}}, the
    metadata and tensor set match and every stored value is the expected
    float32 (F32, bit for bit) or that float32 rounded to half precision
    by Python's struct 'e' format and by numpy (F16, bit for bit).

Prints "ok: ..." and exits 0, or prints the first problem to stderr and
exits 1. The Go test TestCheckSpecPython runs it.
"""

import json
import math
import struct
import sys

SIZES = {
    "BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1,
    "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
    "I32": 4, "U32": 4, "F32": 4,
    "I64": 8, "U64": 8, "F64": 8, "C64": 8,
}


class SpecError(Exception):
    pass


def require(cond, msg):
    if not cond:
        raise SpecError(msg)


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    require(not dup, "duplicate keys %s" % sorted(dup))
    return dict(pairs)


def parse(blob):
    require(len(blob) >= 8, "file of %d bytes has no header length" % len(blob))
    (n,) = struct.unpack("<Q", blob[:8])
    require(2 <= n <= len(blob) - 8, "header length %d out of range" % n)
    require(n % 8 == 0, "header length %d is not a multiple of 8" % n)
    raw = blob[8:8 + n]
    text = raw.decode("utf-8")
    require(text.startswith("{"), "header does not start with '{'")
    body = text.rstrip(" ")
    require(body.endswith("}"), "header padding is not spaces only")
    header = json.loads(body, object_pairs_hook=no_duplicates)
    require(isinstance(header, dict), "header is not an object")
    keys = list(json.loads(body, object_pairs_hook=lambda p: [k for k, _ in p]))
    return header, keys, blob[8 + n:]


def check_layout(header, keys, data):
    require(keys and keys[0] == "__metadata__", "__metadata__ is not the first key")
    meta = header["__metadata__"]
    require(isinstance(meta, dict), "__metadata__ is not an object")
    for k, v in meta.items():
        require(isinstance(v, str), "__metadata__[%r] is not a string" % k)
    require(meta.get("attend.kind"), "no attend.kind")
    require(meta.get("attend.format_version") == "1", "attend.format_version is not \"1\"")
    json.loads(meta["attend.config"])
    vocab = json.loads(meta["attend.vocab"])
    require(isinstance(vocab, list) and all(isinstance(t, str) for t in vocab),
            "attend.vocab is not an array of strings")

    entries = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        require(isinstance(info, dict), "%r: entry is not an object" % name)
        dtype, shape, offs = info["dtype"], info["shape"], info["data_offsets"]
        require(dtype in SIZES, "%r: unknown dtype %r" % (name, dtype))
        require(all(isinstance(d, int) and d >= 0 for d in shape), "%r: bad shape" % name)
        require(len(offs) == 2 and all(isinstance(o, int) for o in offs), "%r: bad offsets" % name)
        count = 1
        for d in shape:
            count *= d
        require(offs[1] - offs[0] == count * SIZES[dtype],
                "%r: offsets %s do not hold shape %s %s" % (name, offs, shape, dtype))
        entries.append((offs[0], offs[1], name))
    entries.sort()
    pos = 0
    for begin, end, name in entries:
        require(begin == pos, "%r begins at %d, want %d (hole or overlap)" % (name, begin, pos))
        pos = end
    require(pos == len(data), "tensors end at %d, data buffer has %d bytes" % (pos, len(data)))
    return meta


def float32_of(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def check_values(header, meta, data, expect):
    require(meta == expect["metadata"], "metadata %r, want %r" % (meta, expect["metadata"]))
    names = sorted(k for k in header if k != "__metadata__")
    require(names == sorted(expect["tensors"]), "tensors %s, want %s" % (names, sorted(expect["tensors"])))
    try:
        import numpy
    except ImportError:
        numpy = None
    for name, want in expect["tensors"].items():
        info = header[name]
        require(info["dtype"] == want["dtype"], "%r: dtype %s, want %s" % (name, info["dtype"], want["dtype"]))
        require(info["shape"] == want["shape"], "%r: shape %s, want %s" % (name, info["shape"], want["shape"]))
        stored = data[info["data_offsets"][0]:info["data_offsets"][1]]
        bits = want["bits"]
        if want["dtype"] == "F32":
            expected = struct.pack("<%dI" % len(bits), *bits)
            require(stored == expected, "%r: F32 bytes differ" % name)
            if numpy is not None:
                got = numpy.frombuffer(stored, dtype="<f4").view("<u4")
                require(list(got) == bits, "%r: numpy reads other F32 values" % name)
        elif want["dtype"] == "F16":
            for i, b in enumerate(bits):
                v = float32_of(b)
                got = stored[2 * i:2 * i + 2]
                if math.isnan(v):
                    (h,) = struct.unpack("<H", got)
                    require(h & 0x7c00 == 0x7c00 and h & 0x3ff, "%r[%d]: NaN not kept" % (name, i))
                    continue
                require(got == struct.pack("<e", v),
                        "%r[%d]: %r stored as %s, struct rounds to %s" % (name, i, v, got.hex(), struct.pack("<e", v).hex()))
            if numpy is not None:
                want16 = numpy.array(bits, dtype="<u4").view("<f4").astype("<f2")
                got16 = numpy.frombuffer(stored, dtype="<f2")
                same = (want16.view("<u2") == got16.view("<u2")) | (numpy.isnan(want16) & numpy.isnan(got16))
                require(bool(same.all()), "%r: numpy rounds F16 differently" % name)
        else:
            raise SpecError("%r: no value check for dtype %s" % (name, want["dtype"]))


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        blob = f.read()
    try:
        header, keys, data = parse(blob)
        meta = check_layout(header, keys, data)
        checked = "layout"
        if len(argv) == 3:
            with open(argv[2]) as f:
                check_values(header, meta, data, json.load(f))
            checked = "layout and values"
    except (SpecError, ValueError, KeyError, TypeError) as e:
        print("check_spec: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    print("ok: %s: %d tensors, %d bytes, %s checked" % (argv[1], len(header) - 1, len(blob), checked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
