"""What the server sends a connection, built from `view(seat)` and `event.for_seat(seat)` only.

These are pure functions of the state *as the seat may see it*: the wire conformance test
builds every message again from `state.determinize(seat, rng)` and requires it unchanged, which
proves no message carries anything hidden from its seat. Nothing here reads `to_json()`, the
seed, an `Rng` or the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.checks import printable
from meeple.core.protocol import Event
from meeple.core.state import State


def legal_moves(state: State[Any], seat: int | None) -> list[dict[str, Any]]:
    """The seat's legal actions (id and JSON) when it is that seat's turn, else []."""
    if seat is None or state.current_player != seat:
        return []
    return [{"id": state.action_id(a), "action": a.to_json()} for a in state.legal_actions()]


def seat_message(
    state: State[Any],
    seat: int | None,
    version: int,
    events: Sequence[Event],
    seats: list[dict[str, Any]],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The "state" message for one connection: its seat's view, its legal moves, the events it
    may see since its last message, the public seat list and public table facts (`extra`)."""
    message: dict[str, Any] = {
        "type": "state",
        "version": version,
        "seat": seat,
        "view": state.view(seat),
        "to_move": state.current_player,
        "legal": legal_moves(state, seat),
        "events": [event.for_seat(seat) for event in events],
        "seats": seats,
        "over": state.is_terminal,
    }
    if state.is_terminal:
        message["result"] = {
            "scores": state.scores(), "winners": state.winners(), "breakdown": state.score_breakdown(),
        }
    if extra:
        message.update(extra)
    return message


def error_message(code: str, message: str) -> dict[str, Any]:
    """An error for one client alone: `code` is stable for programs, `message` for people. The
    message may quote what the client sent: it is made printable and short, so the answer can
    always be encoded and never carries 16 KB back."""
    return {"type": "error", "code": code, "message": printable(message)}
