-- tooldeck's shared state, version 1: every table is keyed by the [storage] namespace.
CREATE SCHEMA IF NOT EXISTS tooldeck;

-- append logs (audit, egress): one JSON line per record, committed before the call returns
CREATE TABLE tooldeck.log_records (
    id bigserial PRIMARY KEY,
    namespace text NOT NULL,
    stream text NOT NULL,
    written_at timestamptz NOT NULL DEFAULT now(),
    line text NOT NULL
);
CREATE INDEX log_records_by_stream ON tooldeck.log_records (namespace, stream, id);

-- max_tool_calls_per_session, counted across workers (UPDATE ... RETURNING)
CREATE TABLE tooldeck.quota_counters (
    namespace text NOT NULL,
    caller bytea NOT NULL,
    used integer NOT NULL,
    PRIMARY KEY (namespace, caller)
);

-- run-time trust levels (tooldeck trust set/reset, anomaly blocks); changes are NOTIFYed
CREATE TABLE tooldeck.trust_overrides (
    namespace text NOT NULL,
    kind text NOT NULL,
    name bytea NOT NULL,
    level text NOT NULL,
    set_by text NOT NULL,
    reason text NOT NULL,
    set_at double precision NOT NULL,
    PRIMARY KEY (namespace, kind, name)
);

-- long outputs by session scope
CREATE TABLE tooldeck.overflow_sessions (
    namespace text NOT NULL,
    scope text NOT NULL,
    created double precision NOT NULL,
    PRIMARY KEY (namespace, scope)
);
CREATE TABLE tooldeck.overflow_entries (
    namespace text NOT NULL,
    id uuid NOT NULL,
    scope text NOT NULL,
    tool text NOT NULL,
    created double precision NOT NULL,
    bytes integer NOT NULL,
    content bytea NOT NULL,
    PRIMARY KEY (namespace, id),
    FOREIGN KEY (namespace, scope) REFERENCES tooldeck.overflow_sessions ON DELETE CASCADE
);
CREATE INDEX overflow_entries_by_scope ON tooldeck.overflow_entries (namespace, scope, created);

-- scheduled calls; a runner claims due rows with FOR UPDATE SKIP LOCKED
CREATE TABLE tooldeck.tasks (
    namespace text NOT NULL,
    scope text NOT NULL,
    name text NOT NULL,
    caller text,
    cron text,
    next_run double precision NOT NULL,
    tool text NOT NULL,
    params text NOT NULL,
    created double precision NOT NULL,
    runs integer NOT NULL DEFAULT 0,
    PRIMARY KEY (namespace, scope, name)
);
CREATE INDEX tasks_by_time ON tooldeck.tasks (namespace, next_run);

-- memory notes, searched with full-text search
CREATE TABLE tooldeck.notes (
    id bigserial PRIMARY KEY,
    namespace text NOT NULL,
    scope text NOT NULL,
    created double precision NOT NULL,
    tags text NOT NULL,
    content text NOT NULL,
    search tsvector GENERATED ALWAYS AS (to_tsvector('simple', content || ' ' || tags)) STORED
);
CREATE INDEX notes_by_scope ON tooldeck.notes (namespace, scope, id);
CREATE INDEX notes_search ON tooldeck.notes USING gin (search);
