"""Fixtures for the policy enforcer tests: decks built from config text in a tmp project."""

from tests.default_deck_fixtures import audit_log, make_deck, project

__all__ = ["audit_log", "make_deck", "project"]
