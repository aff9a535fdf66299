"""Render the floor's NATS accounts (:mod:`sicbo.infra.nats_accounts`) for the server.

Two outputs of one source, both checked in:

- ``deploy/nats/accounts.conf``, included by ``deploy/nats/floor.conf`` (one server, local
  runs, the tests): a permission variable per user, then the accounts;
- the generated regions of ``deploy/nats-helm/values.yaml`` (the official chart, production):
  the accounts under ``config.merge`` (the chart writes ``<< $VAR >>`` unquoted, so the
  passwords are read from the server's environment) and that environment under
  ``container.env``, one key of the Secret ``nats-floor-users`` per user.

With them, the floor's TLS (:mod:`sicbo.infra.nats_server_tls`): ``deploy/nats/tls.conf`` and
``deploy/nats-helm/values-tls.yaml``.

``python -m sicbo.infra.nats_config write`` regenerates all (``make nats-config``);
``check`` exits 1 when either is stale (tests/deploy/test_nats_permissions.py too).
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sicbo.infra import nats_server_tls, partner_registry
from sicbo.infra.nats_accounts import ACCOUNTS, SYSTEM_ACCOUNT
from sicbo.infra.nats_accounts import accounts as accounts_with
from sicbo.infra.nats_permissions import Account, Permissions, User

CONF = Path("deploy/nats/accounts.conf")
#: The partners (sicbo.infra.partner_registry): one account each in both outputs.
PARTNERS = Path("deploy/nats/partners.toml")
VALUES = Path("deploy/nats-helm/values.yaml")
#: How many streams the floor's log is provisioned in (``sicbo provision --partitions``): the
#: permissions allow exactly those streams' APIs (docs/runbook.md "The partitioned log").
FLOOR_LOG = Path("deploy/nats/floor-log.toml")


def deployed_partitions(root: Path) -> int:
    """``partitions`` of deploy/nats/floor-log.toml (1 when the file is absent)."""
    path = root / FLOOR_LOG
    if not path.exists():
        return 1
    value = tomllib.loads(path.read_text(encoding="utf-8")).get("partitions", 1)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 64:
        raise ValueError(f"{path}: partitions must be a whole number from 1 to 64, not {value!r}")
    return value


#: The Secret (in the NATS release's namespace) holding one password per user, key = user.
SECRET = "nats-floor-users"
HEADER = "# Generated from services/sicbo/infra/nats_accounts.py (make nats-config): do not edit."


class Raw(str):
    """A token written unquoted: a variable reference such as ``$FLOOR_PASSWORD``."""

    __slots__ = ()


def var(name: str) -> Raw:
    return Raw(f"${name}")


def permissions_of(p: Permissions) -> dict[str, Any]:
    """The server's permission block (``publish``/``subscribe`` allow and deny lists)."""
    block: dict[str, Any] = {}
    publish: dict[str, Any] = {}
    if p.publish:
        publish["allow"] = list(p.publish)
    if p.deny_publish:
        publish["deny"] = list(p.deny_publish)
    if publish:
        block["publish"] = publish
    if p.subscribe:
        block["subscribe"] = {"allow": list(p.subscribe)}
    return block


def _limited(user: User) -> Permissions:
    assert user.permissions is not None  # account_of asks only for users that have some
    return user.permissions


def permissions_var(user: User) -> str:
    return f"{user.name.upper().replace('-', '_')}_PERMISSIONS"


def account_of(account: Account, *, user_permissions: Callable[[User], Any]) -> dict[str, Any]:
    """One account; ``user_permissions(user)`` gives what goes under ``permissions``."""
    users: list[dict[str, Any]] = []
    for user in account.users:
        entry: dict[str, Any] = {"user": user.name, "password": var(user.password_env)}
        if user.permissions is not None:
            entry["permissions"] = user_permissions(user)
        users.append(entry)
    for nkey_user in account.nkey_users:  # a partner: permissions inline, one per account
        users.append(
            {"nkey": nkey_user.public_key, "permissions": permissions_of(nkey_user.permissions)}
        )
    body: dict[str, Any] = {}
    if account.jetstream:
        body["jetstream"] = "enabled"
    body["users"] = users
    if account.exports:
        body["exports"] = [dict(e) for e in account.exports]
    if account.imports:
        body["imports"] = [dict(i) for i in account.imports]
    return body


# -- nats-server configuration syntax --------------------------------------------------------


