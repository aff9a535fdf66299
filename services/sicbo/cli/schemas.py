"""``sicbo schemas``: the contracts' JSON Schema, for partners in any language."""

import typer

from sicbo.game import catalogue
from sicbo_contracts import asyncapi, schemas

app = typer.Typer(help="JSON Schema of the contracts.", no_args_is_help=True)


@app.command("write")
def write() -> None:
    """Regenerate contracts/schemas/*.json and contracts/asyncapi.json from the contracts,
    and the paytables' bet catalogue (contracts/catalogue/paytables.json, docs/paytables.md)."""
    for path in schemas.write():
        typer.echo(f"wrote {path.name}")
    typer.echo(f"wrote {asyncapi.write().name}")
    for path in catalogue.write():
        typer.echo(f"wrote {path.name}")


@app.command("check")
def check() -> None:
    """Exit 1 if a checked-in schema is stale."""
    stale = schemas.stale() + (["asyncapi"] if asyncapi.stale() else []) + catalogue.stale()
    if stale:
        typer.echo(f"stale schemas: {', '.join(stale)} (run `make schemas`)", err=True)
        raise typer.Exit(1)
    typer.echo("schemas are up to date")
