"""The files the import stage brings in: the hand-made fixtures (fixtures/, in each format's real
layout), Letterboxd's export ZIP made from them, a made-up list of N movies, and hostile files."""
import os
import pathlib
import struct
import zipfile

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
LETTERBOXD_HEADER = "Date,Name,Year,Letterboxd URI\n"


def letterboxd_zip(path):
    """Letterboxd's export as it downloads: the CSVs at the top of a ZIP (profile and reviews too,
    which import leaves alone)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for csv in sorted((FIXTURES / "letterboxd").iterdir()):
            archive.write(csv, csv.name)
    return path


def made_up_watchlist(path, count, first=1):
    """A Letterboxd watchlist.csv of `count` movies the fake TMDB makes up (`synthetic`): "Movie N"
    of 2000, found by a search for its title."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(LETTERBOXD_HEADER)
        for n in range(first, first + count):
            f.write(f"2024-01-01,Movie {n},2000,https://boxd.it/{n:x}\n")
    return path


def huge(path, megabytes=200):
    """A file of `megabytes` MB (sparse: nothing to write)."""
    with open(path, "wb") as f:
        f.truncate(megabytes << 20)
    return path


def zip_bomb(path, lying=False, megabytes=64):
    """watchlist.csv of a header and `megabytes` MiB of one repeated row, deflated to a few hundred
    KB. `lying`: both headers say the entry is 1,000 bytes, so only counting while inflating stops it."""
    row = b"2024-01-01,Movie 1,2000,https://boxd.it/1\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("watchlist.csv", "w", force_zip64=False) as entry:
            entry.write(LETTERBOXD_HEADER.encode())
            chunk = row * (1 << 14)
            for _ in range((megabytes << 20) // len(chunk)):
                entry.write(chunk)
    if lying:
        data = bytearray(pathlib.Path(path).read_bytes())
        local = data.find(b"PK\x03\x04")
        struct.pack_into("<I", data, local + 22, 1000)  # the local header's uncompressed size
        central = data.find(b"PK\x01\x02")
        struct.pack_into("<I", data, central + 24, 1000)  # the central directory's
        pathlib.Path(path).write_bytes(bytes(data))
    return path


def broken_quoting(path):
    path.write_text(LETTERBOXD_HEADER + '2024-01-02,The Matrix,1999,https://boxd.it/2bZ4\n'
                    '2024-01-03,"Crouching Tiger, Hidden Dragon,2000,https://boxd.it/29DO\n'
                    '2024-01-04,Inception,2010,https://boxd.it/1skk\n', encoding="utf-8")
    return path


def latin1(path):
    """A watchlist saved as Latin-1: "Amélie" on line 3 is not UTF-8."""
    path.write_bytes((LETTERBOXD_HEADER + "2024-01-02,The Matrix,1999,https://boxd.it/2bZ4\n"
                      "2024-01-03,Amélie,2001,https://boxd.it/1E4A\n").encode("latin-1"))
    return path


def unknown(path):
    path.write_text("Film,Seen,Score\nThe Matrix,yes,5\n", encoding="utf-8")
    return path


def size(path):
    return os.path.getsize(path)
