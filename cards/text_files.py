"""Where a game's texts are, in which languages, and which one a kit prints (standard
library only: the fast paths that hash the definitions' files find them without importing
the models of :mod:`cards.labels`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cards.files import DEFAULT_CARDS

LANGUAGE_NAMES = {"en": "English", "ru": "Russian", "it": "Italian"}
KINDS = ("labels", "rules", "player-aid")  # the files of a language, per game


def text_folder(cards: Path | None, game: str) -> Path:
    """The folder holding ``game``'s texts: the definitions folder's own ``text/``, else the
    shipped one."""
    own = (cards or DEFAULT_CARDS) / game / "text"
    return own if own.is_dir() else DEFAULT_CARDS / game / "text"


def languages(cards: Path | None, game: str, kind: str = "labels") -> list[str]:
    """The languages ``game`` has ``kind`` files for (``labels``, ``rules``,
    ``player-aid``)."""
    folder = text_folder(cards, game)
    suffix = ".yaml" if kind == "labels" else ".md"
    return sorted(p.name[len(kind) + 1:-len(suffix)] for p in folder.glob(f"{kind}-*{suffix}"))


@dataclass(frozen=True)
class Choice:
    """The language a piece of a kit is built in, and a note when it is not the one asked."""

    lang: str
    note: str = ""


def resolve(cards: Path | None, game: str, kind: str, lang: str) -> Choice:
    """Which language ``game``'s ``kind`` texts are built in when ``lang`` is asked for: that
    one when the file exists, else English with a note that says what is missing."""
    have = languages(cards, game, kind)
    if lang in have or not have:
        return Choice(lang)
    fallback = "en" if "en" in have else have[0]
    suffix = "yaml" if kind == "labels" else "md"
    what = {"labels": "the words of its sheets, markers and score pad",
            "rules": "its rule booklet", "player-aid": "its player aid"}[kind]
    name = LANGUAGE_NAMES.get(lang, lang)
    return Choice(fallback, f"{game}: no {kind}-{lang}.{suffix} in "
                            f"{_shown(text_folder(cards, game))}, so {what} "
                            f"{'is' if kind != 'labels' else 'are'} in "
                            f"{LANGUAGE_NAMES.get(fallback, fallback)} ({kind}-{fallback}."
                            f"{'yaml' if kind == 'labels' else 'pdf'}) instead of {name}")


def _shown(path: Path) -> str:
    from cards.reading import display_path

    if path.resolve().is_relative_to(DEFAULT_CARDS.resolve()):
        return "cards/" + path.resolve().relative_to(DEFAULT_CARDS.resolve()).as_posix()
    return display_path(path)


def labels_path(cards: Path | None, game: str, lang: str) -> Path:
    """The labels file a ``lang`` kit of ``game`` reads: the definitions folder's own (in
    ``lang``, else English), or the shipped one when its text folder has none (a folder
    made before there were labels files)."""
    choice = resolve(cards, game, "labels", lang)
    path = text_folder(cards, game) / f"labels-{choice.lang}.yaml"
    if path.exists() or path.is_symlink():
        return path
    shipped = DEFAULT_CARDS / game / "text"
    own = shipped / f"labels-{lang}.yaml"
    return own if own.exists() else shipped / "labels-en.yaml"
