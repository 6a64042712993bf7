-- Claim-next's indexes, as engine.New creates them (engine/schema.go): the
-- unowned open jobs by seq and the owned open jobs by lease_until, in place
-- of jobs_open, which made claim-next walk every held job. A native test
-- checks that the migrations together create the engine's schema.
DROP INDEX IF EXISTS jobs_open;
CREATE INDEX IF NOT EXISTS jobs_free ON jobs (seq) WHERE status IN ('pending', 'leased') AND owner IS NULL;
CREATE INDEX IF NOT EXISTS jobs_expiry ON jobs (lease_until, seq) WHERE status IN ('pending', 'leased') AND owner IS NOT NULL;
