"""Rebuild the summary of the Anime catalog: ``python verify/data/anime/rebuild.py anime.csv``.

``anime.csv`` (Kaggle, CooperUnion's "Anime Recommendations Database") holds one anime per row, with the columns
``anime_id,name,genre,type,episodes,rating,members`` and the genres joined by ``", "``. The summary keeps what the
audit needs and nothing else (``SOURCE.md``): no names, ratings or counts of members, only

* ``items``: the number of anime in the catalog;
* ``genres``: the genre names, sorted;
* ``item_ids`` and ``item_genres``: each anime's id, in the file's order, and its genres as a bit mask over
  ``genres`` (bit ``j`` set when the anime has ``genres[j]``; 0 for an anime without a genre), so that the number of
  anime of any union of genres (Cao et al.'s sensitive items, chosen by category) can be counted.

The ratings (``rating.csv``, each user's set of rated anime) could not be obtained; the summary says so under
``missing``. The script checks the original's SHA-256 first (``--unchecked`` skips the check, for a file the project
has not seen: the summary it writes is then not the one ``SOURCE.md`` describes). The output is deterministic.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

from ldpspec.verify.data import rebuild_command

NAME = "anime"
SHA256 = "2342ef3b42135e5878a3cbfa7a83c6306e7ccfacbcf165c314467bd56c99d64b"
"""The SHA-256 of the copy of ``anime.csv`` the summary was built from (``SOURCE.md``)."""

COLUMNS = ["anime_id", "name", "genre", "type", "episodes", "rating", "members"]
MISSING = {"rating.csv": "not obtained: no public copy of the whole file could be had (SOURCE.md)"}


def summarise(lines: Iterable[str]) -> dict:
    """The summary of ``anime.csv`` given as its lines of text (a header, then one anime per row)."""
    rows = csv.reader(lines)
    header = next(rows, None)
    if header != COLUMNS:
        raise ValueError(f"the header must be {','.join(COLUMNS)}, got {header!r}")
    anime = []
    for number, row in enumerate(rows, start=2):
        if not row:
            continue
        if len(row) != len(COLUMNS):
            raise ValueError(f"row {number}: expected {len(COLUMNS)} fields, got {len(row)}")
        try:
            identifier = int(row[0])
        except ValueError:
            raise ValueError(f"row {number}: the anime id must be an integer, got {row[0]!r}") from None
        anime.append((identifier, [genre.strip() for genre in row[2].split(",") if genre.strip()]))
    if not anime:
        raise ValueError("the original holds no anime")
    ids = [identifier for identifier, _ in anime]
    if len(set(ids)) != len(ids):
        raise ValueError("an anime id occurs twice")
    names = sorted({genre for _, genres in anime for genre in genres})
    bit = {genre: 1 << j for j, genre in enumerate(names)}
    return {"data_set": NAME, "items": len(anime), "genres": names, "item_ids": ids,
            "item_genres": [sum(bit[genre] for genre in set(genres)) for _, genres in anime], "missing": MISSING}


def build(path) -> dict:
    with open(path, encoding="utf-8", newline="") as file:
        return summarise(file)


main = rebuild_command(NAME, SHA256, build, __doc__, "the Anime Recommendations Database's anime.csv")


if __name__ == "__main__":
    main()
