"""Entry point of the `meeple` command."""


def run() -> None:
    from .app import main

    main()
