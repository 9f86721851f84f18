#!/usr/bin/env python3
"""Writes the zip archives that ZipInteropTests.swift reads, using CPython's own `zipfile` as the writer.

Run from anywhere (standard library only): `python3 make-fixtures.py`. It (re)writes, next to itself:

    python-stored.zip           ZIP_STORED entries
    python-deflated.zip         ZIP_DEFLATED (level 9) entries, one of them a few KiB of binary noise
    python-zip64.zip            ZIP64 extra fields in local and central headers, ZIP64 end record and locator
    python-data-descriptors.zip written to a non-seekable stream: flag bit 3 and data descriptors
    python-comment.zip          an archive comment holding a fake end-of-central-directory record, entry comments
    python-subfolder.zip        a `gtfs/` directory entry and the files under it, as zips made on a Mac often are
    expected.json               every archive's entries: path, directory flag, sizes, CRC-32, method, header
                                offset, data-descriptor flag and the exact bytes (base64)

The output is deterministic: fixed timestamps, attributes and contents, no randomness. (The deflate streams
depend on the zlib version; the entries' bytes, sizes and CRCs recorded in expected.json do not, except for the
compressed sizes and header offsets, which the manifest takes from the same run.) Each archive is checked here
after writing, by a small independent parser and by zipfile itself, before the manifest is written.
"""

import base64
import io
import json
import os
import struct
import sys
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATE_TIME = (2024, 3, 1, 12, 30, 0)
FILE_ATTRIBUTES = 0o100644 << 16  # regular file, rw-r--r--
DIRECTORY_ATTRIBUTES = (0o40755 << 16) | 0x10  # directory, rwxr-xr-x, MS-DOS directory flag

AGENCY = (
    "agency_id,agency_name,agency_url,agency_timezone,agency_lang\n"
    "BVG,Berliner Verkehrsbetriebe,https://www.bvg.de,Europe/Berlin,de\n"
    "SBB,Schweizerische Bundesbahnen,https://www.sbb.ch,Europe/Zurich,de\n"
).encode("utf-8")

STOPS = (
    "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
    "900000014101,Görlitzer Bahnhof,52.499044,13.428350,0,\n"
    "900000013102,Kottbusser Tor,52.499047,13.418385,0,\n"
    "900000012103,Hallesches Tor,52.497776,13.391766,0,\n"
    "900000017104,Möckernbrücke,52.498944,13.383256,0,\n"
    "900000100003,Alexanderplatz,52.521508,13.411267,1,\n"
    "8503000,Zürich HB,47.378177,8.540192,1,\n"
).encode("utf-8")

ROUTES = (
    "route_id,agency_id,route_short_name,route_long_name,route_type\n"
    "U1,BVG,U1,Uhlandstraße – Warschauer Straße,1\n"
    "U8,BVG,U8,Wittenau – Hermannstraße,1\n"
    "IC1,SBB,IC 1,Genève-Aéroport – St. Gallen,2\n"
).encode("utf-8")

# Longer than the ZIP64 archive's lowered limit, shorter than a screenful.
STOP_TIMES = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n".encode("utf-8") + b"".join(
    "T{},{:02d}:{:02d}:00,{:02d}:{:02d}:30,9000000{:05d},{}\n".format(
        trip, 5 + sequence, 2 * sequence, 5 + sequence, 2 * sequence, 14101 + sequence, sequence
    ).encode("utf-8")
    for trip in range(3)
    for sequence in range(1, 6)
)

FEED_INFO = b"feed_publisher_name,feed_publisher_url,feed_lang\nSwitchyard,https://example.org,de\n"
EMPTY = b""


def lcg_bytes(count, seed):
    """`count` bytes of deterministic noise: the top byte of the Numerical Recipes 32-bit LCG."""
    state = seed
    out = bytearray()
    for _ in range(count):
        state = (1664525 * state + 1013904223) & 0xFFFFFFFF
        out.append(state >> 24)
    return bytes(out)


NOISE = lcg_bytes(3000, seed=20240301)


