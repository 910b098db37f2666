"""The operator's data sets: the component and board files a server offers, by name.

A rule option that names a file or a directory (`OptionSpec.names_path`) is server
configuration, never a client's to choose: a path from a client could probe the file system,
have any readable file parsed, or name a FIFO that blocks whoever reads it. The operator lays
the sets out under `meeple serve --data DIR` as DIR/<game>/<option>/<set>: a directory, or a
file whose name is the set's name and an extension (`printed.toml`). Each set is checked through
the game's own loader at start-up. A client sends "" (the shipped data) or a set's name; tables
store and hand out that name (with the pin a game appends, "printed#sha256=..."), and the path
stands in for it only inside the server, while a state is built.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.errors import DataError, MeepleError, OptionError
from meeple.core.protocol import Game, OptionSpec
from meeple.core.registry import game_names, load

#: A set's name: letters, digits, "_" and "-", up to 40 characters (no dot, no slash, no "#").
SET_NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"
_NAME = re.compile(SET_NAME)
_STORED = re.compile(rf"({SET_NAME})(#.*)?", re.DOTALL)
#: The shipped data, offered always.
SHIPPED = ""


@dataclass(frozen=True)
class DataSets:
    """The sets this server offers: (game, option) -> set name -> the set's path."""

    offered: Mapping[tuple[str, str], Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def open(cls, root: str | None) -> DataSets:
        """The sets under `root` (None: none), each loaded once through its game; DataError
        naming the first that is misplaced, misnamed or fails its game's checks."""
        if root is None:
            return cls()
        base = Path(root).expanduser().resolve()
        if not base.is_dir():
            raise DataError(f"--data {root}: not a directory")
        offered: dict[tuple[str, str], dict[str, str]] = {}
        for game_dir in _entries(base):
            if game_dir.name not in game_names() or not game_dir.is_dir():
                raise DataError(f"--data {root}: {game_dir.name} is not a game's directory "
                                f"(games: {', '.join(game_names())})")
            game = load(game_dir.name)
            marked = {spec.name: spec for spec in game.option_specs if spec.names_path}
            for option_dir in _entries(game_dir):
                spec = marked.get(option_dir.name)
                if spec is None or not option_dir.is_dir():
                    raise DataError(f"--data {root}: {game.name}/{option_dir.name} is not an option's directory "
                                    f"({game.title} options naming files: {', '.join(marked) or 'none'})")
                offered[game.name, spec.name] = _sets(game, spec, option_dir, f"--data {root}: {game.name}/{spec.name}")
        return cls(offered)

    def names(self, game: str, option: str) -> tuple[str, ...]:
        """The values a client may send for a marked option: "" and the offered set names."""
        return (SHIPPED, *sorted(self.offered.get((game, option), {})))

    def choices(self, game: str, spec: OptionSpec) -> list[Any]:
        """An option's choices as clients are told them (GET /api/games, the lobby)."""
        return list(self.names(game, spec.name)) if spec.names_path else list(spec.choices or ())

    def from_client(self, game: Game[Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """A client's options with each set name replaced by its path; OptionError for any other
        value of a marked option (the message names the offered sets, never the value)."""
        out = dict(options)
        for spec in game.option_specs:
            value = options.get(spec.name)
            if spec.names_path is None or not isinstance(value, str):
                continue  # absent, or of the wrong type (resolve_options says so)
            sets = self.offered.get((game.name, spec.name), {})
            if value != SHIPPED and value not in sets:
                offered = ", ".join(sorted(sets)) or "none"
                raise OptionError(f"{game.title} option {spec.name!r} takes \"\" (the shipped data) or the name of "
                                  f"a data set this server offers ({offered}), never a path")
            out[spec.name] = sets.get(value, SHIPPED)
        return out

    def to_stored(self, game: Game[Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """A new state's options as tables keep and show them: each set's path (with whatever
        pin the game appended) becomes the set's name."""
        out = dict(options)
        for spec in game.option_specs:
            value = options.get(spec.name)
            if spec.names_path is None or not isinstance(value, str):
                continue
            for name, path in self.offered.get((game.name, spec.name), {}).items():
                if value == path or value.startswith(path + "#"):
                    out[spec.name] = name + value[len(path):]
        return out

    def to_server(self, game: Game[Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """Stored options (`to_stored`) with each set's name replaced by its path again, to
        replay a table's game; DataError for a set this server no longer offers. Other values
        (the shipped data, an inline value a game stored) are kept."""
        out = dict(options)
        for spec in game.option_specs:
            value = options.get(spec.name)
            if spec.names_path is None or not isinstance(value, str) or not (match := _STORED.fullmatch(value)):
                continue
            name, pin = match.group(1), match.group(2) or ""
            sets = self.offered.get((game.name, spec.name), {})
            if name not in sets:
                raise DataError(f"the game uses the data set {name!r} ({game.name} option {spec.name}), "
                                f"which this server does not offer now")
            out[spec.name] = sets[name] + pin
        return out

    def hide(self, text: str) -> str:
        """`text` (a game's error) with each set's path replaced by the set's name."""
        paths = [(path, name) for sets in self.offered.values() for name, path in sets.items()]
        for path, name in sorted(paths, key=lambda item: -len(item[0])):
            text = text.replace(path, f"data set {name!r}")
        return text


def _entries(folder: Path) -> list[Path]:
    """A folder's entries but hidden ones (".something"), in name order."""
    return sorted(entry for entry in folder.iterdir() if not entry.name.startswith("."))


def _sets(game: Game[Any, Any], spec: OptionSpec, folder: Path, where: str) -> dict[str, str]:
    """The sets in one option's folder, each built into a game once (its loader's checks)."""
    sets: dict[str, str] = {}
    for entry in _entries(folder):
        is_file = spec.names_path == "file"
        name = entry.stem if is_file else entry.name
        if not _NAME.fullmatch(name):
            raise DataError(f"{where}: {entry.name!r}: a set's name is letters, digits, '_' and '-' "
                            f"(at most 40){', then an extension' if is_file else ''}")
        if name in sets:
            raise DataError(f"{where}: two sets are named {name!r}")
        if not (entry.is_file() if is_file else entry.is_dir()):
            raise DataError(f"{where}: {entry.name} is not a {spec.names_path}")
        try:
            game.new_game(game.min_players, seed=0, **{spec.name: str(entry)})
        except MeepleError as exc:
            raise DataError(f"{where}/{entry.name}: {exc}") from None
        sets[name] = str(entry)
    return sets
