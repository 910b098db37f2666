"""PNG charts: the arena's ratings (each bot's OpenSkill mu with bars of ±2 sigma, about 95% of
the rating's uncertainty, and a tick at the conservative ordinal mu - 3 sigma) and a game
review's chances of winning across the game.

matplotlib is imported here only, with the Agg backend, so the arena and the bots never need
a display or pay matplotlib's import time unless a chart is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.ai.arena import ArenaResult
    from meeple.ai.review import Review

#: matplotlib's own font, which draws Latin text but no Chinese.
LATIN_FAMILY = "DejaVu Sans"
#: Families that draw Traditional Chinese, best first (Debian's fonts-noto-cjk gives the first).
CJK_FAMILIES = ("Noto Sans CJK TC", "Noto Sans CJK HK", "Noto Sans CJK JP", "Noto Sans CJK SC",
                "Source Han Sans TC", "Microsoft JhengHei", "PingFang TC", "Heiti TC")
#: The languages whose words need one of CJK_FAMILIES.
CJK_LANGUAGES = frozenset({"zh-Hant"})


def plot_ratings(result: ArenaResult, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(result.summaries, key=lambda s: s.mu)
    labels = [s.name if result.bots.count(s.name) == 1 else f"{s.name} #{s.index}" for s in rows]
    mus = [s.mu for s in rows]
    spreads = [2 * s.sigma for s in rows]
    ordinals = [s.ordinal for s in rows]
    ys = list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.55 * len(rows)), dpi=110)
    ax.errorbar(mus, ys, xerr=spreads, fmt="o", color="#1f5fa8", ecolor="#7fa7d6", elinewidth=6,
                capsize=0, markersize=8, label="mu ± 2 sigma")
    ax.scatter(ordinals, ys, marker="|", s=250, color="#b33", label="ordinal (mu - 3 sigma)")
    for y, s in zip(ys, rows):
        ax.annotate(f"{s.mu:.1f}  (win {s.win_share:.0%})", (s.mu, y), textcoords="offset points",
                    xytext=(0, 9), ha="center", fontsize=8)
    ax.set_yticks(ys, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("OpenSkill rating (Plackett-Luce)")
    ax.set_title(f"{result.game}: {result.players} players, {len(result.outcomes)} games, seed {result.seed}",
                 fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def font_families(lang: str) -> tuple[list[str], str | None]:
    """The font families a chart in `lang` is drawn with (matplotlib's own first, then an
    installed CJK family for the glyphs it lacks), and a warning when `lang` needs a font this
    machine does not have (its words would be drawn as empty boxes)."""
    if lang not in CJK_LANGUAGES:
        return [LATIN_FAMILY], None
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    found = next((family for family in CJK_FAMILIES if family in installed), None)
    if found is None:
        return [LATIN_FAMILY], ("no font for Chinese text is installed (for example Debian's fonts-noto-cjk), "
                                "so the chart's words are drawn as boxes")
    return [LATIN_FAMILY, found], None


def plot_review(review: Review, path: str, lang: str = "en") -> str | None:
    """A game review's chart: each seat's chance of winning (its share of the win) after every
    move, as the mover estimated it, with the turning points marked and numbered. Returns a
    warning when the language's words cannot be drawn (`font_families`), else None."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families, warning = font_families(lang)
    with matplotlib.rc_context({"font.family": families}):
        _draw_review(plt, review, path, lang)
    return warning


def _draw_review(plt: Any, review: Review, path: str, lang: str) -> None:
    from meeple.ai.review_words import catalog
    from meeple.core.registry import load

    cat = catalog(review.game, lang)
    moves = [entry["index"] + 1 for entry in review.moves]
    fig, ax = plt.subplots(figsize=(9, 4.2), dpi=110)
    for seat in range(review.num_players):
        name = cat.text("review.player", seat=seat + 1)
        if seat < len(review.players) and review.players[seat]:
            name += f" ({review.players[seat]})"
        ax.plot(moves, [entry["chances"][seat] for entry in review.moves], linewidth=1.6, label=name)
    for number, point in enumerate(review.turning_points, 1):
        entry = review.moves[point["index"]]
        ax.axvline(point["index"] + 1, color="#999", linewidth=0.8, linestyle=":")
        ax.annotate(str(number), (point["index"] + 1, entry["chances"][entry["seat"]]), textcoords="offset points",
                    xytext=(0, 8), ha="center", fontsize=9, color="#b33", fontweight="bold")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlim(0.5, max(moves, default=1) + 0.5)
    ax.set_xlabel(cat.text("review.chart_moves"))
    ax.set_ylabel(cat.text("review.chart_chance"))
    ax.set_title(cat.text("review.chart_title", game=load(review.game).title, players=review.num_players,
                          seed=review.seed), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
