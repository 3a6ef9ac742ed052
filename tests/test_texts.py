"""The printed texts against the rules pages and the glossaries (issue 20, points 1-4, 7, 8).

Every rule of ``docs/rules/<game>.md`` carries a tag saying where players meet it
(``booklet: SECTION``, ``aid``, ``pad``, ``notation only``, ``software only``); every
paragraph, list item or caption of a booklet or an aid ends with the numbers of the rules
it states, in brackets, and each *Project decision* box names its decisions. These tests
read both sides, for every game and every language, and read every text of a language
against its glossary (``cards/<game>/text/glossary-<lang>.yaml``)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
GAMES = {"orbitus": "O", "satellites": "S"}
LANGS = ("en", "ru", "it")
KINDS = ("rules", "player-aid")

_TAG_RE = re.compile(r'^\*\*([OS]-\d+)\*\* <span class="meet">([^<]*)</span>(.*)$', re.M)
_ANCHOR_RE = re.compile(r'^<a id="([OS]-\d+)"></a>$', re.M)
_CITE_RE = re.compile(r"\b([OS]-\d+)\b")
_TRAILING_RE = re.compile(r"\((?:[OS]-\d+)(?:,\s*[OS]-\d+)*\)\s*$")
_BOX_RE = re.compile(r"^>\s*\*\*([^*]*)\*\*")


# --- the rules pages ------------------------------------------------------------------------


@dataclass(frozen=True)
class Tag:
    """Where players meet one rule."""

    sections: tuple[str, ...]  # the booklet sections (English headings) that state it
    aid: bool
    pad: bool
    only: str  # "", "notation only" or "software only"
    decision: bool  # the rule is a project Decision


def _parse_tag(number: str, text: str, rest: str) -> Tag:
    sections: tuple[str, ...] = ()
    aid = pad = False
    only = ""
    for item in (part.strip() for part in text.split("·")):
        if item.startswith("booklet:"):
            sections = tuple(s.strip() for s in item[len("booklet:"):].split(","))
        elif item == "aid":
            aid = True
        elif item == "pad":
            pad = True
        elif item in ("notation only", "software only"):
            only = item
        else:
            raise AssertionError(f"{number}: unknown place {item!r} in its tag {text!r}; "
                                 "write booklet: SECTION, aid, pad, notation only or "
                                 "software only, separated by ' · '")
    if only and (sections or aid or pad):
        raise AssertionError(f"{number}: {only!r} with other places in {text!r}")
    if not only and not sections:
        raise AssertionError(f"{number}: players meet it, so its tag names a booklet section")
    return Tag(sections, aid, pad, only, rest.lstrip().startswith("*Decision:*"))


@cache
def rule_tags(game: str) -> dict[str, Tag]:
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return {m.group(1): _parse_tag(m.group(1), m.group(2), m.group(3))
            for m in _TAG_RE.finditer(page)}


def rule_numbers(game: str) -> set[str]:
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return set(_ANCHOR_RE.findall(page))


# --- the printed texts ----------------------------------------------------------------------


@dataclass
class Text:
    """One booklet or aid: its sections and what each line states and cites."""

    path: Path
    headings: list[str] = field(default_factory=list)  # the ## headings, in order
    stated: dict[str, set[int]] = field(default_factory=dict)  # rule -> section indexes
    boxed: set[str] = field(default_factory=set)  # rules a decision box names
    cited: list[tuple[int, str]] = field(default_factory=list)  # (line, rule) every mention


@cache
def read_text(game: str, kind: str, lang: str) -> Text:
    path = CARDS / game / "text" / f"{kind}-{lang}.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    text = Text(path)
    start = lines.index("---") + 1
    for lineno, line in enumerate(lines[start:], start=start + 1):
        if line.startswith("## "):
            text.headings.append(line[3:].strip())
        for number in _CITE_RE.findall(line):
            text.cited.append((lineno, number))
        section = len(text.headings) - 1
        box = _BOX_RE.match(line)
        if box and "(" in box.group(1):
            numbers = _CITE_RE.findall(box.group(1))
            text.boxed.update(numbers)
        else:
            trailing = _TRAILING_RE.search(line)
            numbers = _CITE_RE.findall(trailing.group(0)) if trailing else []
        for number in numbers:
            text.stated.setdefault(number, set()).add(section)
    return text


def section_index(game: str, heading: str) -> int:
    return read_text(game, "rules", "en").headings.index(heading)


# --- point 4: every rule says where players meet it -----------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_says_where_players_meet_it(game):
    tags = rule_tags(game)
    assert set(tags) == rule_numbers(game), (
        f"docs/rules/{game}.md: rules without a tag after their number: "
        f"{sorted(rule_numbers(game) - set(tags))}")
    english = read_text(game, "rules", "en").headings
    for number, tag in tags.items():
        for heading in tag.sections:
            assert heading in english, (f"{number}: its tag names the booklet section "
                                        f"{heading!r}, which rules-en.md does not have "
                                        f"(it has: {', '.join(english)})")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_booklet_has_the_sections_of_the_english_one(game, lang):
    english = read_text(game, "rules", "en").headings
    own = read_text(game, "rules", lang).headings
    assert len(own) == len(english), (f"rules-{lang}.md has {len(own)} sections "
                                      f"({own}), rules-en.md {len(english)} ({english})")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_players_need_is_printed_in_every_language(game, lang):
    """A rule tagged for the booklet is stated in that section of the booklet of every
    language, a rule tagged for the aid in the aid; nothing is stated where the rules page
    does not say so."""
    booklet = read_text(game, "rules", lang)
    aid = read_text(game, "player-aid", lang)
    problems = []
    for number, tag in rule_tags(game).items():
        want = {section_index(game, h) for h in tag.sections}
        have = booklet.stated.get(number, set())
        for k in sorted(want - have):
            problems.append(f"{booklet.path.name}: {number} is not stated in section "
                            f"{booklet.headings[k]!r} (rules page: booklet: "
                            f"{', '.join(tag.sections)})")
        for k in sorted(have - want):
            problems.append(f"{booklet.path.name}: section {booklet.headings[k]!r} states "
                            f"{number}, but the rules page tags it "
                            f"{', '.join(tag.sections) or tag.only}")
        if tag.aid and number not in aid.stated:
            problems.append(f"{aid.path.name}: {number} is tagged for the player aid but "
                            "the aid does not state it")
        if not tag.aid and number in aid.stated:
            problems.append(f"{aid.path.name}: states {number}, which the rules page does "
                            "not tag for the player aid")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_decision_players_meet_has_a_decision_box(game, lang):
    booklet = read_text(game, "rules", lang)
    tags = rule_tags(game)
    missing = [n for n, t in tags.items() if t.decision and t.sections and n not in booklet.boxed]
    assert not missing, f"{booklet.path.name}: no Project decision box for {missing}"
    not_decisions = sorted(n for n in booklet.boxed if n in tags and not tags[n].decision)
    assert not not_decisions, (f"{booklet.path.name}: a Project decision box names "
                               f"{not_decisions}, which the rules page does not mark "
                               "*Decision:*")


@pytest.mark.parametrize("game", GAMES)
def test_no_text_cites_a_rule_that_does_not_exist(game):
    known = rule_numbers(game)
    other = {g: rule_numbers(g) for g in GAMES if g != game}
    problems = []
    for path in sorted((CARDS / game / "text").iterdir()):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for number in _CITE_RE.findall(line):
                if number in known:
                    continue
                where = next((g for g, numbers in other.items() if number in numbers), None)
                problems.append(f"{path.name}:{lineno}: {number} " +
                                (f"is a rule of {where}, not of {game}" if where else
                                 f"does not exist (docs/rules/{game}.md ends at "
                                 f"{max(known, key=lambda n: int(n[2:]))})"))
    assert not problems, "\n".join(problems)


def test_the_coverage_check_finds_a_missing_rule(tmp_path, monkeypatch):
    """The check above is not empty: a booklet without O-36 and with a box citing a rule
    that is no decision is caught."""
    read_text.cache_clear()
    text = (CARDS / "orbitus" / "text" / "rules-en.md").read_text(encoding="utf-8")
    assert "(rules O-36, O-37)" in text
    folder = tmp_path / "orbitus" / "text"
    folder.mkdir(parents=True)
    for path in (CARDS / "orbitus" / "text").iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(sys.modules[__name__], "CARDS", tmp_path)
    try:
        (folder / "rules-en.md").write_text(
            text.replace("(rules O-36, O-37)", "(rules O-37)").replace("(O-36, O-37)", "(O-37)"),
            encoding="utf-8")
        with pytest.raises(AssertionError, match=r"O-36 is not stated in section 'Your turn'"):
            test_every_rule_players_need_is_printed_in_every_language("orbitus", "en")
        with pytest.raises(AssertionError, match=r"no Project decision box for \['O-36'\]"):
            test_every_decision_players_meet_has_a_decision_box("orbitus", "en")
        read_text.cache_clear()
        (folder / "rules-en.md").write_text(
            text.replace("(rules O-36, O-37)", "(rules O-36, O-37, O-35)"), encoding="utf-8")
        with pytest.raises(AssertionError, match=r"names \['O-35'\], which the rules page does "
                                                 r"not mark"):
            test_every_decision_players_meet_has_a_decision_box("orbitus", "en")
        read_text.cache_clear()
        (folder / "rules-en.md").write_text(text.replace("(O-1)", "(O-1, O-99)"),
                                            encoding="utf-8")
        with pytest.raises(AssertionError, match=r"rules-en\.md:\d+: O-99 does not exist "
                                                 r"\(docs/rules/orbitus\.md ends at O-78\)"):
            test_no_text_cites_a_rule_that_does_not_exist("orbitus")
    finally:
        read_text.cache_clear()


# --- point 8: every game speaks every language ----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_every_text_in_every_language(game, lang):
    folder = CARDS / game / "text"
    for name in (f"rules-{lang}.md", f"player-aid-{lang}.md", f"labels-{lang}.yaml",
                 f"glossary-{lang}.yaml"):
        assert (folder / name).is_file(), f"{game}: no {name}"


# --- point 7: the glossaries ----------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    term: str
    word: str
    forms: re.Pattern[str]
    where: str
    forbidden: tuple[re.Pattern[str], ...]
    unless: re.Pattern[str] | None


def _word(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


@cache
def glossary(game: str, lang: str) -> list[Term]:
    path = CARDS / game / "text" / f"glossary-{lang}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    terms = []
    for entry in doc["terms"]:
        unknown = set(entry) - {"term", "word", "seed", "forms", "in", "forbidden", "unless",
                                "because"}
        assert not unknown, f"{path.name}: {entry.get('term')}: unknown fields {unknown}"
        where = entry.get("in", "rules")
        assert where in ("rules", "player-aid", "labels"), (path.name, entry["term"], where)
        terms.append(Term(entry["term"], entry["word"],
                          _word(entry.get("forms", re.escape(entry["word"]))), where,
                          tuple(_word(p) for p in entry.get("forbidden", ())),
                          re.compile(entry["unless"], re.IGNORECASE)
                          if "unless" in entry else None))
    return terms


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def language_lines(game: str, lang: str) -> dict[str, list[tuple[int, str]]]:
    """Every printed line of a game's texts in ``lang``: (line number, text) per file."""
    folder = CARDS / game / "text"
    out: dict[str, list[tuple[int, str]]] = {}
    for kind in KINDS:
        path = folder / f"{kind}-{lang}.md"
        lines = path.read_text(encoding="utf-8").splitlines()
        body = lines.index("---") + 1  # the front matter's keys and {values} are not printed
        heading = ""
        out[path.name] = []
        for n, line in enumerate(lines, 1):
            heading = line if line.startswith("## ") else heading
            if n > body or ":" in line and not line.startswith("page:"):
                # each line with its section's heading, which an `unless` may name
                out[path.name].append((n, f"{line.replace('**', '')}\n{heading}"))
    labels = folder / f"labels-{lang}.yaml"
    lines = labels.read_text(encoding="utf-8").splitlines()
    printed = set(_strings(yaml.safe_load("\n".join(lines))))
    out[labels.name] = [(n, line) for n, line in enumerate(lines, 1)
                        if not line.lstrip().startswith("#")
                        and any(s and s in line for s in printed)]
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_text_uses_the_glossary_words_and_no_forbidden_variant(game, lang):
    problems = []
    texts = language_lines(game, lang)
    for term in glossary(game, lang):
        for name, lines in texts.items():
            for lineno, line in lines:
                if term.unless is not None and term.unless.search(line):
                    continue
                for pattern in term.forbidden:
                    found = pattern.search(line)
                    if found:
                        problems.append(f"{name}:{lineno}: {found.group(0)!r} is a forbidden "
                                        f"variant of {term.term!r}; write {term.word!r}")
        own = {"rules": f"rules-{lang}.md", "player-aid": f"player-aid-{lang}.md",
               "labels": f"labels-{lang}.yaml"}[term.where]
        if not any(term.forms.search(line) for _, line in texts[own]):
            problems.append(f"{own}: never uses {term.word!r} for {term.term!r}")
    assert not problems, "\n".join(problems)


