"""The ``sicbo`` command line."""

import typer

from sicbo.cli import floor, provision, rules, services

app = typer.Typer(help="Sic Bo floor: rules, provisioning, services, replay.", no_args_is_help=True)
app.add_typer(rules.app, name="rules")
app.command("provision")(provision.provision)
app.command("serve")(services.serve)
app.command("send")(floor.send)
app.command("log")(floor.log)

if __name__ == "__main__":
    app()
