"""The ``sicbo`` command line."""

import typer

from sicbo.cli import (
    board,
    floor,
    gateway,
    launch,
    layout_controller,
    partners,
    provision,
    replay,
    rules,
    run,
    schemas,
    services,
)
from sicbo.cli import results as results_cli

app = typer.Typer(help="Sic Bo floor: rules, provisioning, services, replay.", no_args_is_help=True)
app.add_typer(rules.app, name="rules")
app.add_typer(schemas.app, name="schemas")
app.add_typer(replay.app, name="replay")
app.add_typer(results_cli.app, name="results")
app.add_typer(partners.app, name="partners")
app.add_typer(board.app, name="board")
app.add_typer(gateway.app, name="gateway")
app.command("provision")(provision.provision)
app.command("serve")(services.serve)
app.command("send")(floor.send)
app.command("log")(floor.log)
app.command("run")(run.run)
app.command("layout-controller")(layout_controller.layout_controller)
app.command("launch-token")(launch.launch_token)

if __name__ == "__main__":
    app()