def file_info(name, method, comment=b""):
    """A ZipInfo with everything that would otherwise depend on the clock or the platform fixed."""
    info = zipfile.ZipInfo(name, date_time=DATE_TIME)
    info.compress_type = method
    info.create_system = 3  # Unix, whatever the platform running this script
    info.external_attr = FILE_ATTRIBUTES
    info.comment = comment
    return info


def directory_info(name):
    info = zipfile.ZipInfo(name, date_time=DATE_TIME)
    info.compress_type = zipfile.ZIP_STORED
    info.create_system = 3
    info.external_attr = DIRECTORY_ATTRIBUTES
    info.file_size = 0
    info.compress_size = 0
    info.CRC = 0
    return info


def add(zf, name, data, method, level=None, comment=b""):
    zf.writestr(file_info(name, method, comment), data, compress_type=method, compresslevel=level)


def add_directory(zf, name):
    info = directory_info(name)
    if hasattr(zf, "mkdir"):  # Python 3.11+
        zf.mkdir(info)
    else:
        zf.writestr(info, b"", compress_type=zipfile.ZIP_STORED)


class NonSeekable:
    """A write-only stream: zipfile finds no `tell` or `seek`, so it sets flag bit 3 and writes data descriptors."""

    def __init__(self, target):
        self._target = target

    def write(self, data):
        return self._target.write(data)

    def flush(self):
        self._target.flush()


# MARK: - The archives. Each builder returns (bytes, infos); infos are the writer's ZipInfo objects.


def build_stored():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        add(zf, "agency.txt", AGENCY, zipfile.ZIP_STORED)
        add(zf, "stops.txt", STOPS, zipfile.ZIP_STORED)
        add(zf, "transfers.txt", EMPTY, zipfile.ZIP_STORED)
        add(zf, "feed_info.txt", FEED_INFO, zipfile.ZIP_STORED)
    return buffer.getvalue(), zf.infolist()


def build_deflated():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in [
            ("agency.txt", AGENCY),
            ("stops.txt", STOPS),
            ("routes.txt", ROUTES),
            ("transfers.txt", EMPTY),
            ("shapes.bin", NOISE),
        ]:
            add(zf, name, data, zipfile.ZIP_DEFLATED, level=9)
    return buffer.getvalue(), zf.infolist()


def build_zip64():
    """ZIP64 records on small files, the way CPython's test_zipfile64 does it: lower the module's limits while
    writing. With ZIP64_LIMIT = 100:

    - agency.txt (stored, > 100 bytes, offset 0): local ZIP64 extra; central extra holds both sizes.
    - stop_times.txt (deflated, > 100 bytes): local ZIP64 extra; central extra holds both sizes and the offset.
    - feed_info.txt (stored, < 100 bytes, written through open(..., force_zip64=True)): local ZIP64 extra; central
      extra holds only the offset.
    - transfers.txt (empty): no local ZIP64 extra; central extra holds only the offset.

    Four entries > ZIP_FILECOUNT_LIMIT = 2 (and the central directory past 100 bytes): ZIP64 end record and locator.
    """
    saved = (zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT)
    zipfile.ZIP64_LIMIT = 100
    zipfile.ZIP_FILECOUNT_LIMIT = 2
    try:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", allowZip64=True) as zf:
            add(zf, "agency.txt", AGENCY, zipfile.ZIP_STORED)
            add(zf, "stop_times.txt", STOP_TIMES, zipfile.ZIP_DEFLATED, level=9)
            with zf.open(file_info("feed_info.txt", zipfile.ZIP_STORED), "w", force_zip64=True) as dest:
                dest.write(FEED_INFO)
            add(zf, "transfers.txt", EMPTY, zipfile.ZIP_STORED)
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = saved
    assert (zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT) == saved == ((1 << 31) - 1, (1 << 16) - 1)
    return buffer.getvalue(), zf.infolist()