def _value(value: Any, indent: int) -> str:
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        lines = [f"{inner}{key}: {_value(v, indent + 1)}" for key, v in value.items()]
        return "{\n" + "\n".join(lines) + f"\n{pad}}}"
    if isinstance(value, Sequence):
        items = [f"{inner}{_value(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    raise TypeError(f"cannot render {value!r}")


def settings_text(settings: Mapping[str, Any]) -> str:
    """Top-level server settings (``jetstream``, ``pid_file``, a ``tls`` block ...), one each."""
    return "".join(f"{key}: {_value(value, 0)}\n" for key, value in settings.items())


def conf_text(accounts: Sequence[Account] = ACCOUNTS, system_account: str = SYSTEM_ACCOUNT) -> str:
    """``deploy/nats/accounts.conf``: the permission variables, the accounts."""
    out = [HEADER, "# Why each user may do what it may: that module's docstring and comments.", ""]
    for account in accounts:
        for user in account.users:
            if user.permissions is None:
                continue
            out.append(f"# {account.name}/{user.name}: {user.why}")
            out.append(f"{permissions_var(user)} = {_value(permissions_of(user.permissions), 0)}")
            out.append("")
    out.append("accounts {")
    for account in accounts:
        body = account_of(account, user_permissions=lambda u: var(permissions_var(u)))
        out.append(f"  # {account.why}")
        out.append(f"  {account.name}: {_value(body, 1)}")
    out.append("}")
    out.append("")
    out.append(f"system_account: {system_account}")
    return "\n".join(out) + "\n"


# -- the Helm chart's values -----------------------------------------------------------------


def _helm(value: Any) -> Any:
    """Raw tokens as the chart's ``<< ... >>`` (written unquoted into nats.conf)."""
    if isinstance(value, Raw):
        return f"<< {value} >>"
    if isinstance(value, Mapping):
        return {k: _helm(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_helm(v) for v in value]
    return value


def helm_merge(accounts: Sequence[Account] = ACCOUNTS) -> dict[str, Any]:
    """What goes under the chart's ``config.merge``: the accounts, permissions inline."""
    merge: dict[str, Any] = _helm(
        {
            "accounts": {
                a.name: account_of(a, user_permissions=lambda u: permissions_of(_limited(u)))
                for a in accounts
            },
            "system_account": SYSTEM_ACCOUNT,
        }
    )
    return merge


def helm_env(accounts: Sequence[Account] = ACCOUNTS, secret: str = SECRET) -> dict[str, Any]:
    """The server container's environment (chart ``container.env``): every password."""
    return {
        u.password_env: {"valueFrom": {"secretKeyRef": {"name": secret, "key": u.name}}}
        for a in accounts
        for u in a.users
    }


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))  # a JSON string is a YAML double-quoted scalar


def yaml_lines(value: Any, indent: int = 0) -> list[str]:
    """Block-style YAML, sequences indented under their key (yamllint's default)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(item, Mapping | list | tuple):
                lines.append(f"{pad}{key}:")
                lines.extend(yaml_lines(item, indent + 2))
            else:
                lines.append(f"{pad}{key}: {_scalar(item)}")
        return lines
    for item in value:
        if isinstance(item, Mapping | list | tuple):
            nested = yaml_lines(item, indent + 2)
            lines.append(f"{pad}- {nested[0].lstrip()}")
            lines.extend(nested[1:])
        else:
            lines.append(f"{pad}- {_scalar(item)}")
    return lines


_REGION = re.compile(r"^( *)# BEGIN generated: (\w+)\n.*?^ *# END generated: \2\n", re.M | re.S)


def render_values(text: str, accounts: Sequence[Account] = ACCOUNTS) -> str:
    """``values.yaml`` with its generated regions (``accounts``, ``env``) filled in."""
    regions = {"accounts": {"merge": helm_merge(accounts)}, "env": helm_env(accounts)}

    def fill(match: re.Match[str]) -> str:
        pad, name = match.group(1), match.group(2)
        if name not in regions:
            raise ValueError(f"unknown generated region {name!r}")
        lines = [
            f"{pad}# BEGIN generated: {name}",
            f"{pad}{HEADER}",
            *yaml_lines(regions[name], len(pad)),
            f"{pad}# END generated: {name}",
        ]
        return "\n".join(lines) + "\n"

    rendered, count = _REGION.subn(fill, text)
    if count != 2:
        raise ValueError(f"expected the regions accounts and env in values.yaml, found {count}")
    return rendered


# -- write / check ---------------------------------------------------------------------------


def deployed_accounts(root: Path) -> tuple[Account, ...]:
    """The accounts with the partners of ``root``'s registry (deploy/nats/partners.toml)."""
    return accounts_with(partner_registry.load(root / PARTNERS), deployed_partitions(root))


def outputs(root: Path) -> dict[Path, str]:
    """Each generated file and what it should hold."""
    values = root / VALUES
    with_partners = deployed_accounts(root)
    return {
        root / CONF: conf_text(with_partners),
        values: render_values(values.read_text(encoding="utf-8"), with_partners),
        root / nats_server_tls.CONF: nats_server_tls.conf_text(),
        root / nats_server_tls.HELM_VALUES: tls_values_text(),
    }


def tls_values_text() -> str:
    """``values-tls.yaml``, given after ``values.yaml`` to turn TLS on."""
    lines = [
        nats_server_tls.HEADER,
        '# TLS for the floor\'s NATS (deploy/nats-helm/README.md, "TLS"), after values.yaml:',
        "#   helm upgrade --install nats nats/nats -n sicbo \\",
        "#     -f deploy/nats-helm/values.yaml -f deploy/nats-helm/values-tls.yaml",
        *yaml_lines(nats_server_tls.helm_values()),
    ]
    return "\n".join(lines) + "\n"


def write(root: Path) -> list[Path]:
    """Regenerate every output under ``root``; the files written."""
    written = []
    for path, text in outputs(root).items():
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale(root: Path) -> list[Path]:
    return [
        path
        for path, text in outputs(root).items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: Sequence[str] = ()) -> int:
    command = argv[0] if argv else "check"
    root = Path(argv[1]) if len(argv) > 1 else Path.cwd()
    if command == "write":
        for path in write(root):
            print(f"wrote {path}")
        return 0
    if command == "check":
        old = stale(root)
        for path in old:
            print(f"stale: {path} (run `make nats-config`)", file=sys.stderr)
        return 1 if old else 0
    print("usage: python -m sicbo.infra.nats_config write|check [ROOT]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
