"""Spreadsheet files: ``.xlsx`` (openpyxl), ``.ods`` (odfpy) and ``.csv`` (standard library).

The workbook formats need the ``sheets`` extra (``pip install -e '.[sheets]'``); CSV needs
nothing. A CSV file holds one sheet: it is named by the file (``orbitus-sectors.csv``, or
``mine.orbitus-sectors.csv``), so a sheet downloaded from a published spreadsheet can be
read by saving it under its sheet's name.

Written files are the same bytes for the same sheets (the zip entries and the documents'
dates are fixed), and are written through a temporary file and a rename.
"""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

from cards.spreadsheet import MAX_COLUMNS, MAX_ROWS, Cell, Sheet

FORMATS = (".xlsx", ".ods", ".csv")
MAX_SHEET_BYTES = 20_000_000
FIXED_DATE = datetime(2000, 1, 1)
EXTRA = "pip install -e '.[sheets]' (openpyxl for .xlsx, odfpy for .ods)"


class SheetFileError(Exception):
    """A spreadsheet file cannot be read or written; one line saying why."""


def kind_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise SheetFileError(f"{path}: not a spreadsheet this tool reads or writes (give a "
                             f"file ending in .xlsx, .ods or .csv)")
    return suffix


# --- writing ----------------------------------------------------------------------------------


