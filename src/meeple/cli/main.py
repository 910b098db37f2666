"""Entry point of the `meeple` command."""


def run() -> None:
    from meeple.cli.app import main

    main()
