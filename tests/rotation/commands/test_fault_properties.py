"""Property: malformed names, request and schedule files are refused in one line, exit 2, with no traceback,
no output file, and the inputs left byte for byte as they were."""

import contextlib
import io
import json
import os
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import optimizer
from models import Event
from rotation.commands.cli import main

NAMES = [f"P{i:02d}" for i in range(1, 17)]


def refused_cleanly(inputs: dict[str, bytes], argv_of) -> None:
    """Write the inputs into a fresh folder, run the command, check the refusal left nothing behind."""
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, data in inputs.items():
            paths[name] = Path(folder, name)
            paths[name].write_bytes(data)
        argv = [str(a) for a in argv_of(paths, Path(folder))]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
        message = err.getvalue()
        assert status == 2, (argv, status, message, out.getvalue()[:200])
        assert len(message.splitlines()) == 1 and message.startswith("rotation: error: "), message
        assert "Traceback" not in message
        assert sorted(os.listdir(folder)) == sorted(inputs), "an output file was created"
        for name, data in inputs.items():
            assert paths[name].read_bytes() == data, f"{name} changed"


def look_alike(name: str, how: str, position: int) -> str:
    cut = position % (len(name) + 1)
    return {
        "case": name.swapcase(),
        "spaces": f"  {name} ",
        "zero width": name[:cut] + "\u200b" + name[cut:],
        "nul": name[:cut] + "\x00" + name[cut:],
        "nfd": unicodedata.normalize("NFD", name),
        "tab": "\t" + name,
    }[how]


TRANSFORMS = ["case", "spaces", "zero width", "nul", "nfd", "tab"]
PLAIN = st.text(alphabet=st.sampled_from("abcdefghéüøßXYZ -'."), min_size=1, max_size=8)


@st.composite
def bad_names_files(draw) -> bytes:
    kind = draw(st.sampled_from(["too few", "look-alike", "not utf-8", "blank"]))
    names = [f"{draw(PLAIN).strip() or 'x'}{i}" for i in range(draw(st.integers(4, 12)))]
    if kind == "too few":
        lines = names[: draw(st.integers(0, 3))] + draw(
            st.lists(st.sampled_from(["", " ", "\u200b", "\t"]), max_size=3)
        )
    elif kind == "look-alike":
        victim = draw(st.sampled_from(names))
        twin = look_alike(victim, draw(st.sampled_from(TRANSFORMS)), draw(st.integers(0, 20)))
        lines = names[:]
        lines.insert(draw(st.integers(0, len(lines))), twin)
    elif kind == "blank":
        lines = draw(st.lists(st.sampled_from(["", " ", "\u200b", "\u2028", "\x00"]), min_size=1, max_size=4))
    else:
        data = "\n".join(names).encode()
        at = draw(st.integers(0, len(data)))
        return data[:at] + b"\xff\xfe" + data[at:]
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return end.join(lines).encode("utf-8")


@settings(max_examples=40)
@given(bad_names_files())
def test_malformed_names_files_are_refused_cleanly(data):
    refused_cleanly(
        {"names.txt": data},
        lambda p, d: [
            "fixed",
            "--names",
            p["names.txt"],
            "--rounds",
            2,
            "--json",
            d / "out.json",
            "--csv",
            d / "out.csv",
        ],
    )


