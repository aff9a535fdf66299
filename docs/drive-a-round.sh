#!/usr/bin/env bash
# Drive one round by hand against a running floor (start it with `sicbo run --no-demo`),
# with the venv on PATH (`source .venv/bin/activate`).
# Usage: NATS_URL=nats://127.0.0.1:4222 NATS_USER=floor \
#   NATS_PASSWORD_FILE=$PWD/var/floor/secrets/floor.password docs/drive-a-round.sh [TABLE]
set -euo pipefail
T=${1:-hand-$(date +%s)}  # a new table each run: the floor keeps its data
ID="$T-$(date +%s)"  # command ids are made by the client; a retry reuses them
# Each command is sent as its actor's role (sicbo send says which, on stderr): the NATS user
# (NATS_USER / NATS_PASSWORD_FILE; `floor` may send as any) must be allowed that role.
send() { sicbo send "$T" "$1"; }
dealer='"actor": {"id": "dealer-7", "role": "dealer"}'
# 000 §2.3: a cca-1992 table's layout shall be lit, so it opens with its layout controller;
# this one (a simulated lamp panel) answers the illumination service until the script ends.
sicbo layout-controller "$T" & lamps=$!
trap 'kill "$lamps"' EXIT

send '{"type": "table.open.v1", "command_id": "'$ID'-open", "table": "'$T'",
       "actor": {"id": "op-1", "role": "operator"},
       "config": {"profile": "cca-1992", "limits": {"minimum": 100, "maximum": 50000, "unit": 100},
                  "layout_controller": true}}'
send '{"type": "round.start.v1", "command_id": "'$ID'-tumble", "table": "'$T'", '"$dealer"',
       "round": 1, "tumbles": 3}'
send '{"type": "round.open-betting.v1", "command_id": "'$ID'-bets", "table": "'$T'", '"$dealer"', "round": 1}'
send '{"type": "bets.place-slip.v1", "command_id": "'$ID'-slip", "table": "'$T'",
       "actor": {"id": "ann", "role": "player"}, "round": 1, "player": "ann",
       "wagers": [{"bet": "big", "stake": 500}, {"bet": "total:11", "stake": 100}]}'
send '{"type": "round.close-betting.v1", "command_id": "'$ID'-nomore", "table": "'$T'", '"$dealer"', "round": 1}'
send '{"type": "round.uncover.v1", "command_id": "'$ID'-uncover", "table": "'$T'", '"$dealer"', "round": 1}'
send '{"type": "dice.enter.v1", "command_id": "'$ID'-dice", "table": "'$T'", '"$dealer"',
       "round": 1, "dice": [6, 1, 4]}'
send '{"type": "dice.confirm.v1", "command_id": "'$ID'-confirm", "table": "'$T'", '"$dealer"', "round": 1}'
sleep 1  # the settlement service settles and completes the round
sicbo log "$T"
sicbo replay round "$T" 1
