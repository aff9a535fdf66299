"""Properties over random results and wagers (hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from sicbo.game.dice import make_roll
from sicbo.game.evaluation import winning_bets
from sicbo.game.house_edge import house_edge_report
from sicbo.game.profiles import PROFILE_IDS, load_paytable
from sicbo.game.settlement import Medium, Outcome, settle_wager

dice = st.tuples(*[st.integers(1, 6)] * 3)
profiles = st.sampled_from(PROFILE_IDS)


@given(profiles, dice, st.permutations(range(3)))
def test_order_of_dice_never_matters(profile: str, d: tuple[int, int, int], order: list[int]):
    paytable = load_paytable(profile)
    shuffled = [d[i] for i in order]
    assert winning_bets(paytable, make_roll(d)) == winning_bets(paytable, make_roll(shuffled))


@given(profiles, st.integers(1, 6))
def test_a_triple_always_kills_small_and_big(profile: str, face: int) -> None:
    wins = {b.id for b in winning_bets(load_paytable(profile), make_roll([face] * 3))}
    assert not {"small", "big"} & wins


def test_rtp_below_one_except_flagged_bets() -> None:
    for profile in PROFILE_IDS:
        for edge in house_edge_report(load_paytable(profile)).bets:
            assert edge.rtp < 1 or edge.no_house_edge


@given(profiles, dice, st.integers(1, 10**9), st.sampled_from(list(Medium)), st.data())
def test_settlement_never_returns_less_than_zero_or_pays_a_loser(
    profile: str, d: tuple[int, int, int], stake: int, medium: Medium, data: st.DataObject
) -> None:
    paytable = load_paytable(profile)
    bet = data.draw(st.sampled_from(paytable.offered_bets()))
    settled = settle_wager(paytable, make_roll(d), bet.id, stake, medium)
    if settled.outcome is Outcome.LOSE:
        assert settled.returned == settled.winnings == 0
    else:
        assert settled.winnings >= stake  # every pay is at least 1 to 1
        expected = settled.winnings + (0 if medium is Medium.PROMO else stake)
        assert settled.returned == expected
