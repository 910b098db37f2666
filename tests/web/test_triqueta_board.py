"""Triqueta's board in the browser: the draw pile's whole frame is the draw move."""

from __future__ import annotations

from tests.web.test_pages import _create_from_lobby


def test_a_click_anywhere_inside_the_draw_frame_draws(page, server):
    _create_from_lobby(page, server, "triqueta", players=2)
    frame = page.locator("#board .tower.current.move")
    frame.wait_for()
    version = page.locator("#table").get_attribute("data-version")
    box = frame.bounding_box()
    assert box is not None
    # Beside the stack of tokens (30 of the frame's 40 units, centred), inside the frame: this
    # spot is neither the stack nor the label, so only the frame itself can take the click.
    page.mouse.click(box["x"] + box["width"] * 0.1, box["y"] + box["height"] * 0.4)
    page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=version,
                           timeout=10_000)
