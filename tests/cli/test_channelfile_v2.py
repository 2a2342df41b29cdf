"""Channel files of version 2 (continuous outputs): Wheel and suWheel written with their breakpoints and read back
into the same channel with the same verdicts, a hand-checkable file, refusals of malformed files, version 1
unchanged, and ``ldpspec channel/profile/check`` on every mechanism of Cao et al."""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.reference import channelfile
from ldpspec.reference.cao2022.wheel import SuWheel, Wheel
from ldpspec.reference.channelfile import FORMAT, FORMAT_CONTINUOUS, has_densities
from ldpspec.reference.registry import MECHANISMS, NOTIONS
from ldpspec.reference.tools.cli import main
from ldpspec.spec.continuous import Density, PiecewiseChannel
from ldpspec.spec.loss import loss_profile
from ldpspec.spec.nats import Nats
from tests.support import DOCS, EXAMPLES


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def as_json(data):
    """What the command line prints of ``data`` (tuples become lists)."""
    return json.loads(json.dumps(data))


def same_explicit(first, second) -> None:
    first, second = first.explicit(), second.explicit()
    assert first.inputs == second.inputs
    assert first.outputs == second.outputs
    assert first.rows == second.rows  # every entry exactly


# --- round trips of Wheel and suWheel --------------------------------------------------------------------------

OVERLAPPING = ["0", "1/10", "9/10", "1/2"]  # arcs that overlap and wrap around 1

MECHANISMS_WITH_DENSITIES = {
    "wheel-1-3-2": lambda: Wheel(1, 3, 2),
    "wheel-log2-4-2": lambda: Wheel("log(2)", 4, 2),
    "wheel-overlapping": lambda: Wheel("1/2", 4, 2, OVERLAPPING),
    "suwheel-1-3-2": lambda: SuWheel(1, 3, [0], 2),
    "suwheel-log3-4-3": lambda: SuWheel("log(3)", 4, [1], 3),
    "suwheel-overlapping": lambda: SuWheel(1, 4, [0, 3], 2, OVERLAPPING),
}


def notions_of(mechanism) -> list[tuple[str, dict]]:
    """The notions to compare on the file and in memory, with their parameters (keyed by keyword): the claimed one,
    every reading of SULDP with suWheel's parameters, and ULDP with every input sensitive and every output protected
    (which is LDP of the cells, so that it applies to Wheel's and suWheel's outputs)."""
    guarantee = mechanism.guarantee()
    channel = mechanism.channel()
    result = [(guarantee.notion, dict(guarantee.parameters))]
    if guarantee.notion in spec.SULDP_READINGS:
        result += [(name, dict(guarantee.parameters)) for name in spec.SULDP_READINGS if name != guarantee.notion]
    result.append(("uldp", {"sensitive_inputs": list(channel.inputs),
                            "protected_outputs": list(channel.explicit().outputs),
                            "epsilon": mechanism.epsilon}))
    return result


@pytest.mark.parametrize("name", list(MECHANISMS_WITH_DENSITIES))
def test_wheel_and_suwheel_round_trip_with_their_breakpoints(name):
    mechanism = MECHANISMS_WITH_DENSITIES[name]()
    channel = mechanism.channel()
    text = channelfile.channel_file_text(channel, privacy=mechanism.guarantee().privacy_section())
    assert json.loads(text)["format"] == FORMAT_CONTINUOUS
    stored = channelfile.parse_channel_file(text)
    assert stored.channel.has_densities
    # The same densities, breakpoint by breakpoint, and so the same cells and masses.
    assert stored.channel.inputs == channel.inputs
    assert list(stored.channel.kinds.items()) == list(channel.kinds.items())
    for x in channel.inputs:
        assert stored.channel.components[x].keys() == channel.components[x].keys()
        for label, part in channel.components[x].items():
            assert stored.channel.components[x][label].breakpoints == part.breakpoints
            assert stored.channel.components[x][label].values == part.values
    same_explicit(stored.channel, channel)
    # Written again, the file is the same text.
    assert channelfile.channel_file_text(stored.channel, privacy=stored.privacy) == text
    # The same verdicts, with the parameters read from the file where it holds them.
    for notion, parameters in notions_of(mechanism):
        from_file = dict(parameters)
        if notion != "uldp":  # the file holds the parameters of the notion claimed (SULDP's for suWheel)
            from_file.update({p.keyword: stored.privacy[p.file_key] for p in NOTIONS[notion].parameters
                              if p.file_key in stored.privacy})
        in_memory = NOTIONS[notion].check(channel, parameters).to_json()
        assert NOTIONS[notion].check(stored.channel, from_file).to_json() == in_memory, notion


