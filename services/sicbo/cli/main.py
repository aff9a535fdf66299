"""The ``sicbo`` command line."""

import typer

from sicbo.cli import rules

app = typer.Typer(help="Sic Bo floor: rules, provisioning, services, replay.", no_args_is_help=True)
app.add_typer(rules.app, name="rules")

if __name__ == "__main__":
    app()
