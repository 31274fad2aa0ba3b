"""A standup names a playbook section as a topic, and the rival's move keeps "head-on" by its
verb: played, "I checked the playbook on map the field" and "It is pitching its own
subscription to the tradespeople the big players ignore head-on"."""

from __future__ import annotations

from engine.game import antagonist
from engine.workers.standup import _topic


def test_a_section_titled_as_an_order_reads_as_a_topic():
    assert _topic("Rivals / Map the field") == "mapping the field"
    assert _topic("Rivals / Staying calm under pressure") == "staying calm under pressure"
    assert _topic("Positioning / The wedge") == "the wedge"


def test_head_on_stays_by_its_verb_whatever_the_customer():
    line = antagonist.ACTIONS["contesting"]
    assert line.endswith("{customer}"), line  # a long niche never strands "head-on" after it
    said = line.format(order="subscription", customer="the tradespeople the big players ignore")
    assert "head-on to the tradespeople the big players ignore" in said
