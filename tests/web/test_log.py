"""The move log keeps every line's number whole (the table issue's finding 10: from 100 on, the
first digit was cut off, "118." showing as "18.")."""

from __future__ import annotations

from tests.web.test_pages import _create_from_lobby

MARKER_ROOM = """() => {
  const log = document.getElementById("log");
  for (let k = 0; k < 120; k++) { const li = document.createElement("li"); li.textContent = "line"; log.append(li); }
  const li = log.children[117];
  const range = document.createRange();
  range.selectNodeContents(li);
  return { text: range.getBoundingClientRect().left, item: li.getBoundingClientRect().left,
           log: log.getBoundingClientRect().left };
}"""


def test_a_three_digit_line_number_is_inside_the_log(page, server):
    _create_from_lobby(page, server, "triqueta", players=2)
    room = page.evaluate(MARKER_ROOM)
    # The number is drawn inside the line, before its text, and the line inside the log: so the
    # log's own box (which clips what overflows it) holds the whole "118.".
    assert room["item"] >= room["log"]
    assert room["text"] - room["item"] >= 20, room