def _fixed_zip(data: bytes, fix: dict[str, Any] | None = None) -> bytes:
    """The same zip with every entry's date fixed (so the same sheets give the same bytes);
    entries keep their order and compression (an ODS file's ``mimetype`` stays first and
    stored)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = info.compress_type
            fixed.external_attr = 0o644 << 16
            content = source.read(info.filename)
            if fix and info.filename in fix:
                content = fix[info.filename](content)
            target.writestr(fixed, content)
    return out.getvalue()


def xlsx_bytes(sheets: list[Sheet]) -> bytes:
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Font
    except ImportError:
        raise SheetFileError(f"writing .xlsx needs openpyxl: {EXTRA}") from None
    book = Workbook()
    book.remove(book.active)
    book.properties.created = FIXED_DATE
    book.properties.modified = FIXED_DATE
    book.properties.creator = "pnp sheet export"
    bold = Font(bold=True)
    for sheet in sheets:
        page = book.create_sheet(sheet.name)
        for r, row in enumerate(sheet.rows):
            page.append(row)
            for c, value in enumerate(row):
                if isinstance(value, str) and value.startswith("="):
                    page.cell(row=r + 1, column=c + 1).data_type = "s"  # text, no formula
        if sheet.hidden:
            page.sheet_state = "hidden"
            continue
        widths: dict[int, int] = {}
        for r, row in enumerate(sheet.rows):
            for c, value in enumerate(row):
                widths[c] = max(widths.get(c, 6), min(60, len(str(value or "")) + 2))
            if _is_header(sheet, r):
                for c in range(len(row)):
                    page.cell(row=r + 1, column=c + 1).font = bold
        from cards.spreadsheet import column_letter

        for c, width in widths.items():
            page.column_dimensions[column_letter(c)].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    # openpyxl stamps the time of saving into the document's properties: fix it too
    return _fixed_zip(buffer.getvalue(), {"docProps/core.xml": lambda xml: re.sub(
        rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
        rb"\g<1>2000-01-01T00:00:00Z\g<2>", xml)})


def _is_header(sheet: Sheet, row: int) -> bool:
    rows = sheet.rows
    if row == 0:
        return True
    return not rows[row - 1] and bool(rows[row])


def ods_bytes(sheets: list[Sheet]) -> bytes:
    try:
        from odf.opendocument import OpenDocumentSpreadsheet
        from odf.style import Style, TableColumnProperties, TableProperties, TextProperties
        from odf.table import Table, TableCell, TableColumn, TableRow
        from odf.text import P
    except ImportError:
        raise SheetFileError(f"writing .ods needs odfpy: {EXTRA}") from None
    from odf.element import Element

    before = Element.namespaces
    Element.namespaces = {}  # odfpy shares one namespace table among all its documents
    try:
        return _ods_document(sheets, OpenDocumentSpreadsheet, Style, TableColumnProperties,
                             TableProperties, TextProperties, Table, TableCell, TableColumn,
                             TableRow, P)
    finally:
        Element.namespaces = before


def _ods_document(sheets: list[Sheet], *odf: Any) -> bytes:
    (OpenDocumentSpreadsheet, Style, TableColumnProperties, TableProperties, TextProperties,
     Table, TableCell, TableColumn, TableRow, P) = odf
    doc = OpenDocumentSpreadsheet()
    doc.meta.childNodes[:] = []  # no creation date or generator: the same bytes every time
    bold = Style(name="header", family="table-cell")
    bold.addElement(TextProperties(fontweight="bold"))
    doc.automaticstyles.addElement(bold)
    column = Style(name="column", family="table-column")
    column.addElement(TableColumnProperties(columnwidth="3cm"))
    doc.automaticstyles.addElement(column)
    concealed = Style(name="concealed", family="table")
    concealed.addElement(TableProperties(display="false"))
    doc.automaticstyles.addElement(concealed)
    for sheet in sheets:
        table = Table(name=sheet.name, stylename=concealed) if sheet.hidden \
            else Table(name=sheet.name)
        width = max((len(r) for r in sheet.rows), default=1)
        table.addElement(TableColumn(numbercolumnsrepeated=str(max(width, 1)),
                                     stylename=column))
        for r, row in enumerate(sheet.rows):
            element = TableRow()
            header = _is_header(sheet, r) and not sheet.hidden
            for value in row:
                element.addElement(_ods_cell(value, TableCell, P, bold if header else None))
            if not row:
                element.addElement(TableCell())
            table.addElement(element)
        doc.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    doc.write(buffer)
    return _fixed_zip(buffer.getvalue())


def _ods_cell(value: Cell, cell_type: Any, paragraph: Any, style: Any) -> Any:
    from odf.teletype import addTextToElement

    extra = {"stylename": style} if style is not None else {}
    if value is None:
        return cell_type(**extra)
    if isinstance(value, bool):
        cell = cell_type(valuetype="boolean", booleanvalue="true" if value else "false",
                         **extra)
        cell.addElement(paragraph(text="TRUE" if value else "FALSE"))
        return cell
    if isinstance(value, int | float):
        text = repr(value)
        cell = cell_type(valuetype="float", value=text, **extra)
        cell.addElement(paragraph(text=text))
        return cell
    cell = cell_type(valuetype="string", **extra)
    for line in str(value).split("\n"):
        p = paragraph()
        addTextToElement(p, line)  # runs of spaces as <text:s/>, as ODF keeps them
        cell.addElement(p)
    return cell


def csv_bytes(sheet: Sheet) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in sheet.rows:
        writer.writerow(["" if v is None else ("true" if v is True else "false" if v is False
                                                else v) for v in row])
    return buffer.getvalue().encode("utf-8")


def csv_name(target: Path, sheet: str) -> Path:
    """Where the CSV of ``sheet`` goes when ``target`` (``mine.csv``) is asked for."""
    return target.with_name(f"{target.stem}.{sheet}.csv")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def render(target: Path, sheets: list[Sheet]) -> dict[Path, bytes]:
    """The files that hold ``sheets`` as ``target``'s format asks: one workbook, or a CSV
    per visible sheet (a CSV has no hidden sheets: the YAML a CSV is imported into is the
    definitions folder's own)."""
    kind = kind_of(target)
    if kind == ".xlsx":
        return {target: xlsx_bytes(sheets)}
    if kind == ".ods":
        return {target: ods_bytes(sheets)}
    return {csv_name(target, sheet.name): csv_bytes(sheet) for sheet in sheets
            if not sheet.hidden}


# --- reading ----------------------------------------------------------------------------------


def _read_bytes(path: Path) -> bytes:
    from cards.reading import UnreadableInput, read_bytes_safely

    try:
        return read_bytes_safely(path, "a spreadsheet (.xlsx, .ods or .csv)", MAX_SHEET_BYTES)
    except UnreadableInput as exc:
        raise SheetFileError(exc.problems[0]) from None


def read_file(path: Path, sheet_name: str | None = None) -> list[Sheet]:
    """Every sheet of a spreadsheet file (a CSV: its one sheet, named by the file or by
    ``sheet_name``)."""
    from cards.loader import display_path

    kind = kind_of(path)
    data = _read_bytes(path)
    shown = display_path(path)
    if kind == ".csv":
        return [_read_csv(data, shown, sheet_name or csv_sheet_name(path))]
    if sheet_name is not None:
        raise SheetFileError(f"{shown}: --sheet names the sheet of a CSV file; a workbook names "
                             f"its own sheets")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise SheetFileError(f"{shown}: not a {kind} workbook (it is no zip file); save it "
                             f"again as {kind}")
    try:
        sheets = _read_xlsx(data, shown) if kind == ".xlsx" else _read_ods(data, shown)
    except SheetFileError:
        raise
    except Exception as exc:  # a damaged workbook: its library's own words, on one line
        raise SheetFileError(f"{shown}: cannot be read as {kind} ({type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else 'damaged'})"
                             ) from None
    for sheet in sheets:
        sheet.source = shown
    return sheets


def csv_sheet_name(path: Path) -> str:
    """``orbitus-sectors`` for ``orbitus-sectors.csv`` and ``mine.orbitus-sectors.csv``."""
    return path.stem.rsplit(".", 1)[-1]


def _read_csv(data: bytes, shown: str, name: str) -> Sheet:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SheetFileError(f"{shown}: not UTF-8 text (byte {exc.start}); save the CSV as "
                             f"UTF-8") from None
    if "\x00" in text:
        raise SheetFileError(f"{shown}: a binary file, not CSV text")
    try:
        dialect: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t") if text.strip() \
            else csv.excel
    except csv.Error:
        dialect = csv.excel
    rows: list[list[Cell]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), dialect):
            if len(rows) >= MAX_ROWS or len(row) > MAX_COLUMNS:
                raise SheetFileError(f"{shown}: more than {MAX_ROWS} rows or {MAX_COLUMNS} "
                                     f"columns; is this the right file?")
            rows.append([c if c != "" else None for c in row])
    except csv.Error as exc:
        raise SheetFileError(f"{shown}: not valid CSV ({exc})") from None
    return Sheet(name, rows, source=shown)


