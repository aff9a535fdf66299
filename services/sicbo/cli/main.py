"""The ``sicbo`` command line."""

import typer

from sicbo.cli import floor, provision, replay, rules, run, schemas, services

app = typer.Typer(help="Sic Bo floor: rules, provisioning, services, replay.", no_args_is_help=True)
app.add_typer(rules.app, name="rules")
app.add_typer(schemas.app, name="schemas")
app.add_typer(replay.app, name="replay")
app.command("provision")(provision.provision)
app.command("serve")(services.serve)
app.command("send")(floor.send)
app.command("log")(floor.log)
app.command("run")(run.run)

if __name__ == "__main__":
    app()
