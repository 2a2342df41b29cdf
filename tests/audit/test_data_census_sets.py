"""The vendored summaries of the real data Hao et al. 2023 and Cao et al. 2022 use, as far as they could be obtained
(``verify/data/{movielens1m,anime,us_census2010_ages}``): their totals against the sizes stated for the originals,
each ``rebuild.py``'s summarising function on small originals written here, and the audit's use of them."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import numpy as np
import pytest

from ldpspec.verify import data

HERE = Path(data.__file__).parent


def rebuild(name: str):
    """The ``rebuild.py`` of data set ``name``, as a module."""
    spec = importlib.util.spec_from_file_location(f"rebuild_{name}", HERE / name / "rebuild.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the vendored summaries against the sizes stated for the originals ----------------------------------------------


def test_movielens_catalog_has_table_4s_domain():
    """Cao et al.'s Table 4 gives the Movie data set d = 3883: the number of movies in MovieLens 1M's movies.dat."""
    document = data.summary("movielens1m")
    assert document["items"] == 3883 == len(document["item_ids"]) == len(document["item_genres"])
    assert len(set(document["item_ids"])) == 3883
    assert len(document["genres"]) == 18  # MovieLens 1M's README lists 18 genres
    assert all(0 < mask < 1 << 18 for mask in document["item_genres"])  # every movie has a genre
    assert "ratings.dat" in document["missing"]


def test_anime_catalog_has_the_kaggle_data_sets_size():
    """The Anime Recommendations Database lists 12,294 anime; Table 4 prints d = 12994 (cao2022.table4 keeps that
    undecided: the users' sets could hold anime outside the catalog)."""
    document = data.summary("anime")
    assert document["items"] == 12294 == len(document["item_ids"]) == len(set(document["item_ids"]))
    assert {"Hentai", "Ecchi", "Thriller", "Horror"} <= set(document["genres"])
    assert all(0 <= mask < 1 << len(document["genres"]) for mask in document["item_genres"])
    assert "rating.csv" in document["missing"]


def test_census_ages_add_up_to_the_2010_census_population():
    """The 2010 census counted 308,745,538 residents; the ages are 0 .. 100 (100 and over)."""
    document = data.summary("us_census2010_ages")
    assert document["ages"] == list(range(101))
    assert sum(document["counts"]) == document["total"] == 308_745_538
    assert min(document["counts"]) > 0


# --- each summarising function on small originals ---------------------------------------------------------------


def test_movielens_summary_of_a_small_original():
    lines = [b"1::Toy Story (1995)::Animation|Children's|Comedy\n", b"7::Se7en (1995)::Crime|Thriller\r\n",
             "3::Noir (1950)::Film-Noir|Thriller\n".encode("latin-1"), b"\n"]
    document = rebuild("movielens1m").summarise(lines)
    assert document["items"] == 3
    assert document["genres"] == ["Animation", "Children's", "Comedy", "Crime", "Film-Noir", "Thriller"]
    assert document["item_ids"] == [1, 7, 3]
    assert document["item_genres"] == [0b000111, 0b101000, 0b110000]


@pytest.mark.parametrize("lines", [[b"1::Title\n"], [b"x::Title::Drama\n"], [b"1::A::Drama\n", b"1::B::Comedy\n"], []])
def test_movielens_summary_refuses_a_malformed_original(lines):
    with pytest.raises(ValueError):
        rebuild("movielens1m").summarise(lines)


def test_anime_summary_of_a_small_original():
    text = ("anime_id,name,genre,type,episodes,rating,members\n"
            '5,"A, the anime","Horror, Hentai",OVA,2,6.1,100\n'
            "9,B,,TV,12,,40\n"
            '2,C,"Thriller",Movie,1,7.0,3\n')
    document = rebuild("anime").summarise(io.StringIO(text, newline=""))
    assert document["items"] == 3
    assert document["genres"] == ["Hentai", "Horror", "Thriller"]
    assert document["item_ids"] == [5, 9, 2]
    assert document["item_genres"] == [0b011, 0, 0b100]


@pytest.mark.parametrize("text", ["id,name\n1,A\n", "anime_id,name,genre,type,episodes,rating,members\n1,A,Drama\n",
                                  "anime_id,name,genre,type,episodes,rating,members\n"])
def test_anime_summary_refuses_a_malformed_original(text):
    with pytest.raises(ValueError):
        rebuild("anime").summarise(io.StringIO(text, newline=""))


def _census(rows: list[tuple], total: int) -> io.StringIO:
    lines = ["SEX,AGE,CENSUS2010POP,POPESTIMATE2010"]
    lines += [f"{sex},{age},{count},{count + 1}" for sex, age, count in rows]
    lines += [f"0,999,{total},0"]
    return io.StringIO("\n".join(lines) + "\n", newline="")


def test_census_summary_of_a_small_original():
    rows = [(0, age, 10 + age) for age in range(101)] + [(1, 3, 7), (2, 3, 9)]
    document = rebuild("us_census2010_ages").summarise(_census(rows, sum(10 + age for age in range(101))))
    assert document["counts"] == [10 + age for age in range(101)]
    assert document["total"] == sum(document["counts"])


@pytest.mark.parametrize(("rows", "total"), [
    ([(0, age, 1) for age in range(100)], 100),  # age 100 missing
    ([(0, age, 1) for age in range(101)], 100),  # the counts do not add up to the total
    ([(0, age, 1) for age in range(101)] + [(0, 5, 1)], 102),  # an age twice
    ([(0, age, -1 if age == 7 else 1) for age in range(101)], 99),  # a negative count
])
def test_census_summary_refuses_a_malformed_original(rows, total):
    with pytest.raises(ValueError):
        rebuild("us_census2010_ages").summarise(_census(rows, total))


@pytest.mark.parametrize("name", ["movielens1m", "anime", "us_census2010_ages"])
def test_rebuild_refuses_an_original_with_another_sha256(name, tmp_path):
    """The script checks the original's SHA-256 before it writes anything."""
    original = tmp_path / "original"
    original.write_bytes(b"not the original\n")
    before = (HERE / name / "summary.json.gz").read_bytes()
    with pytest.raises(SystemExit, match="SHA-256"):
        rebuild(name).main([str(original)])
    assert (HERE / name / "summary.json.gz").read_bytes() == before


# --- the audit's use of the summaries --------------------------------------------------------------------------------


def test_the_census_stand_in_spreads_its_users_in_proportion_to_the_counts():
    from ldpspec.verify.hiera2023 import experiments as ex

    counts = ex.data_set("census-2010")
    census = np.array(data.summary("us_census2010_ages")["counts"], dtype=float)
    assert counts.sum() == ex.CENSUS_USERS == 1_520_000
    assert not counts[1::2].any()  # age a sits at grid point 2a: -1 + a / 50
    assert ex.GRID[2 * 30] == "-0.40" and ex.GRID[200] == "1.00"
    assert np.abs(counts[::2] - census / census.sum() * ex.CENSUS_USERS).max() < 1


def test_catalog_counts_count_items_of_any_of_the_genres(monkeypatch):
    from ldpspec.verify.cao2022 import experiments as ex

    catalog = {"items": 5, "genres": ["Drama", "Hentai", "Horror", "Thriller"],
               "item_ids": [1, 2, 3, 4, 5], "item_genres": [0b0001, 0b0110, 0b1000, 0, 0b0011]}
    monkeypatch.setattr(ex, "summary", lambda name: catalog)
    assert ex.catalog_count("Anime", ("Hentai",)) == 2
    assert ex.catalog_count("Anime", ("Hentai", "Thriller", "Horror")) == 3
    assert ex.catalog_count("Anime", ("Drama",)) == 2


def test_the_figures_are_also_checked_on_the_catalogs_sizes():
    """Movie's and Anime's catalog sizes keep Table 4's n and m and take d and |X_sen| from the catalogs."""
    from ldpspec.verify.cao2022 import experiments as ex
    from ldpspec.verify.claims import complete_reading, reading_context

    def checked_sizes(adult):  # as a check of the paper reads them, under the reading adult_genres=adult
        with reading_context("cao2022", complete_reading("cao2022", {"adult_genres": adult})):
            return ex.checked_sizes()

    for adult in ("hentai", "hentai+ecchi"):
        sizes = checked_sizes(adult)
        assert set(ex.DATASETS) < set(sizes)
        for dataset in ("Movie", "Anime"):
            n, d, k, m = sizes[f"{dataset} (catalog)"]
            assert (n, m) == (ex.DATASETS[dataset][0], ex.DATASETS[dataset][3])
            assert d == data.summary(ex.CATALOGS[dataset])["items"] and 0 < k < d
    assert checked_sizes("hentai")["Anime (catalog)"][2] < checked_sizes("hentai+ecchi")["Anime (catalog)"][2]
