"""Issue 24, item 4: the director's lists read from text (rotation.files.lists), as the command line and the
desk read them: a names list or a names table saved from a spreadsheet, groups and stays."""

import csv
import io
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models import Event
from models.event import name_key, normalise_name
from rotation.files.lists import ListError, read_groups, read_names_table, read_stays, refusal, refused_lines

SPREADSHEET = [
    ("Name,Club\r\nAnn Katz,Hadassah\r\nBo,Kings\r\nCy,hadassah\r\nDee,\r\n", ","),
    ("\ufeffName;Club\nAnn Katz;Hadassah\nBo;Kings\nCy;hadassah\nDee;\n", ";"),
    ("name\tclub\nAnn Katz\tHadassah\nBo\tKings\nCy\thadassah\nDee\t\n", "\t"),
    ('sep=;\n"Name";"Club"\n"Ann Katz";"Hadassah"\n"Bo";"Kings"\n"Cy";"hadassah"\n"Dee";""\n', ";"),
]


@pytest.mark.parametrize("text, separator", SPREADSHEET)
def test_a_header_with_a_name_column_is_read_as_a_table_with_clubs(text, separator):
    table = read_names_table(text)
    assert table.names == ("Ann Katz", "Bo", "Cy", "Dee")
    assert table.clubs == {"Hadassah": ("Ann Katz", "Cy"), "Kings": ("Bo",)}  # one club however it is cased
    assert table.club_groups == (("Ann Katz", "Cy"),)  # a club of one has nobody to be kept from
    assert table.notes == ()


def test_quoted_names_keep_their_commas_and_other_columns_are_noted():
    text = 'Rating,NAME ,Email,,\n3,"Katz, Ann","ann@x.org, home",,\n1,"Weiß, Renée",,,x\n'
    table = read_names_table(text)
    assert table.names == ("Katz, Ann", "Weiß, Renée") and table.clubs == {}
    assert table.notes == (
        "ignored columns 'Rating', 'Email', column 5 (no header): only 'name', 'club' and 'id' are read",
    )


def test_a_name_column_alone_is_a_header_not_a_player():
    assert read_names_table("Name\nAnn\nBo\n").names == ("Ann", "Bo")


def test_a_plain_list_is_one_name_per_line():
    table = read_names_table('Ann\n\n  Bo  \n"Lee, Cy"\nO\'Neil "Dee"\n')
    assert table.names == ("Ann", "Bo", "Lee, Cy", 'O\'Neil "Dee"') and table.clubs == {} and table.notes == ()


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("Ann Katz,Hadassah\nBo,Kings\n", 1, "is split by a comma; for a table, start with a line naming the columns"),
        ("Ann\nBo;Kings\n", 2, "split by a semicolon; for a table"),
        ("Ann\nBo\tKings\n", 2, "e.g. name<tab>club"),
        ("Player,Club\nAnn,X\n", 1, "one of them 'name'"),
    ],
)
def test_separators_without_a_header_are_refused_with_a_hint(text, line, words):
    with pytest.raises(ListError) as refused:
        read_names_table(text)
    assert refused.value.lines == (line,) and words in refused.value.reason


@pytest.mark.parametrize(
    "text, lines, words",
    [
        (
            "name,club\nKatz, Ann,Hadassah\n",
            (2,),
            "3 fields but the header names 2 columns; a name or club with a comma",
        ),
        ("name\nKatz, Ann\n", (2,), "2 fields but the header names 1 column;"),
        ('name,club\n"Ann,X\nBo,Y\n', (3,), "a double quote is not closed"),
        ("name,club\nAnn,X\n,Y\n", (3,), "the 'name' column is empty"),
        ("name,club\n\n,,\n", (1,), "no names below its header"),
        ("name;club;Name\nAnn;X;Y\n", (1,), "two 'name' columns"),
        ("Name,Club\nZoë Weiß,A\nBo,B\nZOË WEISS,C\n", (2, 4), "appears twice (as 'Zoë Weiß' and 'ZOË WEISS')"),
        ("sep=;\nAnn;X\n", (1,), "the next line must name the columns"),
    ],
)
def test_a_table_that_cannot_be_read_names_its_lines(text, lines, words):
    with pytest.raises(ListError) as refused:
        read_names_table(text)
    assert refused.value.lines == lines and words in refused.value.reason, refused.value
    assert str(refused.value).startswith(refused.value.where + ": ")