@pytest.mark.parametrize("name, options", [
    ("wheel", ["--epsilon", "1", "--d", "3", "--m", "2"]),
    ("wheel", ["--epsilon", "log(2)", "--d", "4", "--m", "2", "--hash-values", json.dumps(OVERLAPPING)]),
    ("suwheel", ["--epsilon", "1", "--d", "3", "--sensitive", "[0]", "--m", "2"]),
    ("suwheel", ["--epsilon", "1/2", "--d", "4", "--sensitive", "[0, 3]", "--m", "2",
                 "--hash-values", json.dumps(OVERLAPPING)]),
])
def test_the_command_line_writes_version_2_and_checks_it_as_in_memory(tmp_path, capsys, name, options):
    path = tmp_path / f"{name}.json"
    status, _, err = run(capsys, "channel", name, *options, "--output", path)
    assert status == 0, err
    assert json.loads(path.read_text())["format"] == FORMAT_CONTINUOUS
    declaration = MECHANISMS[name]
    mechanism = declaration.from_options(dict(zip([o[2:] for o in options[::2]], options[1::2])))
    channel = mechanism.channel()
    same_explicit(channelfile.read_channel_file(path).channel, channel)
    for notion, parameters in notions_of(mechanism):
        argv = ["check", path, "--notion", notion, "--full"]
        if notion == "uldp":  # not in the file: given on the command line
            argv += ["--sensitive", json.dumps([list(x) for x in parameters["sensitive_inputs"]]),
                     "--protected", json.dumps([[y0, list(r)] for y0, r in parameters["protected_outputs"]]),
                     "--epsilon", options[1]]
        status, out, err = run(capsys, *argv)
        verdict = NOTIONS[notion].check(channel, parameters)
        assert status == (0 if verdict.holds else 1), err
        assert json.loads(out) == as_json(verdict.to_json()), notion
    status, out, err = run(capsys, "profile", path, "--full")
    assert status == 0, err
    assert json.loads(out) == as_json(loss_profile(channel.explicit()))


def test_suwheel_fails_the_joint_reading_from_its_file(tmp_path, capsys):
    """suWheel holds SULDP under the marginal reading only (page "suWheel"): its file says the same. The marginal
    bound is tight: by eq. (8) the density of ``y0`` is ``e^eps / Omega`` on the arcs of the user's items and
    ``1 / Omega`` elsewhere (the arcs do not overlap under the default hash), a ratio of exactly ``e^eps``."""
    path = tmp_path / "suwheel.json"
    assert run(capsys, "channel", "suwheel", "--epsilon", "1", "--d", "3", "--sensitive", "[0]", "--m", "2",
               "--output", path)[0] == 0
    assert run(capsys, "check", path, "--notion", "suldp-marginal")[0] == 0
    assert run(capsys, "check", path, "--notion", "suldp-joint")[0] == 1
    assert run(capsys, "check", path, "--notion", "suldp-marginal", "--epsilon", "0.99")[0] == 1


# --- hand-checkable files ------------------------------------------------------------------------------------