def test_the_glossary_check_catches_the_old_calques():
    """Sentences of the kit before issue 20 are refused, naming the term."""
    ru = {t.term: t for t in glossary("orbitus", "ru")}
    it = {t.term: t for t in glossary("satellites", "it")}
    old = [
        (ru["open route"], "пираты и оборванные маршруты отнимают очки"),
        (ru["count (score pad column)"], 'count: "№"'),
        (ru["draw pile"], "доберите карты до лимита руки, пока колода не кончилась"),
        (ru["the station lies on the table"], "В центре стола висит станция «Орбитус»."),
        (ru["components"], "## Что в коробке"),
        (ru["axial coordinates"], "осевая система из известного руководства"),
        (ru["directions of the station's sides"], "стартовые линии N и NE"),
        (it["connection move"], "Mossa di collegamento: esattamente tante caselle"),
        (it["connected"], "i satelliti agganciati formano gruppi"),
        (it["tracker"], "la traccia ⚡ delle mosse di grazia"),
        (it["draw"], "Ancora pari, o nessuna colonia controllata: partita pari."),
        (it["the game's title"], "title: Satellites"),
        (it["token"], "Il giocatore 1 è il rosso (gettoni pieni)"),
    ]
    for term, line in old:
        assert any(p.search(line) for p in term.forbidden), (term.term, line)
    sat_ru = {t.term: t for t in glossary("satellites", "ru")}
    for term, line in ((sat_ru["the game's title"], "Фишки «Сателлитов»"),
                       (sat_ru["grace moves"], "Оставшиеся ходы отсрочки"),
                       (sat_ru["draw"], "Снова ничья или нет колоний: ничья.")):
        assert any(p.search(line) for p in term.forbidden), (term.term, line)