def build_data_descriptors():
    """Written to a non-seekable stream: every file entry has flag bit 3, zero CRC and sizes in its local header,
    and a data descriptor (with its optional signature, which zipfile always writes) after its data; the one
    written with force_zip64 has a ZIP64 data descriptor (8-byte sizes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(NonSeekable(buffer), "w") as zf:
        add(zf, "agency.txt", AGENCY, zipfile.ZIP_DEFLATED, level=9)
        add(zf, "stops.txt", STOPS, zipfile.ZIP_STORED)
        with zf.open(file_info("routes.txt", zipfile.ZIP_DEFLATED), "w", force_zip64=True) as dest:
            dest.write(ROUTES)
        add(zf, "transfers.txt", EMPTY, zipfile.ZIP_STORED)
        add(zf, "feed_info.txt", FEED_INFO, zipfile.ZIP_DEFLATED, level=9)
    return buffer.getvalue(), zf.infolist()


# A complete, plausible end-of-central-directory record (disk 0, no entries, directory at offset 0, no comment)
# inside the archive comment, more than 22 bytes before the end of the file: a reader that takes the last
# signature it finds (CPython's own `_EndRecData` does) sees an empty archive.
FAKE_END_RECORD = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0, 0, 0, 0, 0)
ARCHIVE_COMMENT = b"Switchyard interop fixture. " + FAKE_END_RECORD + b" <- not the end record; the real one precedes."


def build_comment():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.comment = ARCHIVE_COMMENT
        add(zf, "agency.txt", AGENCY, zipfile.ZIP_DEFLATED, level=9, comment=b"Operators: BVG and SBB")
        add(zf, "stops.txt", STOPS, zipfile.ZIP_STORED, comment="Görlitzer Bahnhof PK\x01\x02".encode("utf-8"))
    return buffer.getvalue(), zf.infolist()


def build_subfolder():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        add_directory(zf, "gtfs/")
        add(zf, "gtfs/agency.txt", AGENCY, zipfile.ZIP_DEFLATED, level=9)
        add(zf, "gtfs/stops.txt", STOPS, zipfile.ZIP_DEFLATED, level=9)
    return buffer.getvalue(), zf.infolist()


BUILDERS = [
    ("python-stored.zip", build_stored),
    ("python-deflated.zip", build_deflated),
    ("python-zip64.zip", build_zip64),
    ("python-data-descriptors.zip", build_data_descriptors),
    ("python-comment.zip", build_comment),
    ("python-subfolder.zip", build_subfolder),
]

CONTENTS = {
    "agency.txt": AGENCY,
    "stops.txt": STOPS,
    "routes.txt": ROUTES,
    "stop_times.txt": STOP_TIMES,
    "feed_info.txt": FEED_INFO,
    "transfers.txt": EMPTY,
    "shapes.bin": NOISE,
    "gtfs/": EMPTY,
    "gtfs/agency.txt": AGENCY,
    "gtfs/stops.txt": STOPS,
}

# MARK: - An independent parser, to check what zipfile wrote


class Parsed:
    def __init__(self, data):
        self.data = data
        self.zip64_end = None
        self.end = self._find_end()
        self.entries = self._central_directory()

    def _find_end(self):
        """The end record whose comment reaches exactly to the end of the file (the last such, searching back)."""
        data = self.data
        for index in range(len(data) - 22, max(-1, len(data) - 22 - 0xFFFF - 1), -1):
            if data[index:index + 4] == b"PK\x05\x06":
                comment_length = struct.unpack_from("<H", data, index + 20)[0]
                if index + 22 + comment_length == len(data):
                    return index
        raise AssertionError("no end-of-central-directory record")

    def _central_directory(self):
        data = self.data
        _, disk, cd_disk, count_here, count, size, offset, comment_length = struct.unpack_from(
            "<4s4H2LH", data, self.end)
        self.comment = data[self.end + 22:self.end + 22 + comment_length]
        locator = self.end - 20
        if locator >= 0 and data[locator:locator + 4] == b"PK\x06\x07":
            _, _, record, disks = struct.unpack_from("<4sLQL", data, locator)
            assert disks == 1 and data[record:record + 4] == b"PK\x06\x06", "bad ZIP64 locator"
            self.zip64_end = record
            count_here, count, size, offset = struct.unpack_from("<QQQQ", data, record + 24)
            assert record + 56 <= locator
        assert count_here == count
        entries = []
        position = offset
        for _ in range(count):
            fields = struct.unpack_from("<4s6H3L5H2L", data, position)
            assert fields[0] == b"PK\x01\x02", "bad central header signature"
            flags, method, crc = fields[3], fields[4], fields[7]
            compressed, uncompressed = fields[8], fields[9]
            name_length, extra_length, comment_length = fields[10], fields[11], fields[12]
            header_offset = fields[16]
            name = data[position + 46:position + 46 + name_length]
            extra = data[position + 46 + name_length:position + 46 + name_length + extra_length]
            entry = {
                "name": name.decode("utf-8"), "flags": flags, "method": method, "crc": crc,
                "central_zip64": b"", "local_zip64": b"",
            }
            zip64 = extra_field(extra, 1)
            if zip64 is not None:
                entry["central_zip64"] = zip64
                values = list(struct.unpack("<%dQ" % (len(zip64) // 8), zip64))
                if uncompressed == 0xFFFFFFFF:
                    uncompressed = values.pop(0)
                if compressed == 0xFFFFFFFF:
                    compressed = values.pop(0)
                if header_offset == 0xFFFFFFFF:
                    header_offset = values.pop(0)
                assert not values, "ZIP64 extra field with unmarked values"
            entry.update(compressed=compressed, uncompressed=uncompressed, offset=header_offset)
            entry["bytes"], entry["local_flags"], entry["local_zip64"], entry["descriptor"] = self._local(entry)
            entries.append(entry)
            position += 46 + name_length + extra_length + comment_length
        assert position == offset + size, "central directory size does not add up"
        return entries

    def _local(self, entry):
        data = self.data
        position = entry["offset"]
        fields = struct.unpack_from("<4s5H3L2H", data, position)
        assert fields[0] == b"PK\x03\x04", "bad local header signature"
        flags, name_length, extra_length = fields[2], fields[9], fields[10]
        extra = data[position + 30 + name_length:position + 30 + name_length + extra_length]
        start = position + 30 + name_length + extra_length
        stored = data[start:start + entry["compressed"]]
        if entry["method"] == zipfile.ZIP_STORED:
            content = stored
        else:
            inflater = zlib.decompressobj(-15)
            content = inflater.decompress(stored) + inflater.flush()
            assert inflater.eof and not inflater.unused_data, "deflate stream does not fill the compressed size"
        assert len(content) == entry["uncompressed"] and zlib.crc32(content) == entry["crc"]
        descriptor = None
        if flags & 0x08:
            after = start + entry["compressed"]
            assert data[after:after + 4] == b"PK\x07\x08", "data descriptor without signature"
            wide = extra_field(extra, 1) is not None
            crc, compressed, uncompressed = struct.unpack_from("<LQQ" if wide else "<LLL", data, after + 4)
            assert (crc, compressed, uncompressed) == (entry["crc"], entry["compressed"], entry["uncompressed"])
            descriptor = 24 if wide else 16
        return content, flags, extra_field(extra, 1) or b"", descriptor


def extra_field(extra, header_id):
    position = 0
    while position + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, position)
        if tag == header_id:
            return extra[position + 4:position + 4 + length]
        position += 4 + length
    return None


# MARK: - Checks per archive


def check(name, data, parsed):
    entries = {entry["name"]: entry for entry in parsed.entries}
    notes = []
    if name == "python-zip64.zip":
        assert data.find(struct.pack("<L", 0x06064B50)) >= 0 and parsed.zip64_end is not None
        assert entries["agency.txt"]["local_zip64"] and len(entries["agency.txt"]["central_zip64"]) == 16
        assert entries["stop_times.txt"]["local_zip64"] and len(entries["stop_times.txt"]["central_zip64"]) == 24
        assert entries["feed_info.txt"]["local_zip64"] and len(entries["feed_info.txt"]["central_zip64"]) == 8
        assert not entries["transfers.txt"]["local_zip64"] and len(entries["transfers.txt"]["central_zip64"]) == 8
        notes.append("ZIP64 end record at %d, locator at %d" % (parsed.zip64_end, parsed.end - 20))
        notes.append("ZIP64 extras (local/central bytes): " + ", ".join(
            "%s %d/%d" % (e["name"], len(e["local_zip64"]), len(e["central_zip64"])) for e in parsed.entries))
    else:
        assert parsed.zip64_end is None and data.find(b"PK\x06\x06") < 0
    if name == "python-data-descriptors.zip":
        for entry in parsed.entries:
            assert entry["flags"] & 0x08 and entry["local_flags"] & 0x08, entry["name"]
        notes.append("flag bit 3 set; descriptors (bytes): " + ", ".join(
            "%s %d" % (e["name"], e["descriptor"]) for e in parsed.entries))
    else:
        assert all(not entry["flags"] & 0x08 for entry in parsed.entries)
    if name == "python-comment.zip":
        assert parsed.comment == ARCHIVE_COMMENT
        fake = data.rfind(b"PK\x05\x06")
        assert fake > parsed.end and len(data) - fake > 22, "the fake record must lie inside the comment"
        notes.append("real end record at %d, fake one (in the comment) at %d, file %d bytes"
                     % (parsed.end, fake, len(data)))
    return notes


def zipfile_reads(data):
    """What zipfile itself makes of the archive: the names it lists and whether every entry tests good."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            bad = zf.testzip()
            names = zf.namelist()
            contents = {n: zf.read(n) for n in names}
        return names, bad, contents, None
    except Exception as error:  # noqa: BLE001 - reported, not hidden
        return None, None, None, "%s: %s" % (type(error).__name__, error)