def documented_examples() -> list[str]:
    """The complete version 2 files of the page "Channel file format": constant pieces, then exponential ones."""
    page = (DOCS / "channel-format.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"^```json\n(.*?)^```", page, re.MULTILINE | re.DOTALL)
              if FORMAT_CONTINUOUS in block]
    assert len(blocks) == 2
    return blocks


def documented_example() -> str:
    return documented_examples()[0]


def test_the_documented_laplace_file_is_exactly_one_ldp(tmp_path, capsys):
    """Inputs -1 and 1, Laplace at eps = 1: the supremum of the ratio is e^{|1 - (-1)|/2} = e, beyond both inputs."""
    stored = channelfile.parse_channel_file(documented_examples()[1])
    assert spec.ldp_epsilon(stored.channel) == Nats.rational(1)
    path = tmp_path / "laplace.json"
    path.write_text(documented_examples()[1])
    assert run(capsys, "check", path, "--notion", "ldp")[0] == 0  # a tie with the file's epsilon = 1
    assert run(capsys, "check", path, "--notion", "ldp", "--epsilon", "0.999")[0] == 1
    status, out, _ = run(capsys, "profile", path)
    profile = json.loads(out)
    assert status == 0 and profile["ldp_epsilon_exact"] == "1" and "output_loss" not in profile
    assert [entry["output"] for entry in profile["pairwise_loss"]] == ["(-inf, -1)", "[1, inf)"]


def test_the_documented_example_reads_as_computed_by_hand(tmp_path, capsys):
    stored = channelfile.parse_channel_file(documented_example())
    explicit = stored.channel.explicit()
    assert explicit.outputs == ("none", "[-1, 0)", "[0, 1)")
    # a: the atom 1/4, then 1/2 x 1 and 1/4 x 1 on the two cells of length 1; b mirrored.
    quarter, half = Fraction(1, 4), Fraction(1, 2)
    assert explicit.rows == ((quarter, half, quarter), (quarter, quarter, half))
    assert spec.ldp_epsilon(stored.channel) == Nats.log(2)
    path = tmp_path / "example.json"
    path.write_text(documented_example())
    assert run(capsys, "check", path, "--notion", "ldp")[0] == 0  # epsilon = log(2) from the file: a tie
    assert run(capsys, "check", path, "--notion", "ldp", "--epsilon", "0.69")[0] == 1
    status, out, _ = run(capsys, "profile", path)
    assert status == 0 and json.loads(out)["ldp_epsilon"].startswith("0.693147180559945309417232121458")


def test_labels_and_cells_make_the_outputs_in_either_order():
    """Two inputs releasing a point of [0, 1) and a label; the cells are those of the union of the breakpoints."""
    document = {
        "format": FORMAT_CONTINUOUS, "inputs": [["a"], ["b"]], "cell_outputs": "cell-label",
        "densities": [
            {"input": ["a"], "label": ["a"], "kind": "constant", "breakpoints": ["0", "1/2"], "values": ["1"]},
            {"input": ["a"], "label": [], "kind": "constant", "breakpoints": ["0", "1"], "values": ["1/2"]},
            {"input": ["b"], "label": [], "kind": "constant", "breakpoints": ["0", "1/4", "1"],
             "values": ["2", "2/3"]},
        ]}
    channel = channelfile.parse_channel_file(json.dumps(document)).channel.explicit()
    # Label [a]: the cell [0, 1/2); label []: the cells of 0, 1/4 and 1.
    assert channel.outputs == (("[0, 0.5)", ("a",)), ("[0, 0.25)", ()), ("[0.25, 1)", ()))
    assert channel.row(("a",)) == (Fraction(1, 2), Fraction(1, 8), Fraction(3, 8))
    assert channel.row(("b",)) == (0, Fraction(1, 2), Fraction(1, 2))
    document["cell_outputs"] = "label-cell"
    channel = channelfile.parse_channel_file(json.dumps(document)).channel.explicit()
    assert channel.outputs == ((("a",), "[0, 0.5)"), ((), "[0, 0.25)"), ((), "[0.25, 1)"))