readable = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda name: normalise_name(name) not in ("", "sep=") and not normalise_name(name).lower().startswith("sep=")
)


@settings(max_examples=150)
@given(
    rows=st.lists(st.tuples(readable, st.sampled_from(["", "Hadassah", "Kings; Queens", 'The "Pung"'])), min_size=1),
    separator=st.sampled_from([",", ";", "\t"]),
    bom=st.booleans(),
    line_end=st.sampled_from(["\n", "\r\n"]),
)
def test_any_table_a_csv_writer_saves_reads_back(rows, separator, bom, line_end):
    """Whatever the names (commas, quotes, separators, line breaks, accents), a table written as a
    spreadsheet writes it reads back as the same players and clubs."""
    assume(line_end == "\r\n" or not any("\r" in name for name, _ in rows))  # the writer quotes a "\r" only then
    # Python 3.10's csv writer cannot write a NUL at all (3.11 can): no spreadsheet file holds one there
    assume(sys.version_info >= (3, 11) or not any("\x00" in name for name, _ in rows))
    unique = {name_key(normalise_name(name)): (name, club) for name, club in rows}
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator=line_end)
    writer.writerow(["Name", "Club", "Seat"])
    writer.writerows([name, club, "x"] for name, club in unique.values())
    table = read_names_table(("\ufeff" if bom else "") + out.getvalue())
    assert table.names == tuple(normalise_name(name) for name, _ in unique.values())
    clubs: dict[str, list[str]] = {}
    for name, club in unique.values():
        if club:
            clubs.setdefault(club, []).append(normalise_name(name))
    assert table.clubs == {club: tuple(names) for club, names in clubs.items()}
    assert table.notes == ("ignored column 'Seat': only 'name', 'club' and 'id' are read",)


def test_groups_and_stays_keep_their_lines():
    assert read_groups('\nAnn, Bo\n"Lee, Cy", Dee\n') == ((2, ("Ann", "Bo")), (3, ("Lee, Cy", "Dee")))
    assert read_stays("Ann, 2\n\nBo,1\n") == ((1, "Ann", 2), (3, "Bo", 1))
    with pytest.raises(ListError) as refused:
        read_stays("Ann, 2\nann, 3\n")
    assert refused.value.lines == (2,) and "'ann' already has a table on line 1" in refused.value.reason


def test_a_refused_request_points_at_its_lines_for_any_front_end():
    """The desk builds the Event from pasted text as the command line does from files, and places the
    message beside the line that holds the request."""
    stays, apart = read_stays("P01, 1\n\nP09, 9\n"), read_groups("P02, P03\n")
    with pytest.raises(ValueError) as error:
        Event(
            players=tuple(f"P{i:02d}" for i in range(1, 38)),
            rounds=6,
            apart=tuple(g.names for g in apart),
            stay={s.name: s.table for s in stays},
        )
    refused = refusal(error.value)
    assert refused is not None and str(refused).startswith("stay P09 at table 9: ")
    assert refused_lines(refused, apart=apart, stay=stays) == {"stay": (3,)}
    assert refusal(ValueError("something else")) is None


def test_a_name_written_surname_first_is_one_name():
    table = read_names_table("Katz, Ann\nNowak, Łukasz Jan\nBo\n")
    assert table.names == ("Katz, Ann", "Nowak, Łukasz Jan", "Bo")
    with pytest.raises(ListError, match="split by a comma"):
        read_names_table("Ann Katz,Hadassah\nBo\n")  # a spreadsheet's two columns, no header: still refused
    with pytest.raises(ListError, match="split by a comma"):
        read_names_table("Katz, Ann, Hadassah\n")
