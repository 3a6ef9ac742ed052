"""A small typesetter on top of the drawing description: rule booklets and player aids.

The texts live as plain UTF-8 files (``cards/<game>/text/*.md``) in this markup::

    title: Orbitus                  front matter, "key: value" lines, ended by a line "---":
    subtitle: Rules of play         title (required), subtitle, footer (foot of every page),
    footer: Orbitus — rules         page (the page number's wording, {n} and {total}),
    page: page {n} of {total}       fold (a player aid's note on the fold line of its
    fold: fold here                 2-up sheet, generator.aid_sizes)
    ---
    ## Section heading              (### for a smaller heading)
    A paragraph runs over consecutive lines and ends at a blank line.
    - a bullet item                 lines that follow (not blank, not a new item) continue it
    1. a numbered item
    > a note box (the rules page's Decisions); "> - item" gives bullets inside it
    | head | head |                 a table: the first row is the header; a |---|--:| line
    | cell | cell |                 is optional and sets the alignment (:-- left, --: right,
                                    :-: centre)
    [table: NAME | head | head]     a table filled from the definitions (the game lists NAMEs)
    [diagram: NAME] caption text    a diagram drawn by the components, with its caption
    **bold** and {value}            inline: bold text, a value taken from the definitions

Pages come out as :class:`~generator.drawing.Drawing` objects, so the PDF backend
renders them like every other page. Layout: a title block on the first page,
then the text flows through columns (two by default), headings stay with what
follows them, paragraphs keep at least two lines together at a column break,
table headers repeat on a new column, the last page's columns are balanced,
and every page carries a footer with its number. ``max_pages=1`` (player aids)
shrinks the text until everything fits on one page.

Three modules, one step each: :mod:`.markup` reads a text into a ``Document``
(:func:`~generator.typeset.markup.parse`), :mod:`.setting` sets its blocks into boxes one
column wide (typography, measuring, wrapping), :mod:`.pages` flows the boxes into columns
and pages (:func:`~generator.typeset.pages.typeset`).
"""