def _read_xlsx(data: bytes, shown: str) -> list[Sheet]:
    try:
        from openpyxl import load_workbook
    except ImportError:
        raise SheetFileError(f"{shown}: reading .xlsx needs openpyxl: {EXTRA}") from None
    values = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    formulas = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    sheets: list[Sheet] = []
    for page in values.worksheets:
        with_formulas = formulas[page.title]
        rows: list[list[Cell]] = []
        for r, (row, raw) in enumerate(zip(page.iter_rows(values_only=True),
                                           with_formulas.iter_rows(values_only=True),
                                           strict=False)):
            if r >= MAX_ROWS:
                raise SheetFileError(f"{shown}: sheet {page.title} has more than {MAX_ROWS} "
                                     f"rows; is this the right file?")
            cells: list[Cell] = []
            for c, (value, formula) in enumerate(zip(row, raw, strict=False)):
                if c >= MAX_COLUMNS:
                    if value is not None:
                        raise SheetFileError(f"{shown}: sheet {page.title} has more than "
                                             f"{MAX_COLUMNS} columns")
                    break
                if value is None and isinstance(formula, str) and formula.startswith("="):
                    from cards.spreadsheet import cell_ref

                    raise SheetFileError(
                        f"{cell_ref(page.title, r, c)}: a formula ({formula}) without a "
                        f"computed value; open the file in a spreadsheet program and save it, "
                        f"or write the value itself")
                cells.append(_plain_cell(value))
            while cells and cells[-1] is None:
                cells.pop()
            rows.append(cells)
        sheets.append(Sheet(page.title, _trimmed(rows),
                            hidden=getattr(page, "sheet_state", "visible") != "visible"))
    return sheets


