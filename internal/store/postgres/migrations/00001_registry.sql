-- The registry: profiles, actions and plans (canonical content, digest,
-- version), the content-addressed objects every profile version is kept
-- as, and the history log. Text that is sorted or compared is in the "C"
-- collation, so the database orders names byte by byte, as every other
-- store does, whatever the database's locale.

-- +goose Up
CREATE TABLE objects (
	digest text COLLATE "C" PRIMARY KEY,
	data   bytea NOT NULL,
	CONSTRAINT objects_digest_is_sha256 CHECK (digest ~ '^[0-9a-f]{64}$'),
	CONSTRAINT objects_content_addressed CHECK (digest = encode(sha256(data), 'hex')),
	CONSTRAINT objects_size CHECK (octet_length(data) <= 16777216)
);
COMMENT ON TABLE objects IS 'every profile version ever written, by the sha256 of its canonical content; never changed or deleted';

CREATE TABLE profiles (
	name        text COLLATE "C" PRIMARY KEY,
	namespace   text COLLATE "C" NOT NULL,
	content     bytea NOT NULL,
	digest      text COLLATE "C" NOT NULL REFERENCES objects (digest),
	version     bigint NOT NULL DEFAULT 1,
	updated_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
	decoded     bytea,
	decoded_by  text,
	decoded_for text COLLATE "C",
	CONSTRAINT profiles_namespace CHECK (name LIKE '%/%' AND namespace = split_part(name, '/', 1)),
	CONSTRAINT profiles_digest CHECK (digest = encode(sha256(content), 'hex')),
	CONSTRAINT profiles_version CHECK (version > 0),
	CONSTRAINT profiles_decoded CHECK (decoded IS NULL OR (decoded_by IS NOT NULL AND decoded_for = digest))
);
CREATE INDEX profiles_by_namespace ON profiles (namespace, name);
COMMENT ON TABLE profiles IS 'custom automation profiles: the canonical YAML of the version held; decoded is a derived form for fast reading, valid only for the agents build decoded_by names';

CREATE TABLE actions (
	name        text COLLATE "C" PRIMARY KEY,
	namespace   text COLLATE "C" NOT NULL,
	content     bytea NOT NULL,
	digest      text COLLATE "C" NOT NULL,
	version     bigint NOT NULL DEFAULT 1,
	updated_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
	decoded     bytea,
	decoded_by  text,
	decoded_for text COLLATE "C",
	CONSTRAINT actions_namespace CHECK (name LIKE '%/%' AND namespace = split_part(name, '/', 1)),
	CONSTRAINT actions_digest CHECK (digest = encode(sha256(content), 'hex')),
	CONSTRAINT actions_version CHECK (version > 0),
	CONSTRAINT actions_decoded CHECK (decoded IS NULL OR (decoded_by IS NOT NULL AND decoded_for = digest))
);
CREATE INDEX actions_by_namespace ON actions (namespace, name);
COMMENT ON TABLE actions IS 'actions: the canonical YAML of each';

CREATE TABLE plans (
	name        text COLLATE "C" PRIMARY KEY,
	namespace   text COLLATE "C",
	content     bytea NOT NULL,
	digest      text COLLATE "C" NOT NULL,
	version     bigint NOT NULL DEFAULT 1,
	updated_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
	decoded     bytea,
	decoded_by  text,
	decoded_for text COLLATE "C",
	CONSTRAINT plans_no_namespace CHECK (namespace IS NULL),
	CONSTRAINT plans_digest CHECK (digest = encode(sha256(content), 'hex')),
	CONSTRAINT plans_version CHECK (version > 0),
	CONSTRAINT plans_decoded CHECK (decoded IS NULL OR (decoded_by IS NOT NULL AND decoded_for = digest))
);
COMMENT ON TABLE plans IS 'plans, by id (ids sort in creation order): the canonical YAML of each';

CREATE TABLE history (
	collection text COLLATE "C" NOT NULL,
	name       text COLLATE "C" NOT NULL,
	seq        bigint NOT NULL,
	event      text NOT NULL,
	digest     text COLLATE "C" NOT NULL REFERENCES objects (digest),
	at         timestamptz NOT NULL,
	at_nanos   smallint NOT NULL DEFAULT 0,
	PRIMARY KEY (collection, name, seq),
	CONSTRAINT history_collection CHECK (collection IN ('profiles', 'actions', 'plans')),
	CONSTRAINT history_seq CHECK (seq > 0),
	CONSTRAINT history_event CHECK (event IN ('put', 'remove')),
	CONSTRAINT history_nanos CHECK (at_nanos BETWEEN 0 AND 999)
);
COMMENT ON TABLE history IS 'every put and remove of a name, in the order they took effect (seq); at_nanos keeps the nanoseconds a timestamptz cannot';
