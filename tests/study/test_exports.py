"""The CSV export's defence against spreadsheet formulas, for every start OWASP names (a tab or a carriage
return cannot reach a card through the API, which strips them, so they are checked here)."""

from __future__ import annotations

import pytest

from backend.study.exports import spreadsheet_safe


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\tcmd", "\rcmd"])
def test_a_cell_that_could_run_as_a_formula_gets_a_leading_quote(cell: str) -> None:
    assert spreadsheet_safe(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["", "1 + 1 = 2", "Mitochondria", "'quoted", " =spaced"])
def test_other_cells_are_left_as_they_are(cell: str) -> None:
    assert spreadsheet_safe(cell) == cell
