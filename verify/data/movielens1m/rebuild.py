"""Rebuild the summary of MovieLens 1M's catalog: ``python verify/data/movielens1m/rebuild.py movies.dat``.

``movies.dat`` (GroupLens, MovieLens 1M) holds one movie per line, ``MovieID::Title::Genres`` with the genres joined by
``|``, in Latin-1. The summary keeps what the audit needs and nothing else (``SOURCE.md``): no titles, only

* ``items``: the number of movies (Table 4's d of the Movie data set, when the catalog is the domain);
* ``genres``: the genre names, sorted;
* ``item_ids`` and ``item_genres``: each movie's id, in the file's order, and its genres as a bit mask over
  ``genres`` (bit ``j`` set when the movie has ``genres[j]``), so that the number of movies of any union of genres
  (Cao et al.'s sensitive items, chosen by category) can be counted.

The ratings (``ratings.dat``, each user's set of rated movies) could not be obtained; the summary says so under
``missing``. The script checks the original's SHA-256 first (``--unchecked`` skips the check, for a file the project
has not seen: the summary it writes is then not the one ``SOURCE.md`` describes). The output is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable

from ldpspec.verify.data import rebuild_command

NAME = "movielens1m"
SHA256 = "0140fc2356357c1a851d0f52e893a1e4d3696df632c4141cea8d5bc3d621f0b9"
"""The SHA-256 of the copy of ``movies.dat`` the summary was built from (``SOURCE.md``)."""

MISSING = {"ratings.dat": "not obtained: no public copy of the whole file could be had (SOURCE.md)"}


def summarise(lines: Iterable[bytes | str]) -> dict:
    """The summary of ``movies.dat`` given as its lines (bytes are read as Latin-1, the file's encoding)."""
    movies = []
    for number, line in enumerate(lines, start=1):
        text = line.decode("latin-1") if isinstance(line, bytes) else line
        text = text.rstrip("\r\n")
        if not text:
            continue
        fields = text.split("::")
        if len(fields) != 3:
            raise ValueError(f"line {number}: expected MovieID::Title::Genres, got {text!r}")
        try:
            movie = int(fields[0])
        except ValueError:
            raise ValueError(f"line {number}: the movie id must be an integer, got {fields[0]!r}") from None
        genres = [genre for genre in fields[2].split("|") if genre]
        movies.append((movie, genres))
    if not movies:
        raise ValueError("the original holds no movie")
    ids = [movie for movie, _ in movies]
    if len(set(ids)) != len(ids):
        raise ValueError("a movie id occurs twice")
    names = sorted({genre for _, genres in movies for genre in genres})
    bit = {genre: 1 << j for j, genre in enumerate(names)}
    return {"data_set": NAME, "items": len(movies), "genres": names, "item_ids": ids,
            "item_genres": [sum(bit[genre] for genre in set(genres)) for _, genres in movies], "missing": MISSING}


def build(path) -> dict:
    with open(path, "rb") as file:
        return summarise(file)


main = rebuild_command(NAME, SHA256, build, __doc__, "MovieLens 1M's movies.dat")


if __name__ == "__main__":
    main()
