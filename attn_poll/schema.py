"""The poll's tables. Every name starts with `poll_`, so the tables can share a database with anything else."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Double,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

SCHEMA_VERSION = 3  # bump with a step in store.UPGRADES when a table changes

metadata = MetaData()

meta = Table(
    "poll_meta",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", Integer, nullable=False),
)

rooms = Table(
    "poll_rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(7), nullable=False, unique=True),
    Column("host_hash", String(64), nullable=False),
    Column("voter_salt", String(32), nullable=False),
    Column("created_at", Double, nullable=False),
    Column("expires_at", Double, nullable=False, index=True),
    Column("phase", String(12), nullable=False),
    Column("question_position", Integer, nullable=True),  # None in the lobby
    Column("round_number", Integer, nullable=False),  # 0 in the lobby, then 1 or 2
    Column("version", Integer, nullable=False),  # +1 on every host action: a page sees a change by one number
    # A token bucket for votes, in the row so that every app process shares it: tokens left, when counted.
    Column("vote_tokens", Double, nullable=False),
    Column("tokens_at", Double, nullable=False),
    # Version 2. The last host action or host page seen (None: never since the room opened): a lobby nobody joined
    # and no host touched for Limits.idle_close_s closes early, so a flood of rooms cannot hold the cap.
    Column("touched_at", Double, nullable=True),
    # Version 3. +1 on every voter joining and every vote counted: with version, what a projector's count shows (its
    # held check wakes on it instead of polling the counts every second).
    Column("activity", Integer, nullable=False, server_default="0"),
)

questions = Table(
    "poll_questions",
    metadata,
    Column("room_id", Integer, ForeignKey("poll_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("question_id", String(120), nullable=False),
    Column("option_count", Integer, nullable=False),
    Column("rounds_opened", Integer, nullable=False),  # 0, 1 or 2: which rounds the export and counts show
    # Version 3. The phase a lecture room was in when it moved away from this question (None: never left): coming back
    # to its question step restores an open round as open; only a lecturer closes a round.
    Column("left_phase", String(12), nullable=True),
)

specs = Table(
    "poll_question_specs",
    metadata,
    # What a question's id is too short to hold, kept beside it for the room's life: a lecturer's own scene (its Lab
    # state, its question kind, their words), so every phone, projector and replica words it from the database. A new
    # table needs no version step: create_all makes it at start on any version, and an older process ignores it (a
    # version step would stop a replica of the version before mid-deploy with SchemaTooNew).
    Column("room_id", Integer, ForeignKey("poll_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("spec", Text, nullable=False),
)

voters = Table(
    "poll_voters",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, ForeignKey("poll_rooms.id", ondelete="CASCADE"), nullable=False),
    Column("voter_hash", String(64), nullable=False),
    # Version 2: each voter's own vote bucket (None: full), so one voter cannot spend the room's bucket. tokens_at
    # also changes with every vote this voter casts, from any tab: the phone's change stamp reads it.
    Column("vote_tokens", Double, nullable=True),
    Column("tokens_at", Double, nullable=True),
    UniqueConstraint("room_id", "voter_hash", name="poll_voters_one_per_room"),
)

votes = Table(
    "poll_votes",
    metadata,
    # The primary key is the rule "one vote per voter per round": a second vote can only be an update.
    Column("room_id", Integer, ForeignKey("poll_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("question_position", Integer, primary_key=True),
    Column("round_number", Integer, primary_key=True),
    Column("voter_id", Integer, ForeignKey("poll_voters.id", ondelete="CASCADE"), primary_key=True),
    Column("option_index", Integer, nullable=False),
)

openers = Table(
    "poll_openers",
    metadata,
    # Version 2. A bucket of room openings per opener: a hash of a browser's token or of a client address.
    Column("opener_hash", String(64), primary_key=True),
    Column("tokens", Double, nullable=False),
    Column("tokens_at", Double, nullable=False),
)