def main():
    manifest = {"archives": []}
    for name, build in BUILDERS:
        data, infos = build()
        assert len(data) < 10 * 1024, "%s is %d bytes" % (name, len(data))
        parsed = Parsed(data)
        assert [e["name"] for e in parsed.entries] == [i.filename for i in infos]
        for entry, info in zip(parsed.entries, infos):
            expected = CONTENTS[info.filename]
            assert entry["bytes"] == expected, info.filename
            assert (entry["crc"], entry["uncompressed"], entry["compressed"], entry["offset"], entry["method"]) == (
                info.CRC, info.file_size, info.compress_size, info.header_offset, info.compress_type)
            assert zlib.crc32(expected) == info.CRC
        notes = check(name, data, parsed)

        names, bad, contents, error = zipfile_reads(data)
        if error is None and names == [i.filename for i in infos] and bad is None and all(
                contents[i.filename] == CONTENTS[i.filename] for i in infos):
            notes.append("zipfile reads it back: %d entries, testzip OK" % len(names))
        elif name == "python-comment.zip":
            # Expected: CPython looks for the last end-record signature and falls for the fake one.
            notes.append("zipfile reads it back as: %s" % (error or "%d entries %r" % (len(names), names)))
        else:
            raise AssertionError("zipfile cannot read its own %s: %s" % (name, error or names))

        with open(os.path.join(HERE, name), "wb") as output:
            output.write(data)
        print("%-28s %5d bytes, %d entries" % (name, len(data), len(infos)))
        for note in notes:
            print("    " + note)

        manifest["archives"].append({
            "name": name,
            "entries": [
                {
                    "path": info.filename,
                    "isDirectory": info.is_dir(),
                    "size": info.file_size,
                    "compressedSize": info.compress_size,
                    "crc32": info.CRC,
                    "method": info.compress_type,
                    "localHeaderOffset": info.header_offset,
                    "dataDescriptor": bool(info.flag_bits & 0x08),
                    "contentBase64": base64.b64encode(CONTENTS[info.filename]).decode("ascii"),
                }
                for info in infos
            ],
        })

    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8", newline="\n") as output:
        json.dump(manifest, output, indent=2)
        output.write("\n")
    print("expected.json written (Python %s, zlib %s)" % (sys.version.split()[0], zlib.ZLIB_RUNTIME_VERSION))


if __name__ == "__main__":
    main()
