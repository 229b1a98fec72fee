"""The fixtures every test module may use, hypothesis's profiles, and the tiers (``TIERS``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings

import referee.table.session as session_module
from referee.settings.config import Config
from referee.table.table import Table
from tests.real_daemon import Daemon
from tests.simulated import PIN, log_in
from web import create_app

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


# -- the fixtures --------------------------------------------------------------------------------
# A table in this process (``service``) and its page's clients (``app``, ``client``, ``admin``);
# the real daemon in a process of its own (``daemon``). Helpers to import: tests/simulated.py
# and tests/real_daemon.py; Chromium: tests/browser/conftest.py.


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """What ``service`` is built from: ``pegs serve --simulate --data TMP`` with the table PIN.
    A module whose table needs something else overrides this fixture."""
    return Config.simulated(str(tmp_path), pin=PIN)


@pytest.fixture
def service(config: Config) -> Iterator[Table]:
    """The daemon in this process on a simulated board (``Table``), started, stopped after."""
    table = Table.build(config)
    table.start()
    yield table
    table.stop()


@pytest.fixture
def dealt(config: Config, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Table]:
    """``service`` whose games are all shuffled with the seed ``request.param`` (parametrize it
    with ``indirect=True``)."""
    monkeypatch.setattr(session_module, "random", SimpleNamespace(randrange=lambda _n: request.param))
    table = Table.build(config)
    table.start()
    yield table
    table.stop()


@pytest.fixture
def app(service: Table) -> Flask:
    """The page's Flask app on ``service``."""
    return create_app(service)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A page of ``app`` not logged in: a phone, or the table's page before the PIN."""
    return app.test_client()


@pytest.fixture
def admin(app: Flask) -> FlaskClient:
    """A page of ``app`` logged in with the table PIN; every request carries its CSRF token."""
    page = app.test_client()
    page.environ_base["HTTP_X_CSRF_TOKEN"] = log_in(page)["X-CSRF-Token"]
    return page


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    """The real daemon (``pegs serve --simulate --pin PIN``) in a process of its own."""
    running = Daemon(tmp_path, extra=["--pin", PIN])
    running.start()
    yield running
    running.stop()