@st.composite
def bad_request_files(draw) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["stay twice", "stay table", "stay fields", "group twice", "group of one", "unknown"]))
    name = draw(st.sampled_from(NAMES))
    other = draw(st.sampled_from([n for n in NAMES if n != name]))
    good_lines = [f"{other}, 1"] if kind.startswith("stay") else [f"{other}, {draw(st.sampled_from(NAMES[:1]))}"]
    if kind == "stay twice":
        bad = [
            f"{name}, {draw(st.integers(1, 4))}",
            f"{look_alike(name, draw(st.sampled_from(TRANSFORMS)), 1)}, {draw(st.integers(1, 4))}",
        ]
    elif kind == "stay table":
        table = draw(
            st.text(min_size=0, max_size=4).filter(
                lambda t: (
                    not (t.strip().isascii() and t.strip().isdigit())
                    and "," not in t
                    and '"' not in t
                    and "\n" not in t
                    and "\r" not in t
                )
            )
        )
        bad = [f"{name}, {table}"]
    elif kind == "stay fields":
        bad = [f"{name}, 1, {draw(st.integers(1, 4))}"]
    elif kind == "group twice":
        bad = [f"{name}, {look_alike(name, draw(st.sampled_from(TRANSFORMS)), draw(st.integers(0, 3)))}"]
    elif kind == "group of one":
        bad = [name + draw(st.sampled_from(["", ",", ", ,", ", \u200b"]))]
    else:
        bad = [f"{name}, Nobody{draw(st.integers(0, 99))}"] if draw(st.booleans()) else ["Nobody, 1"]
        if bad == ["Nobody, 1"]:
            kind = "stay unknown"
    lines = good_lines + bad if draw(st.booleans()) else bad + good_lines
    if kind.startswith("stay"):
        lines = [line for line in lines if line.count(",") >= 1]
    option = "--stay" if kind.startswith("stay") else draw(st.sampled_from(["--apart", "--spread"]))
    if option != "--stay":
        lines = [line for line in lines if not line.endswith(", 1")] or bad
    return option, "\n".join(lines).encode("utf-8")


@settings(max_examples=40)
@given(bad_request_files())
def test_malformed_request_files_are_refused_cleanly(request):
    option, data = request
    refused_cleanly(
        {"names.txt": "\n".join(NAMES).encode(), "request.txt": data},
        lambda p, d: [
            "plan",
            "--names",
            p["names.txt"],
            "--rounds",
            2,
            option,
            p["request.txt"],
            "--time-limit",
            1,
            "--json",
            d / "out.json",
        ],
    )


DAY = json.loads(optimizer.fixed_schedule(Event.with_count(8, 3)).model_dump_json())


@st.composite
def bad_schedule_files(draw) -> bytes:
    data = json.loads(json.dumps(DAY))
    kind = draw(
        st.sampled_from(["extra key", "table number", "truncated", "unknown player", "twice", "arrival", "look-alike"])
    )
    round_ = draw(st.sampled_from(data["rounds"]))
    table = draw(st.sampled_from(round_["tables"]))
    seat = draw(st.integers(0, len(table["players"]) - 1))
    if kind == "extra key":
        key = draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in data))
        target = draw(st.sampled_from([data, round_, table]))
        if key in target:
            key += "_"
        target[key] = draw(st.sampled_from([1, "x", [], {}]))
    elif kind == "table number":
        table["table"] = draw(st.sampled_from([True, "1", 1.5, None, 0, -3, "", [1]]))
    elif kind == "truncated":
        text = json.dumps(data)
        return text[: draw(st.integers(0, len(text) - 1))].encode()
    elif kind == "unknown player":
        table["players"][seat] = draw(st.sampled_from(["Nobody", "", "P9"]))
    elif kind == "twice":
        others = [n for n in table["players"] if n != table["players"][seat]]
        table["players"][seat] = draw(st.sampled_from(others))
    elif kind == "arrival":
        name = draw(st.sampled_from(data["players"]))
        leave = draw(st.integers(1, 3))
        data["departures"], data["arrivals"] = {name: leave}, {name: leave + draw(st.integers(0, 2))}
    else:
        data["players"].append(look_alike(draw(st.sampled_from(data["players"])), draw(st.sampled_from(TRANSFORMS)), 1))
    return json.dumps(data).encode()


@settings(max_examples=60)
@given(bad_schedule_files(), st.sampled_from(["check", "replan"]))
def test_malformed_schedule_files_are_refused_cleanly(data, command):
    def argv(p, d):
        if command == "check":
            return ["check", p["day.json"]]
        return [
            "replan",
            p["day.json"],
            "--played",
            1,
            "--time-limit",
            1,
            "--json",
            d / "new.json",
            "--csv",
            d / "new.csv",
        ]

    refused_cleanly({"day.json": data}, argv)