def test_the_order_of_atoms_and_densities_is_kept():
    """A channel listing a density before an atom is written with ``component_order`` and read in that order."""
    channel = PiecewiseChannel(["a", "b"], {"a": {None: Density([0, 1], ["1/2"]), "none": "1/2"},
                                            "b": {None: Density([0, "1/2", 1], [1, 0]), "none": "1/2"}})
    assert channel.explicit().outputs == ("[0, 0.5)", "[0.5, 1)", "none")
    document = json.loads(channelfile.channel_file_text(channel))
    assert document["component_order"] == [None, "none"]
    same_explicit(channelfile.parse_channel_file(json.dumps(document)).channel, channel)
    del document["component_order"]  # by default, the atoms come first
    assert channelfile.parse_channel_file(json.dumps(document)).channel.explicit().outputs == (
        "none", "[0, 0.5)", "[0.5, 1)")


def test_a_channel_without_densities_is_written_in_version_1():
    atoms = PiecewiseChannel(["a", "b"], {"a": {"y": "1/3", "z": "2/3"}, "b": {"y": "2/3", "z": "1/3"}})
    document = json.loads(channelfile.channel_file_text(atoms))
    assert document["format"] == FORMAT and "densities" not in document
    stored = channelfile.parse_channel_file(json.dumps(document))
    assert stored.channel.explicit() is stored.channel  # read as a matrix
    same_explicit(stored.channel, atoms)


def test_a_piecewise_channel_with_other_output_names_is_not_written():
    channel = PiecewiseChannel(["a", "b"], {"a": {"R": Density.uniform(0, 1)}, "b": {"R": Density.uniform(0, 1)}},
                               output_label=lambda label, cell: f"{label}:{cell}")
    with pytest.raises(spec.InvalidChannel, match=r"names its outputs otherwise: write its explicit\(\) channel"):
        channelfile.channel_file_text(channel)