def _plain_cell(value: Any) -> Cell:
    if value is None or isinstance(value, bool | int | float | str):
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
            return int(value)
        return value
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() \
            else value.isoformat()
    return str(value)


def _trimmed(rows: list[list[Cell]]) -> list[list[Cell]]:
    while rows and not rows[-1]:
        rows.pop()
    return rows


def _read_ods(data: bytes, shown: str) -> list[Sheet]:
    try:
        from odf.namespaces import OFFICENS, TABLENS, TEXTNS
        from odf.opendocument import load
    except ImportError:
        raise SheetFileError(f"{shown}: reading .ods needs odfpy: {EXTRA}") from None
    doc = load(io.BytesIO(data))
    sheets: list[Sheet] = []
    for table in doc.spreadsheet.childNodes:
        if getattr(table, "qname", None) != (TABLENS, "table"):
            continue
        name = table.getAttrNS(TABLENS, "name")
        rows: list[list[Cell]] = []
        for row in table.childNodes:
            if getattr(row, "qname", None) != (TABLENS, "table-row"):
                continue
            repeat = int(row.getAttrNS(TABLENS, "number-rows-repeated") or 1)
            cells: list[Cell] = []
            for cell in row.childNodes:
                if getattr(cell, "qname", None) not in ((TABLENS, "table-cell"),
                                                        (TABLENS, "covered-table-cell")):
                    continue
                times = int(cell.getAttrNS(TABLENS, "number-columns-repeated") or 1)
                value = _ods_value(cell, OFFICENS, TEXTNS)
                if value is None and times > MAX_COLUMNS:
                    times = 1  # the empty rest of a row, as spreadsheet programs write it
                if len(cells) + times > MAX_COLUMNS and value is not None:
                    raise SheetFileError(f"{shown}: sheet {name} has more than {MAX_COLUMNS} "
                                         f"columns")
                cells += [value] * times
            while cells and cells[-1] is None:
                cells.pop()
            if not cells and repeat > 1:
                repeat = min(repeat, 1)  # trailing empty rows
            for _ in range(repeat):
                rows.append(list(cells))
                if len(rows) > MAX_ROWS:
                    raise SheetFileError(f"{shown}: sheet {name} has more than {MAX_ROWS} "
                                         f"rows; is this the right file?")
        hidden = _hidden_table(doc, table.getAttrNS(TABLENS, "style-name"))
        sheets.append(Sheet(name, _trimmed(rows), hidden=hidden))
    return sheets


def _hidden_table(doc: Any, style_name: str | None) -> bool:
    """Whether a table's style hides it (``style:table-properties table:display="false"``)."""
    from odf.namespaces import STYLENS, TABLENS

    if not style_name:
        return False
    for style in doc.automaticstyles.childNodes:
        if getattr(style, "qname", None) == (STYLENS, "style") and \
                style.getAttrNS(STYLENS, "name") == style_name:
            for props in style.childNodes:
                if props.getAttrNS(TABLENS, "display") == "false":
                    return True
    return False


def _ods_value(cell: Any, office: str, text_ns: str) -> Cell:
    kind = cell.getAttrNS(office, "value-type")
    if kind in ("float", "percentage", "currency"):
        raw = cell.getAttrNS(office, "value") or "0"
        if re.fullmatch(r"-?\d+", raw):
            return int(raw)
        number = float(raw)
        return int(number) if number.is_integer() and abs(number) < 1e15 else number
    if kind == "boolean":
        return cell.getAttrNS(office, "boolean-value") == "true"
    if kind == "date":
        return cell.getAttrNS(office, "date-value")
    lines = []
    for p in cell.childNodes:
        if getattr(p, "qname", None) == (text_ns, "p"):
            lines.append(_text_of(p))
    if not lines:
        return None
    return "\n".join(lines)


def _text_of(node: Any) -> str:
    out = []
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            out.append(str(child.data))
        elif getattr(child, "qname", (None, None))[1] == "s":
            out.append(" " * int(child.getAttribute("c") or 1))
        elif getattr(child, "qname", (None, None))[1] == "tab":
            out.append("\t")
        else:
            out.append(_text_of(child))
    return "".join(out)
