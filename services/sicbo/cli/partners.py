"""``sicbo partners``: register, rotate and remove the results feed's partners (one NATS
account and nkey each; deploy/nats/README.md "Partners")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated

import typer

from sicbo.cli.common import fail
from sicbo.infra import partner_registry as registry
from sicbo.infra.local_accounts import write_secret
from sicbo.infra.partner_registry import Partner, RegistryError, check_name
from sicbo.infra.partner_targets import Deployment, LocalFloor, TargetError

app = typer.Typer(
    help="The results feed's partners: one account and nkey each.", no_args_is_help=True
)

NameArgument = Annotated[str, typer.Argument(help="the partner's name (e.g. acme)")]
FloorOption = Annotated[
    Path | None,
    typer.Option(
        "--floor",
        help="the local floor of `sicbo run --data DIR` (`make run`: var/floor), reloaded at"
        " once; default: the deployment in this checkout (deploy/nats/partners.toml)",
    ),
]
RepoOption = Annotated[Path, typer.Option("--repo", help="the floor's checkout")]
PublicKeyOption = Annotated[
    str | None,
    typer.Option(
        "--public-key",
        help="the partner's own public nkey (U...; `nk -gen user -pubout`): no seed is made",
    ),
]
SeedFileOption = Annotated[
    Path | None,
    typer.Option(
        "--seed-file",
        help="where to write the new seed (default: NAME.nk here; with --floor, in DIR/partners/)",
    ),
]


def _target(floor: Path | None, repo: Path) -> Deployment | LocalFloor:
    try:
        return LocalFloor(floor) if floor is not None else Deployment(repo)
    except TargetError as exc:
        raise fail(str(exc)) from None


def _change(
    target: Deployment | LocalFloor, change: Callable[[tuple[Partner, ...]], tuple[Partner, ...]]
) -> tuple[Partner, ...]:
    """The registry after ``change``, or a specific error and nothing changed."""
    try:
        return change(registry.load(target.registry))
    except RegistryError as exc:
        raise fail(str(exc)) from None


def _refuse_unless(check: Callable[[], object]) -> None:
    """Run ``check``; its :class:`RegistryError` is the command's specific error."""
    try:
        check()
    except RegistryError as exc:
        raise fail(str(exc)) from None


def _key(
    target: Deployment | LocalFloor, name: str, public_key: str | None, seed_file: Path | None
) -> tuple[str, str | None, Path | None]:
    """``(public key, new seed or None, where the seed goes)``; refuses before any change."""
    if public_key is not None:
        if seed_file is not None:
            raise fail("--seed-file makes sense only without --public-key (no seed is made)")
        try:
            return registry.check_public_key(public_key.strip()), None, None
        except RegistryError as exc:
            raise fail(str(exc)) from None
    seed, public = registry.new_key_pair()
    return public, seed, seed_file or target.default_seed_file(name)


def _commit(
    target: Deployment | LocalFloor,
    partners: tuple[Partner, ...],
    seed: str | None,
    seed_file: Path | None,
) -> None:
    if seed is not None and seed_file is not None:
        if not seed_file.parent.exists():
            seed_file.parent.mkdir(mode=0o700, parents=True)
        write_secret(seed_file, seed + "\n")  # 0600 from its creation
    registry.save(target.registry, partners)
    try:
        lines = target.apply()
    except TargetError as exc:  # the registry is saved: the next reload or start applies it
        raise fail(f"{exc}; the partners are saved, reload or restart the server") from None
    for line in lines:
        typer.echo(line)


def _tell_seed(name: str, seed_file: Path | None) -> None:
    if seed_file is None:
        typer.echo(f"{name} signs with its own seed (only its public key is registered)")
        return
    typer.echo(
        f"seed written to {seed_file} (mode 0600): it is {name}'s only credential; hand it over"
        " by a secure channel and delete this copy (the floor needs only the public key)"
    )
    typer.echo(f"{name} connects with NATS_URL=nats://HOST:4222 NATS_NKEY={seed_file}")


def _today() -> date:
    return datetime.now(UTC).date()


@app.command("add")
def add(
    name: NameArgument,
    public_key: PublicKeyOption = None,
    seed_file: SeedFileOption = None,
    floor: FloorOption = None,
    repo: RepoOption = Path("."),
) -> None:
    """Register a partner: a key pair (the seed written to a 0600 file) or its own public
    key, its account, the configuration regenerated (and, with --floor, reloaded)."""
    target = _target(floor, repo)
    _refuse_unless(lambda: registry.check_name(name))  # before any key is made
    key, seed, where = _key(target, name, public_key, seed_file)
    partners = _change(target, lambda ps: registry.added(ps, name, key, _today()))
    if where is not None and where.exists():
        raise fail(f"{where} exists already: move it away or give --seed-file")
    _commit(target, partners, seed, where)
    typer.echo(f"partner {name} registered: account {partners[-1].account}, public key {key}")
    _tell_seed(name, where)


@app.command("rotate")
def rotate(
    name: NameArgument,
    public_key: PublicKeyOption = None,
    seed_file: SeedFileOption = None,
    floor: FloorOption = None,
    repo: RepoOption = Path("."),
) -> None:
    """Give a partner a new key: the old one stops working once the servers reload."""
    target = _target(floor, repo)
    _refuse_unless(lambda: registry.find(registry.load(target.registry), check_name(name)))
    key, seed, where = _key(target, name, public_key, seed_file)
    partners = _change(target, lambda ps: registry.rotated(ps, name, key, _today()))
    _commit(target, partners, seed, where)
    typer.echo(f"partner {name}: new public key {key}; the old key is refused after the reload")
    _tell_seed(name, where)


@app.command("remove")
def remove(name: NameArgument, floor: FloorOption = None, repo: RepoOption = Path(".")) -> None:
    """Remove a partner: its account goes, it can no longer connect once the servers reload."""
    target = _target(floor, repo)
    partners = _change(target, lambda ps: registry.removed(ps, name))
    _commit(target, partners, None, None)
    if isinstance(target, LocalFloor):  # the seed this floor made for it, if any
        target.default_seed_file(name).unlink(missing_ok=True)
    typer.echo(f"partner {name} removed")


@app.command("list")
def list_partners(floor: FloorOption = None, repo: RepoOption = Path(".")) -> None:
    """The registered partners: name, account, public key, added (and rotated) dates."""
    target = _target(floor, repo)
    partners = _change(target, lambda ps: ps)
    if not partners:
        typer.echo(f"no partners registered ({target.registry})")
    for p in partners:
        rotated = f", rotated {p.rotated.isoformat()}" if p.rotated else ""
        typer.echo(f"{p.name}\t{p.account}\t{p.public_key}\tadded {p.added.isoformat()}{rotated}")