# --- version 1 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["grr3.json", "urr.json", "minid3.json"])
def test_files_of_version_1_read_as_before(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    stored = channelfile.parse_channel_file(text)
    assert stored.channel.explicit() is stored.channel  # read as a matrix
    document = json.loads(text)
    assert [list(y) if isinstance(y, tuple) else y for y in stored.channel.outputs] == document["outputs"]
    rewritten = json.loads(channelfile.channel_file_text(stored.channel, privacy=stored.privacy))
    assert rewritten["format"] == FORMAT
    assert channelfile.parse_channel_file(json.dumps(rewritten)).channel.rows == stored.channel.rows
    document.pop("format", None)  # the format is optional in version 1
    assert channelfile.parse_channel_file(json.dumps(document)).channel.rows == stored.channel.rows


# --- malformed files of version 2 ------------------------------------------------------------------------------

def _set(path, value):
    def corrupt(document):
        *parents, key = path
        node = document
        for part in parents:
            node = node[part]
        node[key] = value
    return corrupt


def _delete(path):
    def corrupt(document):
        *parents, key = path
        node = document
        for part in parents:
            node = node[part]
        del node[key]
    return corrupt


def _append_density(entry):
    return lambda document: document["densities"].append(entry)


A_BREAKPOINTS = ("densities", 0, "breakpoints")
A_VALUES = ("densities", 0, "values")


@pytest.mark.parametrize("corrupt, message", [
    (_set(A_BREAKPOINTS, ["-1", "1", "0"]),
     r"densities\[0\]\.breakpoints must increase strictly: breakpoints\[2\] = 0 does not exceed breakpoints\[1\] = 1"),
    (_set(A_BREAKPOINTS, ["-1", "0", "0"]), r"densities\[0\]\.breakpoints must increase strictly"),
    (_set(A_BREAKPOINTS, ["-1", "0/1", "0.0"]), r"densities\[0\]\.breakpoints must increase strictly"),
    (_set(A_VALUES, ["5/4", "-1/4"]), r"densities\[0\]\.values\[1\] must be a density >= 0, got -0\.25"),
    (_set(A_VALUES, ["1/2", "1/2"]),
     r'input "a" must have total mass exactly 1 \(its atoms in probabilities\[0\] and its densities\), got 1\.25'),
    (_set(A_VALUES, ["1/2", "0"]), r'input "a" must have total mass exactly 1 .*got 0\.75'),
    (_set(("probabilities",), [["1/2"], ["1/4"]]), r'input "a" must have total mass exactly 1'),
    (_set(("probabilities",), [["-1/4"], ["1/4"]]), r'probabilities\[0\]\[0\] \(atom "none" of input "a"\) must be a '
                                                     r"probability in \[0, 1\], got -0\.25"),
    (_set(("densities", 1, "kind"), "gaussian"),
     r"densities\[1\]\.kind must be one of \['constant', 'exponential'\], got \"gaussian\""),
    (_set(("densities", 1, "kind"), "exponential"), r'densities\[1\] \(kind "exponential"\) must have exactly the '
                                                    r"keys .*; missing \['rates'\]"),
    (_delete(("densities", 1, "kind")),
     r"densities\[1\]\.kind must be one of \['constant', 'exponential'\], got null"),
    (_set(A_VALUES, ["1"]),
     r"densities\[0\] needs n \+ 1 >= 2 breakpoints and n values; got 3 breakpoints and 1 values"),
    (_set(A_BREAKPOINTS, ["0"]), r"densities\[0\] needs n \+ 1 >= 2 breakpoints and n values; got 1 breakpoints"),
    (_set(A_BREAKPOINTS, "0, 1"), r"densities\[0\]: 'breakpoints' and 'values' must be lists"),
    (_set(("probabilities",), [["1/4", "0"], ["1/4"]]), r"probabilities\[0\] must have one entry per atom"),
    (_set(("probabilities",), [["1/4"]]), r"'probabilities' must have one row per input: 2 inputs, 1 rows"),
    (_delete(("probabilities",)), r"'outputs' and 'probabilities' \(the atoms\) go together"),
    (_set(("outputs",), ["none", "none"]), r'output labels must be unique; "none" appears twice'),
    (_set(("densities", 0, "input"), "c"), r'densities\[0\]\.input "c" is not one of the inputs'),
    (_set(("densities", 0, "label"), "none"), r'densities\[0\]\.label "none" is also an atom'),
    (_set(("densities", 0, "rate"), "1"), r'densities\[0\] \(kind "constant"\) must have exactly the keys .*unknown '
                                          r"\['rate'\]"),
    (_delete(A_VALUES), r'densities\[0\] \(kind "constant"\) must have exactly the keys .*missing \[\'values\'\]'),
    (_append_density({"input": "a", "label": None, "kind": "constant", "breakpoints": ["2", "3"], "values": ["0"]}),
     r'densities\[2\] repeats the density of input "a" with label null \(densities\[0\]\)'),
    (_set(("densities", 0), ["a", None]), r"densities\[0\] must be an object"),
    (_set(("densities",), {"a": []}), r"'densities' must be a list"),
    (_delete(("densities",)), r"'densities' is missing"),
    (_set(A_BREAKPOINTS, ["-1", "x", "1"]), r"densities\[0\]\.breakpoints\[1\]"),
    (_set(A_BREAKPOINTS, ["-1", "inf", "1"]), r"densities\[0\]\.breakpoints\[1\]"),
    (_set(A_BREAKPOINTS, ["-1", None, "1"]), r"densities\[0\]\.breakpoints\[1\] must be a number"),
    (_set(A_VALUES, ["1/2", True]), r"densities\[0\]\.values\[1\] must be a number"),
    (_set(("cell_outputs",), "label"), r"'cell_outputs' must be one of \['cell-label', 'label-cell'\], got \"label\""),
    (_set(("component_order",), ["none"]), r"'component_order' must name every label of 'outputs' and 'densities' "
                                           r"once"),
    (_set(("outputs",), ["[-1, 0)"]), r'output labels must be unique; "\[-1, 0\)" appears twice'),
    (_set(("format",), "ldpspec-channel/9"), r'format must be one of "ldpspec-channel/1", "ldpspec-channel/2", '
                                             r'"ldpspec-channel/3"'),
    (_set(("format",), "ldpspec-channel/1"), r"has keys \['cell_outputs', 'densities'\] of format "
                                             r'"ldpspec-channel/2"'),
    (_delete(("format",)), r'of format "ldpspec-channel/2"'),
    (_set(("inputs",), ["a", "a"]), r"input labels must be unique"),
])
def test_malformed_version_2_files_are_refused_naming_the_place(tmp_path, capsys, corrupt, message):
    document = json.loads(documented_example())
    corrupt(document)
    text = json.dumps(document)
    with pytest.raises(spec.SpecError, match=message):
        channelfile.parse_channel_file(text)
    path = tmp_path / "corrupted.json"
    path.write_text(text)
    for argv in (["profile", path], ["check", path, "--notion", "ldp", "--epsilon", "1"]):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == "", err
        assert err.startswith("ldpspec: error: channel file") and re.search(message, err), err


def test_the_example_before_corruption_reads():
    """The corruptions above start from a valid file (so each refusal is the corruption's)."""
    document = json.loads(documented_example())
    assert channelfile.parse_channel_file(json.dumps(document)).channel.explicit().outputs[0] == "none"
    document["component_order"] = ["none", None]
    channelfile.parse_channel_file(json.dumps(copy.deepcopy(document)))


@pytest.mark.parametrize("breakpoints, shown", [
    (["1e-2000", "1e-1999"], r"got 9e-2000$"),  # below the smallest float, exactly
    (["0", "exp(1)/3"], r"got exp\(1\)/3$"),
    (["0", "1/3*exp(1/7) + 2/11*exp(1/13) + 5/17*exp(1/19) + 7/23*exp(1/29) + 1/31*exp(1/37) + 1/41*exp(1/43)"],
     r"got 1\.2640214958467007\d* \(approximately; exactly \(5466571\*exp\(1/7\) \+ .+\.\.\..+ \(125 characters\)\)$"),
])
def test_a_wrong_mass_is_shown_briefly(breakpoints, shown):
    """A density of value 1 on a tiny interval: the mass is shown in a few digits, the input named."""
    document = {"format": FORMAT_CONTINUOUS, "inputs": ["a"], "densities": [
        {"input": "a", "label": None, "kind": "constant", "breakpoints": breakpoints, "values": ["1"]}]}
    with pytest.raises(spec.InvalidChannel, match=r'input "a" must have total mass exactly 1 \(its densities\), '
                                                  + shown) as error:
        channelfile.parse_channel_file(json.dumps(document))
    assert len(str(error.value)) < 200


def test_too_many_numbers_are_refused_before_any_is_read():
    """The example holds 2 atoms and 2 x (3 + 2) breakpoints and values: 12 numbers. With unreadable numbers, the
    refusal names the limit, not a number: nothing was read."""
    document = json.loads(documented_example())
    document["densities"][0]["values"] = ["not a number", "x"]
    text = json.dumps(document)
    with pytest.raises(spec.SpecError, match=r"12 probabilities, more than the limit of 11"):
        channelfile.parse_channel_file(text, max_entries=11)
    with pytest.raises(spec.SpecError, match=r"densities\[0\]\.values\[0\]"):
        channelfile.parse_channel_file(text, max_entries=12)


def test_too_many_cells_are_refused_before_any_number_is_read(tmp_path, capsys):
    """Ten inputs, each a density on three breakpoints of its own: 50 numbers, but 30 distinct breakpoints make 29
    cells, so the explicit channel has 10 x 29 = 290 probabilities (the values are unreadable: nothing is read)."""
    densities = [{"input": x, "label": None, "kind": "constant",
                  "breakpoints": [f"{x}/10", f"{x}/10 + 1/30", f"{x}/10 + 1/20"], "values": ["x", "x"]}
                 for x in range(10)]
    text = json.dumps({"format": FORMAT_CONTINUOUS, "inputs": list(range(10)), "densities": densities})
    with pytest.raises(spec.SpecError, match=r"10 inputs x at most 29 atoms and cells\) has 290 probabilities, more "
                                             r"than the limit of 289"):
        channelfile.parse_channel_file(text, max_entries=289)
    with pytest.raises(spec.SpecError, match=r"densities\[0\]\.values\[0\]"):
        channelfile.parse_channel_file(text, max_entries=290)
    path = tmp_path / "cells.json"
    path.write_text(text)
    status, _, err = run(capsys, "profile", path, "--max-entries", "100")
    assert status == 2 and "more than the limit of 100" in err and "--max-entries" in err


def test_a_huge_file_of_densities_is_refused_by_default(tmp_path, capsys):
    """A million and one breakpoints: refused at the default limit, before any is read."""
    n = 1_000_001
    text = ('{"format": "ldpspec-channel/2", "inputs": ["a"], "densities": [{"input": "a", "label": null, '
            '"kind": "constant", "breakpoints": [' + ", ".join(['"?"'] * n) + '], "values": ['
            + ", ".join(['"?"'] * (n - 1)) + "]}]}")
    path = tmp_path / "huge.json"
    path.write_text(text)
    status, _, err = run(capsys, "check", path, "--notion", "ldp", "--epsilon", "1")
    assert status == 2 and "2,000,001 probabilities, more than the limit of 1,000,000" in err, err


# --- every mechanism of Cao et al. through the command line --------------------------------------------------

CAO = [name for name, declaration in MECHANISMS.items() if declaration.home == "cao2022" or name in ("urr", "urap")]


def test_the_mechanisms_of_cao_et_al_are_registered():
    assert {"suwheel", "wheel", "urr", "urap", "sugrr", "surap"} <= set(CAO)


@pytest.mark.parametrize("name", CAO)
def test_every_mechanism_of_cao_et_al_is_written_profiled_and_checked_as_in_memory(tmp_path, capsys, name):
    """``ldpspec channel NAME`` with the example's options writes the channel (version 2 when it has densities), and
    ``profile`` and ``check --notion <its notion>`` on the file give what the kernel gives on the channel in memory.
    (``tests/cli/test_list.py`` runs every registered mechanism's example through the same commands.)"""
    declaration = MECHANISMS[name]
    example = declaration.example()
    path = tmp_path / f"{name}.json"
    options = [part for key, value in example.items() for part in (f"--{key}", value)]
    status, _, err = run(capsys, "channel", name, *options, "--output", path)
    assert status == 0, err
    mechanism = declaration.from_options(example)
    channel = mechanism.channel()
    written = channel if has_densities(channel) else channel.explicit()
    assert json.loads(path.read_text())["format"] == (FORMAT_CONTINUOUS if has_densities(channel) else FORMAT)
    same_explicit(channelfile.read_channel_file(path).channel, written)
    guarantee = mechanism.guarantee()
    assert guarantee.notion == declaration.notion
    status, out, err = run(capsys, "check", path, "--notion", declaration.notion, "--full")
    assert status == 0, err
    assert json.loads(out) == as_json(NOTIONS[declaration.notion].check(written, guarantee.parameters).to_json())
    status, out, err = run(capsys, "profile", path, "--full")
    assert status == 0, err
    assert json.loads(out) == as_json(loss_profile(written.explicit()))
