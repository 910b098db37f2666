"""The messages of the HTTP API and the WebSocket, as pydantic models: every field typed strictly
(a string is no number, nor a float or a bool an int), bounded and, if text, free of control
characters; unknown fields are refused at every level. So a malformed request is one error
message and never reaches a table. (The actions inside are each game's to check:
`meeple.core.checks.object_kind`.)"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from meeple.core.checks import clean_text

#: Longest display name and chat line.
MAX_NAME = 40
MAX_CHAT = 500
#: Longest credential or join code accepted (ours are 43 and 8 characters).
MAX_SECRET = 100
#: The largest whole number accepted anywhere (a 64-bit database column holds it).
MAX_WHOLE = 2**63 - 1


def _clean(text: str) -> str:
    return clean_text(text, "the text")


def _digits(value: object) -> int:
    """A number in a URL is text: only ASCII digits make it a number (no sign, space, point,
    exponent or other script's digits, which Python's int() would take)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        return int(value)
    raise ValueError("must be a whole number written in the digits 0-9")


Clean = AfterValidator(_clean)
#: A game's or an option's name.
Word = Annotated[str, Field(min_length=1, max_length=40), Clean]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), Clean]
Secret = Annotated[str, Field(min_length=1, max_length=MAX_SECRET), Clean]
Whole = Annotated[int, Field(ge=0, le=MAX_WHOLE)]
#: A whole number written in the URL: a query parameter (`?since=12`) or a path segment.
UrlWhole = Annotated[int, Field(ge=0, le=MAX_WHOLE), BeforeValidator(_digits)]
OptionValue = Annotated[str, Field(max_length=200), Clean] | bool | Annotated[int, Field(ge=-MAX_WHOLE, le=MAX_WHOLE)]
ActionJson = dict[str, Any]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    """Who sits in a seat: a person, or a bot spec such as "greedy" or "ismcts:normal"."""

    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, Field(min_length=1, max_length=60), Clean] | None = None


class CreateTable(Strict):
    """A new table. `seats` defaults to you in seat 0 and `greedy` bots in the others."""

    game: Word
    players: Annotated[int, Field(ge=1, le=99)]
    options: dict[Word, OptionValue] = Field(default_factory=dict, max_length=20)
    seats: list[SeatSpec] | None = Field(default=None, max_length=99)
    clock: Annotated[str, Field(max_length=20, pattern=r"^(none|[0-9]{1,5}\+[0-9]{1,4})$")] = "none"
    name: Name = "Player 1"
    public: bool = False  # free seats may be taken from the lobby by anyone


class Credentials(Strict):
    """What acting for a seat needs: the table, the seat and its secret credential."""

    table_id: str
    seat: int
    credential: str


class TableCreated(Credentials):
    join_code: str


class JoinTable(Strict):
    join_code: Secret | None = None  # needed unless the table is public
    name: Name
    seat: Annotated[int, Field(ge=0, le=98)] | None = None  # a particular free seat, else the first


class SeatInfo(BaseModel):
    """A seat as everyone may see it."""

    seat: int
    kind: str
    bot: str | None
    name: str
    taken: bool
    left: bool
    connected: int


class TableInfo(BaseModel):
    """A table as the lobby shows it: no secrets (no seed, no credentials, no join code)."""

    id: str
    game: str
    title: str
    players: int
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "over", "closed"]
    version: int
    clock: str
    public: bool = False


class GameInfo(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]


class Act(Strict):
    """A move: the action as JSON or as its id, with the version (move number) it was made at."""

    type: Literal["act"] = "act"
    version: Whole
    action: ActionJson | None = None
    action_id: Whole | None = None


class Undo(Strict):
    type: Literal["undo"] = "undo"
    version: Whole


class Chat(Strict):
    type: Literal["chat"] = "chat"
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT), Clean]


class Hello(Strict):
    """The first WebSocket message: a seat's credential, or none to watch."""

    type: Literal["hello"] = "hello"
    credential: Secret | None = None
    #: A page asks for its HTML fragments in this language (API clients leave it out).
    render: Literal["en", "zh-Hant"] | None = None


class HintRequest(Strict):
    """A hint for the seat to move, at the version (move number) it saw."""

    version: Whole


class Leave(Strict):
    type: Literal["leave"] = "leave"


class Ping(Strict):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[Act | Undo | Chat | Leave | Ping, Field(discriminator="type")]
