"""Phones at the table (issue 13): the page and its seat links reach a phone on the table's
Wi-Fi; 127.0.0.1 is this machine only, so a link never carries it."""

from __future__ import annotations

import socket

from referee.table.serve import where_to_find
from web.hosts import lan_address, phone_host


def test_a_link_made_on_the_machine_itself_gets_an_address_a_phone_can_reach() -> None:
    assert phone_host("127.0.0.1:8080", lan="192.168.1.20") == "192.168.1.20:8080"
    assert phone_host("localhost:8080", lan="192.168.1.20") == "192.168.1.20:8080"
    assert phone_host("[::1]:8080", lan="10.0.0.7") == "10.0.0.7:8080"
    assert phone_host("192.168.1.20:8080", lan="10.0.0.7") == "192.168.1.20:8080"  # already reachable: kept
    assert phone_host("pegs.local", lan="10.0.0.7") == "pegs.local"


def test_without_a_network_the_mdns_name_stands_in() -> None:
    assert phone_host("127.0.0.1:8080", lan="") == f"{socket.gethostname()}.local:8080"


def test_the_start_message_says_where_phones_find_the_page() -> None:
    said = where_to_find("0.0.0.0", 8080, lan="192.168.1.20")
    assert "http://192.168.1.20:8080/" in said and "phones" in said
    assert "127.0.0.1" in where_to_find("127.0.0.1", 8080) and "--host 0.0.0.0" in where_to_find("127.0.0.1", 8080)
    found = lan_address()
    assert found is None or not found.startswith("127.")