# -- the tiers (issue 32, section 2) ------------------------------------------------------------
# `make test-fast` runs what none of these marks: `pytest -m "not slow and not process and not browser"`.
# Each test's marks are given here, in one place, by its module and, where a module mixes tiers,
# by the test's name or a fixture it uses; a test file itself names no tier.
#   browser: drives Chromium through Playwright (and a real daemon beside it)
#   process: starts a real `pegs` process (a subprocess, a daemon killed with SIGKILL, a real
#            waitress server) or a shell script that does
#   slow:    the rest that take over about 2 s (whole games played for statistics, self-play,
#            the bench's slow stages, long hypothesis runs)
# A module's "*" is every test in it but those it names; a test named is given its own marks.
PROCESS = ("process",)
SLOW = ("slow",)
TIERS: dict[str, dict[str, tuple[str, ...]]] = {
    "test_bench_checks": {
        "test_each_peg_is_judged_in_a_hole_that_works": SLOW,
        "test_each_hole_is_judged_with_a_good_peg": SLOW,
    },
    "test_bit_flips": {
        "test_one_flipped_bit_never_stops_the_table": SLOW,
    },
    "test_bots": {
        "test_selfplay_vs_ends_with_the_first_bots_win_rate_and_progress_goes_to_stderr": PROCESS,
        "test_the_strategic_bot_finishes_games_under_every_preset": SLOW,
    },
    "test_cli": {"*": PROCESS, "test_bench_times_the_coach_and_the_seat_bots": SLOW},
    "test_cli_fuzz": {
        "test_serving_pi_hardware_elsewhere_is_one_line": PROCESS,
        "test_the_fake_device_refuses_an_impossible_channel_in_one_line": PROCESS,
        "test_moves_and_track_read_any_position": SLOW,
        "test_replay_reads_any_record": SLOW,
        "test_replay_reads_any_record_with_events_out_of_place": SLOW,
    },
    "test_cli_truth": {
        "*": PROCESS,
        "test_every_finding_with_a_fix_is_one_to_fix": (),
        "test_both_bots_really_play_a_two_player_game": (),
    },
    "test_connections": {"*": PROCESS},
    "test_daemon": {"*": PROCESS},
    "test_damaged_store": {"*": PROCESS},
    "test_deploy": {  # install.sh run against a fake Pi's root, and the pegs it installs
        "*": PROCESS,
        "test_example_config_is_valid_and_uses_the_udev_name": (),
        "test_systemd_unit_restarts_and_runs_unprivileged": (),
        "test_pio_rule_is_piolibs": (),
        "test_the_config_names_the_board_size_and_the_colour_order": (),
    },
    "test_doctor": {
        "test_not_a_pi_says_so_and_checks_what_it_can": PROCESS,
        "test_with_the_service_running_the_daemon_is_asked_for_the_channels": PROCESS,
        "test_another_daemon_on_the_port_is_said_and_the_board_itself_is_asked": PROCESS,
        "test_a_program_that_is_not_pegs_on_the_port_is_not_blamed_on_the_firmware": PROCESS,
        "test_with_root_neither_the_daemon_nor_the_board_here_is_asked": PROCESS,
        "test_a_real_pegs_daemon_is_told_from_another_configs": PROCESS,
        "test_a_card_mounted_elsewhere_leaves_the_live_kernels_checks_to_the_pi": PROCESS,
        "test_garbage_files_never_make_a_traceback": SLOW,
    },
    "test_during_a_move": {
        "test_every_hole_lit_on_a_lift_is_a_legal_destination_and_every_one_is_lit": SLOW,
    },
    "test_dxf": {"*": PROCESS},
    "test_firmware_files": {"*": PROCESS},
    "test_game_properties": {
        "test_seeded_games_reach_a_win_and_replay": SLOW,
    },
    "test_headers": {
        "test_every_answer_carries_the_three_headers": PROCESS,
        "test_the_servers_own_refusals_carry_the_three_headers": PROCESS,
    },
    "test_hints": {"test_pegs_hint_prints_json_best_first_and_refuses_bad_input": PROCESS},
    "test_judge": {
        "test_pegs_train_refuses_bad_input_before_playing": PROCESS,
        "test_pegs_train_writes_each_sizes_fit_and_what_it_won_in_play": PROCESS,
        "test_the_levels_play_whole_games_and_the_expert_beats_the_race": SLOW,
    },
    "test_lazy_turns": {
        "test_focused_generation_holds_for_house_rules": SLOW,
        "test_focused_generation_is_the_whole_list_filtered": SLOW,
    },
    "test_lesson": {
        "test_pegs_lesson_prints_the_steps_and_refuses_bad_input": PROCESS,
        "test_every_house_rules_lesson_says_only_what_its_rules_do": SLOW,
    },
    "test_lesson_table": {
        "test_a_lesson_survives_kill_9_of_the_real_daemon": PROCESS,
        "test_on_a_wooden_board_the_step_waits_until_the_pegs_are_set_up": SLOW,
        "test_every_preset_s_lesson_can_be_done_with_a_wrong_try_in_each_step": SLOW,
        "test_bigger_boards_in_words_without_hole_codes": SLOW,
    },
    "test_link": {"test_the_program_prints_its_path_and_takes_commands": PROCESS},
    "test_logins": {
        "test_the_owner_gets_in_past_a_storm_of_guesses_with_a_link_made_on_the_pi": PROCESS,
        "test_a_four_digit_pin_is_not_guessable_in_a_day": SLOW,
        "test_a_known_device_keeps_logging_in_while_one_address_guesses": SLOW,
    },
    "test_lost_log": {"*": PROCESS},
    "test_mounting": {"test_pegs_carrier_writes_the_stl": PROCESS},
    "test_movegen_properties": {
        "test_crowded_boards_agree_with_the_reference": SLOW,
    },
    "test_parts": {"test_the_command_writes_and_prints_and_refuses_bad_input": PROCESS},
    "test_phone_seat": {
        "test_grandma_plays_from_her_phone_and_the_board_carries_out_her_moves": SLOW,
    },
    "test_phone_seat_http": {"test_kill_9_between_the_choice_and_the_carrying_out": PROCESS},
    "test_power_cut": {"*": PROCESS},
    "test_private_hands": {
        "test_in_a_digital_teaching_game_only_the_seats_team_sees_its_cards": SLOW,
    },
    "test_record": {"test_selfplay_and_replay_commands": PROCESS},
    "test_reference_movegen": {
        "test_walks_agree_with_the_board_paths": SLOW,
        "test_generated_positions_are_legal_and_playable": SLOW,
    },
    "test_refusals_change_nothing": {
        "test_a_refused_request_changes_nothing": SLOW,
        "test_a_refused_engine_action_changes_nothing": SLOW,
    },
    "test_remote_play": {
        "*": PROCESS,
        "test_home_defaults_to_the_lan_and_the_pis_own_loopback_never_the_tailnet": (),
        "test_the_config_reads_home_and_refuses_what_is_not_a_network": (),
    },
    "test_review": {
        "test_pegs_review_prints_the_review_as_json": PROCESS,
        "test_pegs_review_bad_input_is_one_line_and_exit_2": PROCESS,
        "test_one_entry_per_move_losses_never_negative_mistakes_biggest_first": SLOW,
        "test_a_review_is_made_in_the_background_stored_and_read_again": SLOW,
        "test_the_review_page_and_its_json": SLOW,
        "test_the_page_shows_progress_while_the_review_is_made": SLOW,
        "test_a_game_left_unfinished_is_reviewed_without_the_cards": SLOW,
    },
    "test_schematic": {"test_the_command_writes_the_sheets_and_refuses_bad_input": PROCESS},
    "test_seat_bots": {
        "test_the_peg_to_lift_flashes_on_the_strip": SLOW,
        "test_a_digital_table_with_two_bots_plays_on_with_people_moving_their_pegs": SLOW,
        "test_a_thinking_bot_never_holds_the_table": SLOW,
    },
    "test_service": {
        "test_a_read_only_or_missing_data_dir_is_a_clear_error_at_start": PROCESS,
        "test_full_and_read_only_filesystems": PROCESS,
        "test_wiring_check_from_the_page": SLOW,
        "test_a_wiring_check_can_be_stopped": SLOW,
        "test_a_refused_request_moves_no_simulated_peg": SLOW,
    },
    "test_table_games": {
        "test_whole_games_at_a_table": SLOW,
    },
    "test_template": {
        "test_the_command_writes_the_board_and_its_sheets_and_refuses_bad_sizes": PROCESS,
        "test_a_ten_sided_boards_index_says_which_sheets_hold_holes": PROCESS,
        "test_every_pixel_has_one_mark_clear_of_the_chains_holes_and_labels": SLOW,
        "test_every_sheet_has_its_own_true_scale_bar_inside_the_margins": SLOW,
        "test_the_chain_ends_are_tagged_off_every_label": SLOW,
        "test_every_hole_at_its_pitch_and_wired_as_the_daemon_reads_it": SLOW,
        "test_the_guides_wiring_drawings_are_the_templates": SLOW,
    },
    "test_ten_players": {
        "test_pegs_moves_and_selfplay_take_ten_players": PROCESS,
        "test_every_preset_plays_a_whole_game_on_ten_sides": SLOW,
    },
    "test_tracker": {"test_track_command": PROCESS},
    "test_web_fuzz": {
        "test_every_route_answers_bad_bodies_with_one_line": SLOW,
        "test_a_new_game_with_one_thing_wrong": SLOW,
    },
    "test_wiring_commands": {
        "*": PROCESS,
        "test_selftest_asks_the_colour_order_first": (),
        "test_a_wrong_answer_is_asked_again_and_the_end_of_input_stops_cleanly": (),
    },
}
# A fixture that starts Chromium or a real daemon marks every test that uses it, in any module.
FIXTURE_TIERS: dict[str, tuple[str, ...]] = {
    "browser": ("browser", "process"),  # tests/browser/conftest.py's Chromium, beside a real daemon
    "daemon": PROCESS,  # tests.real_daemon.Daemon: `pegs serve` in a subprocess
    "server": PROCESS,  # test_remote_play.Server: the same, on an address of its own
}


def tiers_of(module: str, name: str, fixtures: Iterable[str]) -> set[str]:
    """The marks a test gets from the tables above."""
    by_name = TIERS.get(module, {})
    marks = set(by_name.get(name, by_name.get("*", ())))
    for fixture in fixtures:
        marks.update(FIXTURE_TIERS.get(fixture, ()))
    return marks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        module = item.module.__name__.rpartition(".")[2] if item.module is not None else ""
        for mark in sorted(tiers_of(module, item.originalname, item.fixturenames)):
            item.add_marker(getattr(pytest.mark, mark))
