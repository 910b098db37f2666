"""The messages of the HTTP API and the WebSocket, as pydantic models: every field typed and
bounded, unknown fields refused, so a malformed request is a clear 422 or an error message and
never reaches a table."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Longest display name and chat line.
MAX_NAME = 40
MAX_CHAT = 500
#: Longest credential or join code accepted (ours are 43 and 8 characters).
MAX_SECRET = 100

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Secret = Annotated[str, Field(min_length=1, max_length=MAX_SECRET)]
OptionValue = Annotated[str, Field(max_length=200)] | bool | int
ActionJson = dict[str, Any]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    """Who sits in a seat: a person, or a bot spec such as "greedy" or "ismcts:normal"."""

    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, Field(min_length=1, max_length=60)] | None = None


class CreateTable(Strict):
    """A new table. `seats` defaults to you in seat 0 and `greedy` bots in the others."""

    game: Annotated[str, Field(min_length=1, max_length=40)]
    players: Annotated[int, Field(ge=1, le=99)]
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(default_factory=dict, max_length=20)
    seats: list[SeatSpec] | None = Field(default=None, max_length=99)
    clock: Annotated[str, Field(max_length=20, pattern=r"^(none|\d{1,5}\+\d{1,4})$")] = "none"
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
    version: Annotated[int, Field(ge=0)]
    action: ActionJson | None = None
    action_id: Annotated[int, Field(ge=0)] | None = None


class Undo(Strict):
    type: Literal["undo"] = "undo"
    version: Annotated[int, Field(ge=0)]


class Chat(Strict):
    type: Literal["chat"] = "chat"
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class Hello(Strict):
    """The first WebSocket message: a seat's credential, or none to watch."""

    type: Literal["hello"] = "hello"
    credential: Secret | None = None
    #: A page asks for its HTML fragments in this language (API clients leave it out).
    render: Literal["en", "zh-Hant"] | None = None


class Leave(Strict):
    type: Literal["leave"] = "leave"


class Ping(Strict):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[Act | Undo | Chat | Leave | Ping, Field(discriminator="type")]
