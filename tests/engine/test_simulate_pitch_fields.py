"""Headless `simulate` takes the new-venture form's fields (--customer, --offering, --place,
--problem) over the pitch's reading, shows both readings in --json, and refuses a bad field with
one line and exit 2, writing nothing."""

from __future__ import annotations

import json

import pytest

from worldforge_tui.cli import main

PITCH = "Kebab van for the night shift"


def test_the_fields_override_the_reading_and_json_shows_both(tmp_path, capsys):
    rc = main(
        [
            "simulate",
            "--save-dir",
            str(tmp_path),
            "--pitch",
            PITCH,
            "--json",
            "--customer",
            "warehouse pickers",
            "--place",
            "Leeds",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert out["pitch"]["read"]["customer"] == "night-shift workers"
    assert out["pitch"]["read"]["place"] is None
    confirmed = out["pitch"]["confirmed"]
    assert (confirmed["customer"], confirmed["place"], confirmed["offering"]) == (
        "warehouse pickers",
        "Leeds",
        "kebab van",
    )


def test_the_text_output_says_the_reading_it_plays(tmp_path, capsys):
    rc = main(["simulate", "--save-dir", str(tmp_path), "--pitch", "Pop-up saunas on beaches"])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.splitlines()[0].startswith("run-")  # scripts read the run id off the first line
    assert next(line for line in out.splitlines() if line.startswith("pitch read as: ")) == (
        # "on beaches" is where it is sold, a setting and no place name: no part of the offering
        "pitch read as: offering: pop-up saunas · who pays: (none named) · place: (none named)"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--customer", "night\x00shift"],
        ["--offering", "kebabs \x1b[31m"],
        ["--place", "L" * 500],
        ["--problem", "x" * 1_000_000],
    ],
)
def test_a_bad_field_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys, args):
    save = tmp_path / "saves"
    rc = main(["simulate", "--save-dir", str(save), "--pitch", PITCH, *args])
    err = capsys.readouterr().err
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("worldforge: error: ")
    assert not (save / "worldforge.db").exists()
